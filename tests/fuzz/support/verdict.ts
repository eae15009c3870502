/**
 * What a hook may print, event by event: nothing, or exactly the envelope
 * the encoder writes for that event (context on SessionStart and
 * UserPromptSubmit, a deny on PreToolUse). Returns a problem description,
 * or undefined when the output is acceptable. Shared by every fuzz driver.
 *
 * @module
 */
import { isRecord } from '../../../src/util/json.js';

export function outputProblem(stdout: string, event: string | undefined): string | undefined {
  if (stdout === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return `stdout is not JSON: ${stdout.slice(0, 120)}`;
  }
  if (!isRecord(value) || !isRecord(value.hookSpecificOutput))
    return `stdout is not a hook envelope: ${stdout.slice(0, 120)}`;
  const specific = value.hookSpecificOutput;
  if (specific.hookEventName !== event)
    return `envelope names ${String(specific.hookEventName)}, the input was ${String(event)}`;
  if (event === 'SessionStart' || event === 'UserPromptSubmit') {
    if (
      value.decision !== undefined ||
      typeof specific.additionalContext !== 'string' ||
      specific.additionalContext === ''
    )
      return 'context envelope malformed';
    return undefined;
  }
  if (event === 'PreToolUse') {
    if (specific.permissionDecision !== 'deny' || typeof specific.permissionDecisionReason !== 'string')
      return 'PreToolUse envelope is not a deny with a reason';
    return undefined;
  }
  return `${String(event)} must print nothing`;
}
