/**
 * The `viking://` guard inside the host (`tool.call` on the file tools): the
 * same rule and deny reason as the PreToolUse stage (stages/guard.ts), with
 * Claude Code's tool names. `tool.call` sees the model's own spelling,
 * before Claude Code makes the path absolute, and a deny there refuses the
 * call before any PreToolUse hook (ours, others', the user's) runs: the
 * model reads the reason as the tool's error (D30, FC10).
 *
 * A deny names the tools the configuration gives (D29: the bundled ones,
 * or with `mcpEnabled` off those of the user's own server), read by the
 * stage's own code (stages/guardRule.ts `namingConfiguredTools`,
 * stages/guardTools.ts) through the module's file snapshot: a Skill or
 * SlashCommand deny reads nothing, and a failed read names the host's
 * bundled tools, as there.
 *
 * An allowed call goes on (`next(e)`) untouched, and our PreToolUse command
 * judges it again: its prefilter answers without starting node unless the
 * payload holds `viking:` (D3). No flag makes it step aside (D31): nothing
 * the module leaves behind, an unload included, can let a call through
 * unguarded. The allow path reads no configuration.
 *
 * @module
 */
import type { ToolNames } from '../protocol/hostTools.js';
import { errorMessage } from '../util/errors.js';
import { guardDenyReason, namingConfiguredTools } from '../stages/guardRule.js';
import { configuredToolNames } from '../stages/guardTools.js';
export { GUARDED_TOOLS } from '../stages/guardRule.js';
import { debugNote } from './debugNote.js';
import { moduleLogger } from './deps.js';
import { sessionEnv } from './env/sessionEnv.js';
import { decide } from './files/fetch.js';
import type { Engine, Next, ToolCallInput, ToolCallResult } from './host.js';
import { moduleIsOn } from './moduleSwitch.js';

/** The model's arguments of a call: what Claude Code puts beside `tool` and `tool_use_id` (FC10). */
export function toolArguments(e: ToolCallInput): Readonly<Record<string, unknown>> {
  const { tool: _tool, tool_use_id: _id, ...args } = e;
  return args;
}

/** `tool.call` hook for the guarded file tools (GUARDED_TOOLS). */
export async function guardToolCall(
  $: Engine,
  e: ToolCallInput,
  next: Next<ToolCallInput, ToolCallResult>,
): Promise<ToolCallResult> {
  if (!(await moduleIsOn($))) return next(e);
  const tool = String(e.tool);
  const reason = guardDenyReason(tool, toolArguments(e), 'claude-code');
  if (reason === undefined) return next(e);
  return { deny: await namingConfiguredTools(tool, toolArguments(e), reason, () => configuredTools($)) };
}

/** The stage's read of the configuration's tool names (stages/guardTools.ts), through the file snapshot. */
async function configuredTools($: Engine): Promise<ToolNames> {
  try {
    const view = await sessionEnv($);
    const deps = { env: view.env, homeDir: view.homeDir, log: moduleLogger($) };
    return await decide($, view.homeDir, () => configuredToolNames(deps, 'claude-code'));
  } catch (error) {
    debugNote($, `guard: configuration not read; naming the bundled tools: ${errorMessage(error)}`);
    throw error;
  }
}
