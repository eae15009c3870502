/**
 * The conversation's last exchange, for recall's follow-up query
 * (recall/followUp.ts, DESIGN D43): the last assistant message with text and
 * the user message before it, read from the END of the transcript (at most
 * `maxBytes`, whole lines only, so a 50 MB transcript costs what its last
 * lines cost), decoded as capture decodes them (either host's format). A
 * user record holding the current prompt (a host that writes the prompt
 * before UserPromptSubmit) is not part of it: only what comes before the
 * last assistant message counts. Never throws: a missing or unreadable file
 * is no exchange.
 *
 * Read with synchronous calls: the hook entry carries this (hook/nodeDeps.ts),
 * and `node:fs/promises` costs every hook ~2.4 ms to load (issue 39); one
 * read of at most 64 KiB does not need the thread pool.
 *
 * @module
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { decodeTranscriptRecords } from './decode.js';
import { codeBuddyUserText } from './host-text.js';
import { TRANSCRIPT_OPEN_FLAGS } from './reader.js';
import type { DecodedMessage } from './types.js';

export interface LastExchange {
  user?: string;
  assistant?: string;
}

/** How much of a transcript's end is read: enough for a long answer and the prompt before it. */
export const LAST_EXCHANGE_BYTES = 64 * 1024;

export async function readLastExchange(path: string, maxBytes = LAST_EXCHANGE_BYTES): Promise<LastExchange> {
  let fd: number | undefined;
  try {
    fd = openSync(path, TRANSCRIPT_OPEN_FLAGS);
    const { size } = fstatSync(fd);
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    const bytesRead = readSync(fd, buffer, 0, buffer.length, start);
    return lastExchangeOf(linesOf(buffer.subarray(0, bytesRead).toString('utf8'), start > 0));
  } catch {
    return {};
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing left to release.
  }
}

/** The JSON records of whole lines (the first dropped when the read began mid-file). */
function linesOf(text: string, cut: boolean): unknown[] {
  const lines = text.split('\n');
  if (cut) lines.shift();
  return lines.flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
}

function textOf(message: DecodedMessage): string {
  return message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

/** From decoded records: the last assistant text and the user text before it. */
export function lastExchangeOf(records: readonly unknown[]): LastExchange {
  const messages = decodeTranscriptRecords(records).messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    const assistant = textOf(message);
    if (assistant === '') continue;
    const before = messages.slice(0, index).reverse();
    const userMessage = before.find((candidate) => candidate.role === 'user' && textOf(candidate) !== '');
    const user = userMessage === undefined ? '' : codeBuddyUserText(textOf(userMessage));
    return { assistant, ...(user !== '' ? { user } : {}) };
  }
  return {};
}
