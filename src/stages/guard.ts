/**
 * The URI guard as the PreToolUse stage (the rule itself: guardRule.ts).
 *
 * The allow path imports nothing at run time: no config, no network, no
 * store. A deny loads the configuration (guardTools.ts, its own lazy file)
 * to name the tools the user has: the bundled ones, or with `mcpEnabled` off
 * those of their own OpenViking MCP server (DESIGN D29).
 *
 * @module
 */
import type { StageDeps, StageResult } from '../protocol/stage.js';
import type { HookInput } from '../protocol/input.js';
import { hostFromEnv } from '../protocol/hostTools.js';
import { guardDecision, namingConfiguredTools } from './guardRule.js';

/**
 * PreToolUse stage: deny file tools aimed at viking:// URIs (naming the
 * configured tools) and the model's runs of the plugin's commands; pass
 * everything else, synchronously.
 */
export function runGuard(input: HookInput, deps: StageDeps): StageResult | Promise<StageResult> {
  const decision = guardDecision(input, hostFromEnv(deps.env));
  if (decision.kind !== 'deny') return decision;
  return namingConfiguredTools(String(input.tool_name), input.tool_input, decision.reason, () =>
    import('./guardTools.js').then((module) => module.configuredToolNames(deps)),
  ).then((reason): StageResult => ({ kind: 'deny', reason }));
}
