/**
 * Generated transcript files for the transcript fuzzer: plausible records of
 * both host formats (CodeBuddy's OpenAI-Agents-style records and Claude
 * Code's message-wrapped ones) mixed with what a crash, a bug or a hostile
 * file can leave behind: truncated lines, binary junk, unknown record types,
 * 1 MB lines, reused ids, calls without results and results without calls.
 *
 * @module
 */
import { randomString, randomValue } from './rng.js';
import type { Rng } from './rng.js';

export interface TranscriptCase {
  /** The file's bytes. */
  bytes: Buffer;
  /** Byte offset where the file is cut for the first of two incremental reads. */
  splitAt: number;
  /** True when some line is about 1 MB long. */
  hasHugeLine: boolean;
}

function id(rng: Rng, used: string[]): string {
  if (used.length > 0 && rng.chance(0.15)) return rng.pick(used);
  const fresh = rng.chance(0.5) ? `chatcmpl-${rng.int(0, 30)}` : `${rng.int(0, 1e9).toString(16)}-${used.length}`;
  used.push(fresh);
  return fresh;
}

function text(rng: Rng): string {
  if (rng.chance(0.1)) return `note <private>secret ${rng.int(0, 99)}</private> and password=hunter${rng.int(0, 99)}`;
  if (rng.chance(0.1))
    return `<openviking-context source="recall">old recall</openviking-context> ${randomString(rng)}`;
  return randomString(rng, 120);
}

function codeBuddyRecord(rng: Rng, used: string[], calls: string[]): unknown {
  const base = {
    id: id(rng, used),
    timestamp: rng.chance(0.9) ? 1_796_000_000_000 + rng.int(0, 1e6) : randomValue(rng, 1),
    sessionId: 's',
    cwd: '/ws',
  };
  switch (rng.int(0, 6)) {
    case 0:
      return {
        ...base,
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: text(rng) }],
        ...(rng.chance(0.1) ? { isMeta: true } : {}),
      };
    case 1:
      return {
        ...base,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: text(rng) }],
      };
    case 2: {
      const callId = `call_${rng.int(0, 20)}`;
      calls.push(callId);
      return {
        ...base,
        type: 'function_call',
        callId,
        name: rng.pick(['Read', 'Bash', 'mcp__openviking__read', 'Agent']),
        arguments: rng.chance(0.8) ? JSON.stringify({ file_path: '/a' }) : '{"broken',
      };
    }
    case 3:
      return {
        ...base,
        type: 'function_call_result',
        callId: calls.length > 0 && rng.chance(0.8) ? rng.pick(calls) : 'call_orphan',
        name: 'Read',
        status: rng.pick(['completed', 'failed', 'incomplete']),
        output: rng.chance(0.7) ? { type: 'text', text: text(rng) } : randomValue(rng, 2),
      };
    case 4:
      return { ...base, type: rng.pick(['reasoning', 'turn-metrics', 'file-history-snapshot', 'summary', 'ai-title']) };
    case 5:
      return { ...base, type: randomString(rng, 10), payload: randomValue(rng, 2) };
    default:
      return {
        ...base,
        type: 'message',
        role: rng.pick(['user', 'assistant', 'system', 'tool', 7]),
        content: randomValue(rng, 3),
      };
  }
}

function claudeCodeRecord(rng: Rng, used: string[], calls: string[]): unknown {
  const base = {
    uuid: id(rng, used),
    parentUuid: used.length > 1 ? used[used.length - 2] : null,
    timestamp: '2026-11-30T00:00:00.000Z',
    sessionId: 's',
    isSidechain: rng.chance(0.1),
  };
  switch (rng.int(0, 4)) {
    case 0:
      return {
        ...base,
        type: 'user',
        message: { role: 'user', content: rng.chance(0.5) ? text(rng) : [{ type: 'text', text: text(rng) }] },
      };
    case 1: {
      const callId = `toolu_${rng.int(0, 20)}`;
      calls.push(callId);
      return {
        ...base,
        type: 'assistant',
        message: {
          role: 'assistant',
          id: `msg_${rng.int(0, 9)}`,
          content: [
            { type: 'text', text: text(rng) },
            { type: 'tool_use', id: callId, name: 'Read', input: randomValue(rng, 2) },
          ],
        },
      };
    }
    case 2:
      return {
        ...base,
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: calls.length > 0 ? rng.pick(calls) : 'x',
              content: randomValue(rng, 2),
              is_error: rng.chance(0.2),
            },
          ],
        },
      };
    case 3:
      return {
        ...base,
        type: rng.pick(['summary', 'system', 'file-history-snapshot', 'progress']),
        content: randomValue(rng, 2),
      };
    default:
      return { ...base, type: 'assistant', message: randomValue(rng, 3) };
  }
}

/** One line of junk: bytes that are not a JSON object. */
function junkLine(rng: Rng): Buffer {
  switch (rng.int(0, 4)) {
    case 0:
      return Buffer.from(Array.from({ length: rng.int(1, 300) }, () => rng.int(0, 255)).filter((byte) => byte !== 10));
    case 1:
      return Buffer.from(rng.pick(['[]', '42', '"text"', 'null', '{', '}', '{"type":"message"', 'NaN']));
    case 2:
      return Buffer.from(`{"type":"message","role":"user","content":[{"type":"input_text","text":"${'\\ud800'}"}]}`);
    case 3:
      return Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
    default:
      return Buffer.from(randomString(rng, 80));
  }
}

/** A 1 MB line: one record whose text is huge (sometimes secret-laden, to stress the redactors). */
function hugeLine(rng: Rng): Buffer {
  const filler = rng
    .pick(['a', 'password=', 'AKIA', '<private>', 'viking://', '中'])
    .repeat(rng.int(100_000, 350_000))
    .slice(0, 1_000_000);
  return Buffer.from(
    JSON.stringify({
      id: 'huge',
      timestamp: 1,
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: filler }],
    }),
  );
}

/** The transcript at `rng` (a per-case fork). */
export function generateTranscript(rng: Rng): TranscriptCase {
  const claude = rng.chance(0.3);
  const used: string[] = [];
  const calls: string[] = [];
  const lines: Buffer[] = [];
  let hasHugeLine = false;
  for (let count = rng.int(0, 40); count > 0; count--) {
    if (rng.chance(0.1)) lines.push(junkLine(rng));
    else if (rng.chance(0.01)) {
      lines.push(hugeLine(rng));
      hasHugeLine = true;
    } else
      lines.push(
        Buffer.from(JSON.stringify(claude ? claudeCodeRecord(rng, used, calls) : codeBuddyRecord(rng, used, calls))),
      );
    if (rng.chance(0.05) && lines.length > 0) lines.push(lines[rng.int(0, lines.length - 1)] as Buffer);
  }
  const parts = lines.flatMap((line) => [line, Buffer.from(rng.chance(0.05) ? '\r\n' : '\n')]);
  let bytes = Buffer.concat(parts);
  if (rng.chance(0.2) && bytes.length > 0) bytes = bytes.subarray(0, rng.int(0, bytes.length));
  return { bytes, splitAt: rng.int(0, bytes.length), hasHugeLine };
}
