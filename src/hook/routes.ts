/**
 * Which stage answers which host event, and how long it may take.
 *
 * Each stage but the guard sits behind a dynamic `import()`, so esbuild
 * puts it in its own file and an event only ever loads the code it needs.
 * The guard (under 3 KB built) is part of the entry instead: a dynamic
 * import costs its deny path ~4 ms (resolve, asynchronous read, compile,
 * link), while its bytes cost the other events nothing measurable (60
 * interleaved pairs each, DESIGN D14). `safetyMs` is the whole-process budget
 * of the event, kept well inside its `timeout` in hooks/hooks.json, because
 * on CodeBuddy a hook killed at its timeout BLOCKS: the prompt is dropped,
 * the tool refused, or the agent looped by Stop (codebuddy-host README §3).
 * A contract test checks every budget against hooks.json.
 *
 * @module
 */
import type { HookDeps, StageResult } from './deps.js';
import type { HookInput } from '../protocol/input.js';
import { runGuard } from '../stages/guard.js';

/** Every stage has this shape: a function of the event and the outside world. */
export type Stage = (input: HookInput, deps: HookDeps) => Promise<StageResult>;

export interface Route {
  load(): Promise<Stage>;
  /** Milliseconds from process start after which the dispatcher answers pass-through. */
  safetyMs: number;
}

/** Budget before the event is known (reading stdin): the smallest route budget. */
export const PREFLIGHT_SAFETY_MS = 3_000;

/** @returns the route of a host event, or undefined for events the plugin ignores. */
export function routeFor(event: string): Route | undefined {
  switch (event) {
    case 'SessionStart':
      return { load: () => import('../stages/start.js').then((m) => m.runStart), safetyMs: 12_000 };
    case 'UserPromptSubmit':
      return { load: () => import('../stages/prompt.js').then((m) => m.runPrompt), safetyMs: 8_000 };
    case 'PreToolUse':
      return { load: () => Promise.resolve(runGuard), safetyMs: 3_000 };
    case 'Stop':
    case 'SubagentStop':
      return { load: loadCapture, safetyMs: 8_000 };
    case 'SubagentStart':
      return { load: loadCapture, safetyMs: 3_000 };
    case 'SessionEnd':
      return { load: loadCapture, safetyMs: 12_000 };
    case 'PreCompact':
      return { load: loadCapture, safetyMs: 55_000 };
    default:
      return undefined;
  }
}

function loadCapture(): Promise<Stage> {
  return import('../stages/capture.js').then((m) => m.runCapture);
}
