/**
 * Which stage answers which host event, and how long it may take.
 *
 * Each stage sits behind a dynamic `import()`, so esbuild puts it in its
 * own file and an event only ever loads the code it needs. Two small ones
 * are part of the entry instead, because a dynamic import costs ~4 ms
 * (resolve, asynchronous read, compile, link) while their bytes cost the
 * other events nothing measurable (60 interleaved pairs each, DESIGN D14):
 * the guard (under 3 KB built), and the relay (stages/relay.ts), which
 * hands a prompt or a session start to the resident helper and imports the
 * stage only when none listens (DESIGN D16, D44). `safetyMs` is the event's
 * whole-process budget (protocol/budgets.ts).
 *
 * @module
 */
import { eventBudgetMs } from '../protocol/budgets.js';
import type { Stage } from '../protocol/stage.js';
import { runGuard } from '../stages/guard.js';
import { runPromptRelay, runStartRelay } from '../stages/relay.js';

interface RouteBudget {
  /** Milliseconds from process start after which the dispatcher answers pass-through. */
  safetyMs: number;
}

/** A stage in the entry (`stage`), or one behind a dynamic import (`load`). */
export type Route = RouteBudget & ({ stage: Stage } | { load(): Promise<Stage> });

/** @returns the route of a host event, or undefined for events the plugin ignores. */
export function routeFor(event: string): Route | undefined {
  const safetyMs = eventBudgetMs(event);
  if (safetyMs === undefined) return undefined;
  switch (event) {
    case 'SessionStart':
      return { stage: runStartRelay, safetyMs };
    case 'UserPromptSubmit':
      return { stage: runPromptRelay, safetyMs };
    case 'PreToolUse':
      return { stage: runGuard, safetyMs };
    default:
      return { load: loadCapture, safetyMs };
  }
}

/** Stop, SubagentStop, SubagentStart, SessionEnd and PreCompact: the write path. */
function loadCapture(): Promise<Stage> {
  return import('../stages/capture.js').then((m) => m.runCapture);
}
