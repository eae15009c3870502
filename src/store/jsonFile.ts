/**
 * The JSON reader of the plugin's own state files, which tells "missing"
 * from "corrupt". Reads go through store/smallFile.ts like every other
 * small-file read: a state file that is not a regular file, or larger than
 * MAX_STATE_FILE_BYTES (far above any state the plugin writes), reads as
 * unreadable, never as a hang. The writers are in store/atomic.ts.
 *
 * @module
 */
import { describeJsonSyntax } from '../util/jsonSyntax.js';
import { readSmallFile } from './smallFile.js';

/** Largest state file read (capture state, start answers, status: kilobytes to a few hundred). */
export const MAX_STATE_FILE_BYTES = 64 * 1024 * 1024;

/** The parsed content of a small JSON file, read synchronously; undefined when missing, corrupt or unreadable. */
export function readJsonSync(path: string): unknown {
  const file = readSmallFile(path, MAX_STATE_FILE_BYTES);
  if (file.absent !== undefined) return undefined;
  try {
    return JSON.parse(file.text) as unknown;
  } catch {
    // Missing, unreadable or not JSON: all read as absent here (readJsonDetailed tells them apart).
    return undefined;
  }
}

export type JsonReadResult =
  | { status: 'ok'; value: unknown }
  | { status: 'missing' }
  /** Not JSON (or not UTF-8 text): a bug or a foreign writer; `reason` says which. */
  | { status: 'corrupt'; reason: string }
  /** Exists but cannot be read (permissions, a directory, ...). */
  | { status: 'unreadable'; reason: string };

/**
 * Reads and parses a JSON file; never throws. The read is synchronous: the
 * plugin's JSON files are state and queue entries of a few KB read on a
 * hook's clock, where the thread pool's four round trips (open, stat,
 * read, close) cost more than the blocking read itself.
 */
export async function readJsonDetailed(path: string): Promise<JsonReadResult> {
  const file = readSmallFile(path, MAX_STATE_FILE_BYTES);
  if (file.absent === 'missing') return { status: 'missing' };
  if (file.absent !== undefined) return { status: 'unreadable', reason: `${path} ${file.why}` };
  const text = file.text;
  try {
    return { status: 'ok', value: JSON.parse(text) as unknown };
  } catch {
    return { status: 'corrupt', reason: `invalid JSON (${text.length} chars; ${describeJsonSyntax(text)})` };
  }
}

/** The parsed content, or undefined when missing, corrupt or unreadable (use `readJsonDetailed` for why). */
export async function readJson(path: string): Promise<unknown> {
  const result = await readJsonDetailed(path);
  return result.status === 'ok' ? result.value : undefined;
}
