/**
 * Which host events the plugin answers, and how long the hook process may
 * take for each: the whole-process budget, in ms from process start, after
 * which the dispatcher answers the pass-through (DESIGN D5). Each is kept at
 * least 1.5 s inside the event's `timeout` in hooks/hooks.json, because on
 * CodeBuddy a hook killed at its timeout BLOCKS: the prompt is dropped, the
 * tool refused, or the agent looped by Stop (codebuddy-host README §3). A
 * contract test checks every budget against hooks.json; stages keep their
 * own, tighter deadlines inside these (the settings' `*DeadlineMs` knobs).
 *
 * Data, not code: the hook's routes (hook/routes.ts) and doctor's hooks
 * check read the same table.
 *
 * @module
 */
import type { HookEventName } from './input.js';

/** An event missing here is ignored: no stage runs, the answer is the pass-through. */
export const EVENT_BUDGET_MS: Readonly<Partial<Record<HookEventName, number>>> = {
  SessionStart: 12_000,
  // hooks.json timeout 10 s; stages/relay.ts waits for a resident well inside it.
  UserPromptSubmit: 8_000,
  PreToolUse: 3_000,
  Stop: 8_000,
  SubagentStop: 8_000,
  SubagentStart: 3_000,
  SessionEnd: 12_000,
  PreCompact: 55_000,
};

/** Budget before the event is known (reading stdin): the smallest event budget. */
export const PREFLIGHT_SAFETY_MS = 3_000;

/** The budget of `event`, or undefined when the plugin does not answer it. */
export function eventBudgetMs(event: string): number | undefined {
  return Object.hasOwn(EVENT_BUDGET_MS, event) ? EVENT_BUDGET_MS[event as HookEventName] : undefined;
}
