/**
 * Decodes one hook run (exit code, stdout, stderr) into a host-neutral
 * `HookOutput`, the way Claude-Code-compatible hosts read it:
 * - exit 0: stdout is parsed leniently as JSON; anything else stays plain text;
 * - exit 2: a blocking error, stderr being the reason;
 * - any other exit (or none): a non-blocking error, shown to the user only.
 * Never throws: malformed JSON and wrongly typed fields are simply not read.
 *
 * @module
 */
import { isRecord } from '../../../../src/util/json.js';
import type { HookOutput } from './types.js';

/** Exit code that means "blocking error" on every Claude-Code-compatible host. */
export const BLOCKING_EXIT_CODE = 2;

/**
 * @param exitCode - the process's code; `null`/`undefined` when it did not exit normally.
 * @param stdout - raw stdout.
 * @param stderr - raw stderr.
 */
export function parseHookOutput(exitCode: number | null | undefined, stdout: string, stderr: string): HookOutput {
  const out = stdout.trim();
  const err = stderr.trim();
  const code = exitCode ?? undefined;
  if (code === 0) return { ...readStructuredStdout(out), exitCode: 0, stdout: out, stderr: err, status: 'ok' };
  if (code === BLOCKING_EXIT_CODE) {
    return {
      exitCode: code,
      stdout: out,
      stderr: err,
      status: 'blocking',
      decision: 'block',
      ...(err ? { reason: err } : {}),
    };
  }
  return { exitCode: code, stdout: out, stderr: err, status: 'non-blocking' };
}

type StructuredFields = Omit<HookOutput, 'exitCode' | 'stdout' | 'stderr' | 'status'>;

/** The structured fields of a JSON stdout; none for plain text. */
function readStructuredStdout(text: string): StructuredFields {
  const json = parseJsonObject(text);
  if (json === undefined) return {};
  const specific = asRecord(json.hookSpecificOutput);
  const fields: StructuredFields = {};
  if (typeof json.continue === 'boolean') fields.continue = json.continue;
  setString(fields, 'stopReason', json.stopReason);
  setString(fields, 'systemMessage', json.systemMessage);
  if (json.decision === 'approve' || json.decision === 'block') fields.decision = json.decision;
  setString(fields, 'reason', json.reason);
  if (specific === undefined) return fields;
  const permission = specific.permissionDecision;
  if (permission === 'allow' || permission === 'deny' || permission === 'ask') fields.decision = permission;
  setString(fields, 'reason', specific.permissionDecisionReason);
  setString(fields, 'hookEventName', specific.hookEventName);
  setString(fields, 'additionalContext', specific.additionalContext);
  const updated = asRecord(specific.updatedInput) ?? asRecord(specific.modifiedInput);
  if (updated !== undefined) fields.updatedInput = updated;
  return fields;
}

function setString<K extends 'stopReason' | 'systemMessage' | 'reason' | 'hookEventName' | 'additionalContext'>(
  target: StructuredFields,
  key: K,
  value: unknown,
): void {
  if (typeof value === 'string') target[key] = value;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Only the parse is inside the try: non-JSON stdout is plain text.
    return undefined;
  }
  return asRecord(value);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}
