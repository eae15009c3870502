/**
 * The plugin's hooks module: the in-process half of the plugin on hosts that
 * load one (Claude Code 2.1.328+, CodeBuddy 2.163+; `hooks/hooks.json`
 * `"modules"`). Built by build.mjs into one self-contained file,
 * `hooks/register.mjs`, which the host loads into its hooks worker: no
 * node builtins, no package, no dynamic import, no eval (D30).
 *
 * What it does (phase 1 of issue 23): the `viking://` guard on the file
 * tools (guard.ts), and the memory card under each answer (card/). Recall,
 * the start block and capture stay on the shell path; the hand-off that
 * will move recall and the start block in is built and tested (handoff.ts)
 * but not used for them yet.
 *
 * The host reads this file before it loads it, and refuses a module whose
 * event names are not string literals, whose hooks are not functions of the
 * file's top level (or imported), or that passes `$` elsewhere: every hook
 * below is an imported function, every event a literal
 * (tests/mod/bundle-rules.test.ts checks the built file).
 *
 * @module
 */
import { cardOnAppend, cardOnCommand, cardOnLookup, cardOnPrompt, cardOnRender, cardOnSessionStart, cardOnTurnComplete, CARD_COMMAND } from './card/hooks.js';
import { LOOKUP_TOOLS } from './card/turns.js';
import { GUARDED_TOOLS, guardToolCall } from './guard.js';
import type { On, PluginOptions } from './host.js';
import { rememberOptions } from './moduleSwitch.js';

export function register(on: On, options: PluginOptions): void {
  rememberOptions(options);
  on('tool.call', { tool: GUARDED_TOOLS }, guardToolCall);
  on('tool.call', { tool: LOOKUP_TOOLS }, cardOnLookup);
  on('session.start', cardOnSessionStart);
  on('command.run', { command: CARD_COMMAND }, cardOnCommand);
  on('classic.UserPromptSubmit', cardOnPrompt);
  on('session.append', cardOnAppend);
  on('turn.complete', cardOnTurnComplete);
  on('ui.render', { component: 'AssistantMessage' }, cardOnRender);
}
