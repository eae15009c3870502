/**
 * The `viking://` guard inside the host (`tool.call` on the file tools): the
 * same rule and deny reason as the PreToolUse stage (stages/guard.ts), with
 * the current host's tool names. `tool.call` sees the model's own spelling,
 * before Claude Code makes the path absolute, and a deny there refuses the
 * call before any PreToolUse hook (ours, others', the user's) runs: the
 * model reads the reason as the tool's error (D30).
 *
 * A deny names the tools the configuration gives (D29: the bundled ones,
 * or with `mcpEnabled` off those of the user's own server), read as the
 * stage reads them (stages/guardTools.ts) through the module's file
 * snapshot; when that fails, the host's bundled names, as there.
 *
 * An allowed call goes on (`next(e)`) with the guard handed off, so our
 * shell prefilter steps aside for it (handoff.ts); everyone else's
 * PreToolUse hooks run as usual. The allow path reads no configuration.
 *
 * @module
 */
import { loadPluginConfig } from '../config/load.js';
import { toolNamesFor, type HostKind, type ToolNames } from '../protocol/hostTools.js';
import { isRecord } from '../util/json.js';
import { guardDenyReason } from '../stages/guardRule.js';
export { GUARDED_TOOLS } from '../stages/guardRule.js';
import { debugNote } from './debugNote.js';
import { sessionEnv } from './env/sessionEnv.js';
import { decide } from './files/fetch.js';
import { withHandoff } from './handoff.js';
import type { Engine, Next, ToolCallInput, ToolCallResult } from './host.js';
import { hostProfile } from './hostProfile.js';
import { moduleIsOn } from './moduleSwitch.js';

/** The model's arguments of a call: beside `tool` on Claude Code, under `input` in CodeBuddy's seed. */
export function toolArguments(e: ToolCallInput): Readonly<Record<string, unknown>> {
  return isRecord(e.input) ? e.input : e;
}

/** `tool.call` hook for the guarded file tools (GUARDED_TOOLS). */
export async function guardToolCall(
  $: Engine,
  e: ToolCallInput,
  next: Next<ToolCallInput, ToolCallResult>,
): Promise<ToolCallResult> {
  if (!(await moduleIsOn($))) return next(e);
  const host = await hostProfile($);
  const reason = guardDenyReason(String(e.tool), toolArguments(e), host.kind);
  if (reason !== undefined)
    return { deny: guardDenyReason(String(e.tool), toolArguments(e), await configuredTools($, host.kind)) ?? reason };
  return (await withHandoff($, 'guard', host.processId, () => next(e))).value;
}

async function configuredTools($: Engine, host: HostKind): Promise<ToolNames> {
  try {
    const view = await sessionEnv($);
    return await decide($, view.homeDir, () =>
      toolNamesFor(host, loadPluginConfig({ env: view.env, homeDir: view.homeDir }).settings),
    );
  } catch (error) {
    debugNote(
      $,
      `guard: configuration not read; naming the bundled tools: ${error instanceof Error ? error.message : String(error)}`,
    );
    return toolNamesFor(host);
  }
}
