/**
 * The ONE encoder of the plugin's stdout: a stage's decision in, the exact
 * bytes the host reads out.
 *
 * - `context` on SessionStart and UserPromptSubmit:
 *   `hookSpecificOutput.additionalContext`, which CodeBuddy and Claude Code
 *   inject into the model's next request. No `decision: "approve"`: seed 000
 *   §5 shows it is optional (the envelope is read field by field), and the
 *   2.117 CLI logs `Hook uses deprecated "decision" field` for every answer
 *   that carries it (DESIGN D21; the e2e scenarios prove the context still
 *   reaches the model without it).
 * - `notice` on those two events: `systemMessage`, shown to the user only,
 *   beside the context or alone. Alone it carries `suppressOutput: true`:
 *   CodeBuddy 2.117 injects the raw stdout of a SessionStart answer that has
 *   no `additionalContext` into the model's prompt unless `suppressOutput`
 *   is set (DESIGN F19; found by tests/e2e/plugin-options.e2e.test.ts).
 * - `deny` on PreToolUse: `permissionDecision: "deny"` with the reason, which
 *   reaches the model as the tool's error.
 * - everything else, `pass` included: no output at all. An explicit `allow`
 *   would bypass the user's own permission rules, and write-path events have
 *   nothing to say to the host.
 * No trailing newline: hosts trim stdout, and the tests compare exact bytes.
 *
 * @module
 */
import type { StageResult } from './stage.js';
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
  if (result.kind === 'deny') {
    if (event !== 'PreToolUse') return '';
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: result.reason,
      },
    });
  }
  if (!acceptsContext(event)) return '';
  const notice = result.notice ? { systemMessage: result.notice } : {};
  if (result.kind === 'context' && result.text !== '') {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: result.text }, ...notice });
  }
  return result.notice ? JSON.stringify({ ...notice, suppressOutput: true }) : '';
}
