/**
 * Our recall block's mark (issue 29 item 5). The hooks module's memory card
 * reads the recall block out of the prompt's folded context when the module
 * did not recall itself (recall/block.ts `recalledInBlock`), and that
 * context holds every plugin's hook output: another plugin that injects a
 * repository's text could carry a block that looks like ours, and the card
 * would show "recalled" memories that never came from OpenViking. So each
 * block we write carries `mark="<24 hex>"`: SHA-256 of a private key, the
 * session, and the memory elements' attributes (what the card reads back),
 * and the card counts a block only when the mark is the one it computes.
 * Text committed to a repository, written before the key existed, cannot
 * carry it; a copy of an earlier block of ours names memories we did
 * recall, and only in its own session.
 *
 * The key: 32 random hex digits in `<data dir>/recall-mark.key` (0600),
 * made the first time a block is written (the one `crypto.getRandomValues`
 * of this data dir: 2-14 ms once, measured; D13), one small-file read
 * afterwards. SHA-256 in plain JavaScript (store/sha256.ts) over a few
 * hundred bytes: ~0.05 ms.
 *
 * @module
 */
import { join } from 'node:path';
import { writeFileAtomicSync } from '../store/atomic.js';
import { sha256Hex } from '../store/sha256.js';
import { readSmallFile } from '../store/smallFile.js';

/** Hex digits of a mark. */
export const MARK_CHARS = 24;
const KEY = /^[0-9a-f]{32}$/;

/** Where the key lives. */
export function markKeyFile(dataDir: string): string {
  return join(dataDir, 'recall-mark.key');
}

/** The key, or undefined when there is none (yet) or it is not one. */
export function readMarkKey(dataDir: string): string | undefined {
  const text = readSmallFile(markKeyFile(dataDir), 64).text?.trim();
  return text !== undefined && KEY.test(text) ? text : undefined;
}

/** The key, made first when there is none; undefined when none can be made (no random source, a disk that refuses). */
export function ensureMarkKey(dataDir: string): string | undefined {
  const held = readMarkKey(dataDir);
  if (held !== undefined) return held;
  const random = globalThis.crypto?.getRandomValues?.(new Uint8Array(16));
  if (random === undefined) return undefined;
  try {
    writeFileAtomicSync(markKeyFile(dataDir), [...random].map((byte) => byte.toString(16).padStart(2, '0')).join(''));
  } catch {
    return undefined;
  }
  // Two first writers at once: the one whose file stayed is the key.
  return readMarkKey(dataDir);
}

/** The start of each memory element of a block, with its attributes (what `recalledInBlock` reads back). */
const MEMORY_ATTRIBUTES = /^<memory ((?:[a-z]+="[^"]*" ?)+)\/?>/gm;

/** The mark of a block's `body` (what follows its opening tag) for `key` in `sessionId`. */
export function blockMark(key: string, sessionId: string, body: string): string {
  const attributes = [...body.matchAll(MEMORY_ATTRIBUTES)].map((match) => match[1] ?? '').join('\n');
  return sha256Hex(`${key}\n${sessionId}\n${attributes}`).slice(0, MARK_CHARS);
}
