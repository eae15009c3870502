/**
 * The plugin's hooks module: the in-process half of the plugin on Claude
 * Code 2.1.328+, named by `.claude-plugin/module-hooks.json`, the hooks
 * file only `.claude-plugin/plugin.json` declares (D31: nothing CodeBuddy
 * reads names it). Built by build.mjs into one self-contained file, `hooks/register.mjs`,
 * which the host loads into its hooks worker: no node builtins, no package,
 * no dynamic import, no eval (D30).
 *
 * What it does: the `viking://` guard on the file tools (guard.ts); recall
 * before each prompt (prompt.ts, recall.ts) and the start block (start.ts),
 * handed off from the hook commands (classic.ts, handoff.ts), with the hook
 * commands' own rules (files/, env/, deps.ts); and the memory card under
 * each answer (card/). Capture stays with the hook commands (D30).
 *
 * The host reads this file before it loads it, and refuses a module whose
 * event names are not string literals, whose hooks are not functions of the
 * file's top level (or imported), or that passes `$` elsewhere: every hook
 * below is an imported function, every event a literal
 * (tests/mod/bundle-rules.test.ts checks the built file).
 *
 * @module
 */
import {
  cardOnAppend,
  cardOnCommand,
  cardOnLookup,
  cardOnRender,
  cardOnSessionStart,
  cardOnTurnComplete,
  CARD_COMMAND,
} from './card/hooks.js';
import { LOOKUP_TOOLS } from './card/turns.js';
import { GUARDED_TOOLS, guardToolCall } from './guard.js';
import type { On, PluginOptions } from './host.js';
import { rememberOptions } from './moduleSwitch.js';
import { onPrompt } from './prompt.js';
import { onSessionStart } from './start.js';

export function register(on: On, options: PluginOptions): void {
  rememberOptions(options);
  on('tool.call', { tool: GUARDED_TOOLS }, guardToolCall);
  on('tool.call', { tool: LOOKUP_TOOLS }, cardOnLookup);
  on('session.start', cardOnSessionStart);
  on('command.run', { command: CARD_COMMAND }, cardOnCommand);
  on('classic.SessionStart', onSessionStart);
  on('classic.UserPromptSubmit', onPrompt);
  // Answer rows only: the host matches before it hops to the worker, so the other rows of a turn cost nothing.
  on('session.append', { door: 'response' }, cardOnAppend);
  on('turn.complete', cardOnTurnComplete);
  on('ui.render', { component: 'AssistantMessage' }, cardOnRender);
}
