/**
 * Generated hook stdin payloads for the dispatcher fuzzer, one per case
 * index, drawn from a seeded generator: real payload shapes of both host
 * versions (tests/support/host-sim/payloads.ts), then mutated, truncated,
 * retyped, blown up, nested deep, or broken at the byte level.
 *
 * Every case is bytes, like a real stdin; the in-process driver decodes them
 * with the same UTF-8 decoding as `readBoundedStdin`.
 *
 * @module
 */
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../../src/protocol/input.js';
import { createPayloads } from '../../support/host-sim/payloads.js';
import { deepJson, randomString, randomValue } from './rng.js';
import type { Rng } from './rng.js';

export type CaseKind =
  | 'valid'
  | 'mutated'
  | 'wrong-types'
  | 'truncated'
  | 'huge-string'
  | 'deep-nesting'
  | 'invalid-utf8'
  | 'not-an-object'
  | 'garbage';

export interface StdinCase {
  kind: CaseKind;
  bytes: Buffer;
  /** The event the generator meant (informational: byte-level damage may change what parses). */
  event?: string;
}

export interface CaseContext {
  workspace: string;
  configDir: string;
  /** Transcripts that exist (fixture copies); valid capture payloads point at them. */
  transcripts: readonly string[];
}

/** Weighted kinds: mostly valid and near-valid, since those reach the stages. */
const KINDS: readonly CaseKind[] = [
  'valid',
  'valid',
  'valid',
  'valid',
  'mutated',
  'mutated',
  'mutated',
  'wrong-types',
  'wrong-types',
  'truncated',
  'truncated',
  'huge-string',
  'deep-nesting',
  'invalid-utf8',
  'invalid-utf8',
  'not-an-object',
  'garbage',
];

const TOOLS = [
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Glob',
  'Grep',
  'NotebookEdit',
  'NotebookRead',
  'LS',
  'Bash',
  'mcp__openviking__read',
  'DeferExecuteTool',
];
const PROMPTS = [
  'which editor do I prefer?',
  'fix the failing test in src/app.ts',
  'hi',
  '/compact',
  'remember that I use Helix',
  '中文问题：我喜欢什么编辑器？',
  '<private>my password is hunter2</private> what now',
];
const FIELDS = [
  'session_id',
  'transcript_path',
  'cwd',
  'prompt',
  'tool_name',
  'tool_input',
  'source',
  'agent_id',
  'agent_transcript_path',
  'trigger',
  'reason',
  'stop_hook_active',
  'is_internal_continuation',
  'hook_event_name',
  'last_assistant_message',
];

/** A payload object as a real host would send it, for a random event. */
export function validPayload(rng: Rng, context: CaseContext): Record<string, unknown> {
  const sessionId = rng.chance(0.8) ? `fuzz-${rng.int(0, 40)}` : randomString(rng, 20);
  const p = createPayloads({
    workspace: context.workspace,
    configDir: context.configDir,
    sessionId,
    hostVersion: rng.chance(0.5) ? '2.117' : '2.163',
  });
  const transcript =
    rng.chance(0.7) && context.transcripts.length > 0
      ? rng.pick(context.transcripts)
      : join(context.workspace, `missing-${rng.int(0, 9)}.jsonl`);
  // Weighted like a real session: tool calls dominate, network stages are rarer (and cost the most per case).
  const roll = rng.int(0, 99);
  if (roll < 40) return p.preToolUse(rng.pick(TOOLS), toolInput(rng));
  if (roll < 55) return p.stop(randomString(rng, 60), { transcript_path: transcript });
  if (roll < 63) return p.subagentStop(`agent-${rng.int(0, 3)}`, { agent_transcript_path: transcript });
  if (roll < 73) return p.userPromptSubmit(rng.chance(0.8) ? rng.pick(PROMPTS) : randomString(rng, 200), rng.int(1, 5));
  if (roll < 78) return p.sessionStart(rng.pick(['startup', 'resume', 'clear', 'compact']));
  if (roll < 81) return p.preCompact(rng.pick(['auto', 'manual']), { transcript_path: transcript });
  return rng.chance(0.5)
    ? p.sessionEnd(rng.pick(['clear', 'logout', 'prompt_input_exit', 'other']))
    : p.subagentStart(`agent-${rng.int(0, 3)}`);
}

function toolInput(rng: Rng): unknown {
  const uri = rng.pick([
    'viking://user/x.md',
    'VIKING:/agent/skills',
    ' "viking://resources/a"',
    '/tmp/file.txt',
    'src/viking.ts',
    'viking:',
    'viking:///',
  ]);
  switch (rng.int(0, 5)) {
    case 0:
      return { file_path: uri };
    case 1:
      return { pattern: rng.pick(['**/*.md', uri]), path: rng.chance(0.5) ? uri : '.' };
    case 2:
      return { file_path: '/tmp/a.txt', content: `see ${uri}` };
    case 3:
      return { edits: [{ file_path: uri, old_string: 'a', new_string: 'b' }] };
    case 4:
      return { paths: [uri, randomString(rng)] };
    default:
      return randomValue(rng, 4);
  }
}

function bytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

function eventOf(payload: Record<string, unknown>): string | undefined {
  const event = payload.hook_event_name;
  return typeof event === 'string' && (HOOK_EVENTS as readonly string[]).includes(event) ? event : undefined;
}

