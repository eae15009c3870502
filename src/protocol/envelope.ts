/**
 * The ONE encoder of the plugin's stdout: a stage's decision in, the exact
 * bytes the host reads out.
 *
 * - `context` on SessionStart and UserPromptSubmit: the Claude Code envelope
 *   (`decision: "approve"` plus `hookSpecificOutput.additionalContext`), which
 *   CodeBuddy accepts byte for byte (seed 000 §5).
 * - `deny` on PreToolUse: `permissionDecision: "deny"` with the reason, which
 *   reaches the model as the tool's error.
 * - everything else, `pass` included: no output at all. An explicit `allow`
 *   would bypass the user's own permission rules, and write-path events have
 *   nothing to say to the host.
 * No trailing newline: hosts trim stdout, and the tests compare exact bytes.
 *
 * @module
 */
import type { StageResult } from '../hook/deps.js';
import type { HookEventName } from './input.js';

/** Events whose context the host injects into the model's next request. */
export function acceptsContext(event: HookEventName): boolean {
  return event === 'SessionStart' || event === 'UserPromptSubmit';
}

/**
 * @param event - the event being answered.
 * @param result - what the stage decided.
 * @returns the exact stdout; `''` means "write nothing".
 */
export function encodeStageResult(event: HookEventName, result: StageResult): string {
  if (result.kind === 'context' && acceptsContext(event) && result.text !== '') {
    return JSON.stringify({ decision: 'approve', hookSpecificOutput: { hookEventName: event, additionalContext: result.text } });
  }
  if (result.kind === 'deny' && event === 'PreToolUse') {
    return JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: result.reason },
    });
  }
  return '';
}
