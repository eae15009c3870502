/**
 * The URI guard as the PreToolUse stage (the rule itself: guardRule.ts).
 *
 * The allow path reads nothing: no config, no network, no store. A deny
 * reads the settings (guardTools.ts: no credentials, no lazy file) to name
 * the tools the user has: the bundled ones, or with `mcpEnabled` off those
 * of their own OpenViking MCP server (DESIGN D29, D38).
 *
 * @module
 */
import type { StageDeps, StageResult } from '../protocol/stage.js';
import type { HookInput } from '../protocol/input.js';
import { hostFromEnv } from '../protocol/hostTools.js';
import { denyNamingTools, guardDecision } from './guardRule.js';
import { configuredToolNames } from './guardTools.js';

/**
 * PreToolUse stage: deny file tools aimed at viking:// URIs (naming the
 * configured tools) and the model's runs of the plugin's commands; pass
 * everything else, synchronously.
 */
export function runGuard(input: HookInput, deps: StageDeps): StageResult {
  const decision = guardDecision(input, hostFromEnv(deps.env));
  if (decision.kind !== 'deny') return decision;
  const reason = denyNamingTools(String(input.tool_name), input.tool_input, decision.reason, () =>
    configuredToolNames(deps),
  );
  return { kind: 'deny', reason };
}
