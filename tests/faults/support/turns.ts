/**
 * Writes CodeBuddy-format transcripts turn by turn, the way the 2.117 host
 * appends them (one user `message` record, then one assistant `message`
 * record; see tests/fixtures/transcripts/codebuddy), with a marker in every
 * text so the ledger can count each message on the server.
 *
 * Marker: `<tag>#<n>/user` and `<tag>#<n>/assistant`. The tag keeps the
 * turns of two sessions (or two tests) apart in one server.
 *
 * @module
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type TurnRole = 'user' | 'assistant';

/** The text marker of one message of turn `n`. */
export function turnMarker(tag: string, n: number, role: TurnRole): string {
  return `${tag}#${n}/${role}`;
}

/** Every marker `turns` complete turns produce, in transcript order. */
export function expectedMarkers(tag: string, turns: number, firstTurn = 1): string[] {
  const markers: string[] = [];
  for (let n = firstTurn; n < firstTurn + turns; n++)
    markers.push(turnMarker(tag, n, 'user'), turnMarker(tag, n, 'assistant'));
  return markers;
}

export interface TurnOptions {
  sessionId: string;
  cwd: string;
  /** Epoch ms of the first record; each record adds one second. */
  baseTime?: number;
  /** Pads each user text with this many filler characters (to reach a file size). */
  padChars?: number;
}

/** The JSONL text of turn `n` (two lines, each ending in a newline). */
export function turnLines(tag: string, n: number, options: TurnOptions): string {
  const time = (options.baseTime ?? 1_796_000_000_000) + n * 2_000;
  const pad = options.padChars
    ? ` ${'lorem ipsum '.repeat(Math.ceil(options.padChars / 12)).slice(0, options.padChars)}`
    : '';
  const user = {
    id: `u-${tag}-${n}`,
    timestamp: time,
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: `${turnMarker(tag, n, 'user')} please note fact ${n}${pad}` }],
    providerData: { agent: 'cli' },
    sessionId: options.sessionId,
    cwd: options.cwd,
  };
  const assistant = {
    id: `chatcmpl-${tag}-${n}`,
    parentId: user.id,
    timestamp: time + 1_000,
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: `${turnMarker(tag, n, 'assistant')} noted fact ${n}` }],
    providerData: { agent: 'cli' },
    sessionId: options.sessionId,
    cwd: options.cwd,
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}

/** A transcript file that grows turn by turn. */
export interface TranscriptWriter {
  readonly path: string;
  /** Turns written so far. */
  readonly turns: number;
  /** Appends `count` complete turns; returns the number of the last one. */
  append(count?: number): number;
}

export function createTranscript(path: string, tag: string, options: TurnOptions): TranscriptWriter {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, '', { mode: 0o600 });
  let turns = 0;
  return {
    path,
    get turns() {
      return turns;
    },
    append(count = 1) {
      let text = '';
      for (let i = 0; i < count; i++) text += turnLines(tag, ++turns, options);
      appendFileSync(path, text);
      return turns;
    },
  };
}

/** Writes a transcript of about `bytes` bytes in one go (for size benchmarks); returns the number of turns. */
export function writeTranscriptOfSize(path: string, tag: string, bytes: number, options: TurnOptions): number {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const sample = turnLines(tag, 1, options).length;
  const turns = Math.max(1, Math.round(bytes / sample));
  const chunks: string[] = [];
  for (let n = 1; n <= turns; n++) chunks.push(turnLines(tag, n, options));
  writeFileSync(path, chunks.join(''), { mode: 0o600 });
  return turns;
}
