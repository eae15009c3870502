/**
 * The two messages between a hook and its resident, as JSON:
 * - the request travels in the FIFO as one line `<id> <json>` when that
 *   line fits in PIPE_BUF (one write, so concurrent hooks' lines never
 *   interleave); a larger one goes in a file (`<key>-<id>.request`, removed
 *   by the resident once read) and only `<id>` travels;
 * - the reply is a file (`<key>-<id>.reply`), renamed into place whole by
 *   the resident and removed by the hook once read.
 *
 * Both sides treat the other's file as untrusted: a request is re-validated
 * like host stdin, and a reply can only be a pass-through or a context
 * block (never a deny, which only the guard gives).
 *
 * @module
 */
import type { StageResult } from '../protocol/stage.js';
import { isRecord, parseJson } from '../util/json.js';
import type { HookInput } from '../protocol/input.js';
import { hookInputFromJson } from '../protocol/parse.js';
import { RESIDENT_PROTOCOL_VERSION } from './identity.js';

export interface ResidentRequest {
  input: HookInput;
  /** The hook's working directory. */
  cwd: string;
  /** The hook's per-session variables (identity.ts `requestEnvironment`). */
  env: Record<string, string>;
  /** The print of the environment relay.sh saw (door.ts), when relay.sh started this hook: the resident opens a door for it. */
  door?: string;
}

export function encodeRequest(request: ResidentRequest): string {
  return JSON.stringify({ v: RESIDENT_PROTOCOL_VERSION, ...request });
}

/** @returns the request, or undefined for anything a hook would not have written. */
export function decodeRequest(text: string): ResidentRequest | undefined {
  const value = parseJson(text);
  if (
    !isRecord(value) ||
    value.v !== RESIDENT_PROTOCOL_VERSION ||
    typeof value.cwd !== 'string' ||
    !isRecord(value.env)
  )
    return undefined;
  const input = hookInputFromJson(value.input);
  if (input === null) return undefined;
  const env: Record<string, string> = {};
  for (const [name, variable] of Object.entries(value.env)) if (typeof variable === 'string') env[name] = variable;
  return { input, cwd: value.cwd, env, ...(typeof value.door === 'string' ? { door: value.door } : {}) };
}

export function encodeReply(result: StageResult): string {
  return JSON.stringify({ v: RESIDENT_PROTOCOL_VERSION, result });
}

/**
 * @returns the stage result (with the start's line for the user, `notice`,
 * when it has one), or undefined when the reply is not a pass-through or a
 * context block.
 */
export function decodeReply(text: string): StageResult | undefined {
  const value = parseJson(text);
  if (!isRecord(value) || value.v !== RESIDENT_PROTOCOL_VERSION || !isRecord(value.result)) return undefined;
  const { kind, text: context, notice } = value.result;
  const told = typeof notice === 'string' ? { notice } : {};
  if (kind === 'pass') return { kind: 'pass', ...told };
  if (kind === 'context' && typeof context === 'string') return { kind: 'context', text: context, ...told };
  return undefined;
}
