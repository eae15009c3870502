/**
 * Folds the outputs of every hook one event matched into one outcome.
 *
 * The fold is the most restrictive reading (deny > ask > allow; the first
 * `continue: false` sticks; every context and system message is kept in
 * registration order), which is what Claude Code does and what a plugin must
 * be safe against. CodeBuddy 2.117 differs on one point the plugin cannot
 * control: it SHALLOW-merges the hooks' `hookSpecificOutput` objects in
 * registration order, so when two hooks on one event both return
 * `additionalContext`, only the last registered one reaches the model
 * (codebuddy-host README §3, scenario W; bundle `aggregateSettledResults`).
 * `hostAdditionalContext` models that, so tests can show what the model
 * would really see when another plugin competes on the same event.
 *
 * @module
 */
import type { HookOutput, MergedDecision, MergedHookOutcome } from './types.js';

/** Strictness rank of one hook's decision; higher wins. */
function rank(decision: HookOutput['decision']): number {
  switch (decision) {
    case 'deny':
    case 'block':
      return 3;
    case 'ask':
      return 2;
    case 'allow':
    case 'approve':
      return 1;
    default:
      return 0;
  }
}

const DECISION_BY_RANK: readonly MergedDecision[] = ['none', 'allow', 'ask', 'deny'];

/**
 * @param outputs - every matched hook's output, in registration order.
 * @returns the folded outcome; an empty list gives decision `none`, no stop, no context.
 */
export function mergeHookOutputs(outputs: readonly HookOutput[]): MergedHookOutcome {
  let maxRank = 0;
  let stopper: HookOutput | undefined;
  let hostAdditionalContext: string | undefined;
  const additionalContext: string[] = [];
  const systemMessages: string[] = [];
  for (const output of outputs) {
    maxRank = Math.max(maxRank, rank(output.decision));
    if (output.continue === false && stopper === undefined) stopper = output;
    if (output.additionalContext !== undefined) hostAdditionalContext = output.additionalContext;
    if (output.additionalContext) additionalContext.push(output.additionalContext);
    if (output.systemMessage) systemMessages.push(output.systemMessage);
  }
  const reasons =
    maxRank >= 2 ? outputs.filter((o) => rank(o.decision) === maxRank && o.reason).map((o) => o.reason) : [];
  return {
    decision: DECISION_BY_RANK[maxRank] ?? 'none',
    ...(reasons.length > 0 ? { reason: reasons.join('\n\n') } : {}),
    stop: stopper !== undefined,
    ...(stopper?.stopReason !== undefined ? { stopReason: stopper.stopReason } : {}),
    additionalContext,
    ...(hostAdditionalContext ? { hostAdditionalContext } : {}),
    systemMessages,
  };
}