function withEvent(kind: CaseKind, payload: Record<string, unknown>, text: string): StdinCase {
  const event = eventOf(payload);
  return event === undefined ? { kind, bytes: bytes(text) } : { kind, bytes: bytes(text), event };
}

function mutate(rng: Rng, payload: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...payload };
  for (let edits = rng.int(1, 4); edits > 0; edits--) {
    const keys = Object.keys(copy);
    switch (rng.int(0, 4)) {
      case 0:
        if (keys.length > 0) delete copy[rng.pick(keys)];
        break;
      case 1:
        copy[randomString(rng, 12)] = randomValue(rng);
        break;
      case 2:
        copy.hook_event_name = rng.pick([...HOOK_EVENTS, 'stop', 'PRETOOLUSE', ' Stop', 'Stop\u0000', '', 'Unknown']);
        break;
      case 3:
        copy[rng.pick(FIELDS)] = randomString(rng, 80);
        break;
      default:
        // An own "__proto__" key, as JSON.parse would produce it from hostile input.
        Object.defineProperty(copy, '__proto__', {
          value: { hook_event_name: 'PreToolUse', polluted: true },
          enumerable: true,
          configurable: true,
          writable: true,
        });
    }
  }
  return copy;
}

function retype(rng: Rng, payload: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...payload };
  for (const key of FIELDS) {
    if (key === 'hook_event_name' && rng.chance(0.8)) continue;
    if (rng.chance(0.5)) copy[key] = rng.pick([null, 0, 1, true, false, [], {}, ['a'], { a: 1 }, Infinity, -1]);
  }
  return copy;
}

function huge(rng: Rng, payload: Record<string, unknown>): Record<string, unknown> {
  const size = rng.chance(0.1) ? rng.pick([512 * 1024, 5 * 1024 * 1024]) : rng.pick([16 * 1024, 64 * 1024]);
  const filler = rng.pick(['a', 'viking:// ', '中', '<private>x</private>', 'password=hunter2 ']).repeat(size / 8);
  const key = rng.pick([
    'prompt',
    'tool_input',
    'last_assistant_message',
    'session_id',
    'transcript_path',
    'cwd',
    'custom_instructions',
  ]);
  return { ...payload, [key]: key === 'tool_input' ? { file_path: filler, content: filler } : filler };
}

function deep(rng: Rng, payload: Record<string, unknown>): string {
  const levels = rng.chance(0.05) ? 100_000 : rng.pick([64, 1_000, 10_000]);
  const nested = deepJson(levels, rng.chance(0.5) ? 'array' : 'object');
  const key = rng.pick(['tool_input', 'prompt', 'extra', 'session_id']);
  const base = JSON.stringify({ ...payload, [key]: 0 });
  return base.replace(`"${key}":0`, `"${key}":${nested}`);
}

/** Inserts invalid UTF-8 sequences (lone continuation bytes, truncated leads, overlongs, 0xFF) into the bytes. */
function breakUtf8(rng: Rng, text: string): Buffer {
  const source = bytes(text);
  const parts: Buffer[] = [];
  let at = 0;
  for (let inserts = rng.int(1, 6); inserts > 0; inserts--) {
    const cut = rng.int(at, source.length);
    parts.push(
      source.subarray(at, cut),
      Buffer.from(
        rng.pick([
          [0xff],
          [0x80],
          [0xc3],
          [0xe2, 0x82],
          [0xc0, 0xaf],
          [0xed, 0xa0, 0x80],
          [0xf4, 0x90, 0x80, 0x80],
          [0xfe, 0xfe],
        ]),
      ),
    );
    at = cut;
  }
  parts.push(source.subarray(at));
  return Buffer.concat(parts);
}

/** The case at `rng` (a per-case fork of the run's generator). */
export function generateCase(rng: Rng, context: CaseContext): StdinCase {
  const kind = rng.pick(KINDS);
  const payload = validPayload(rng, context);
  const text = JSON.stringify(payload);
  switch (kind) {
    case 'valid':
      return withEvent(kind, payload, rng.chance(0.1) ? `\ufeff${text}\n` : text);
    case 'mutated': {
      const mutated = mutate(rng, payload);
      return withEvent(kind, mutated, JSON.stringify(mutated));
    }
    case 'wrong-types': {
      const retyped = retype(rng, payload);
      return withEvent(kind, retyped, JSON.stringify(retyped));
    }
    case 'truncated':
      return { kind, bytes: bytes(text.slice(0, rng.int(0, Math.max(0, text.length - 1)))) };
    case 'huge-string': {
      const big = huge(rng, payload);
      return withEvent(kind, big, JSON.stringify(big));
    }
    case 'deep-nesting':
      return withEvent(kind, payload, deep(rng, payload));
    case 'invalid-utf8':
      return { kind, bytes: breakUtf8(rng, text) };
    case 'not-an-object':
      return {
        kind,
        bytes: bytes(
          rng.pick([
            'null',
            '[]',
            '"Stop"',
            '42',
            'true',
            '[{"hook_event_name":"Stop"}]',
            '{}',
            '{"hook_event_name":null}',
            ' ',
            '',
          ]),
        ),
      };
    case 'garbage':
      return { kind, bytes: Buffer.from(Array.from({ length: rng.int(0, 2048) }, () => rng.int(0, 255))) };
  }
}
