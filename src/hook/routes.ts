/**
 * Which stage answers which host event, and how long it may take.
 *
 * Each stage sits behind a dynamic `import()`, so esbuild puts it in its
 * own file and an event only ever loads the code it needs. Two small ones
 * are part of the entry instead, because a dynamic import costs ~4 ms
 * (resolve, asynchronous read, compile, link) while their bytes cost the
 * other events nothing measurable (60 interleaved pairs each, DESIGN D14):
 * the guard (under 3 KB built), and the prompt relay (stages/promptRelay.ts),
 * which hands the prompt to the resident helper and imports the prompt
 * stage only when none listens (DESIGN D16). `safetyMs` is the whole-process budget
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
import { runPromptRelay } from '../stages/promptRelay.js';

/** UserPromptSubmit's budget (hooks.json timeout 10 s); stages/promptRelay.ts waits for a resident well inside it. */
export const PROMPT_SAFETY_MS = 8_000;

/**
 * Every stage has this shape: a function of the event and the outside
 * world. A stage may answer synchronously (the guard, the prompt relay
 * when the resident answers): the dispatcher then arms no timer at all.
 */
export type Stage = (input: HookInput, deps: HookDeps) => StageResult | Promise<StageResult>;

interface RouteBudget {
  /** Milliseconds from process start after which the dispatcher answers pass-through. */
  safetyMs: number;
}

/** A stage in the entry (`stage`), or one behind a dynamic import (`load`). */
export type Route = RouteBudget & ({ stage: Stage } | { load(): Promise<Stage> });

/** Budget before the event is known (reading stdin): the smallest route budget. */
export const PREFLIGHT_SAFETY_MS = 3_000;

/** @returns the route of a host event, or undefined for events the plugin ignores. */
export function routeFor(event: string): Route | undefined {
  switch (event) {
    case 'SessionStart':
      return { load: () => import('../stages/start.js').then((m) => m.runStart), safetyMs: 12_000 };
    case 'UserPromptSubmit':
      return { stage: runPromptRelay, safetyMs: PROMPT_SAFETY_MS };
    case 'PreToolUse':
      return { stage: runGuard, safetyMs: 3_000 };
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
