/**
 * Reads the host's stdin text into a `HookInput`, by hand (a schema library
 * would cost the hook its start-up budget).
 *
 * Tolerant where hosts differ: unknown keys are kept, optional fields of the
 * wrong type are dropped (a stage then sees them as absent, never as a
 * surprise type). Strict where routing depends on it: anything but a JSON
 * object naming a known `hook_event_name` is `null`, which the dispatcher
 * answers with a pass-through.
 *
 * @module
 */
import { isRecord, parseJson } from '../util/json.js';
import { HOOK_EVENTS } from './input.js';
import type { HookEventName, HookInput } from './input.js';

/** Optional fields the stages read as strings (seed 000 §4, codebuddy-host README §2). */
const STRING_FIELDS = [
  'session_id',
  'transcript_path',
  'cwd',
  'permission_mode',
  'generation_id',
  'client',
  'version',
  'model',
  'agent_type',
  'source',
  'prompt',
  'tool_name',
  'tool_use_id',
  'call_id',
  'last_assistant_message',
  'agent_id',
  'agent_transcript_path',
  'trigger',
  'custom_instructions',
  'reason',
] as const;

/** Optional fields the stages read as booleans. */
const BOOLEAN_FIELDS = ['is_internal_continuation', 'stop_hook_active'] as const;

/**
 * @param text - the whole stdin, as received.
 * @returns the input, or `null` for empty text, invalid JSON, a non-object,
 *   or a missing/unknown event name. Never throws.
 */
export function parseHookInput(text: string): HookInput | null {
  return hookInputFromJson(parsePayload(text));
}

/** `parseHookInput` for a value already parsed from the stdin text (same rules, same result). */
export function hookInputFromJson(value: unknown): HookInput | null {
  if (!isRecord(value) || !isHookEventName(value.hook_event_name)) return null;
  // Spread copies own keys as data properties, so a `__proto__` key stays inert.
  const input: Record<string, unknown> = { ...value };
  for (const key of STRING_FIELDS) dropUnless(input, key, 'string');
  for (const key of BOOLEAN_FIELDS) dropUnless(input, key, 'boolean');
  return input as HookInput;
}

/** True for the event names the plugin knows. */
export function isHookEventName(value: unknown): value is HookEventName {
  return typeof value === 'string' && (HOOK_EVENTS as readonly string[]).includes(value);
}

function dropUnless(input: Record<string, unknown>, key: string, type: 'string' | 'boolean'): void {
  if (Object.hasOwn(input, key) && typeof input[key] !== type) delete input[key];
}

/** Bad JSON means "no input"; a leading byte order mark is no part of it. */
function parsePayload(text: string): unknown {
  return parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}
