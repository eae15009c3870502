/**
 * One host event in, the exact stdout out: parse, route, run the stage under
 * its time budget, encode.
 *
 * Total by construction: whatever goes wrong (bad input, unknown event, a
 * stage that throws, rejects, or hangs past its budget, an encoder surprise)
 * the answer is the pass-through (empty stdout), and the process exits 0.
 * Only the PreToolUse guard can ever produce a deny, because the encoder only
 * writes one on PreToolUse.
 *
 * @module
 */
import type { StageDeps, StageResult } from '../protocol/stage.js';
import type { Route } from './routes.js';
import { encodeStageResult } from '../protocol/envelope.js';
import { hookInputFromJson, parseHookInput } from '../protocol/parse.js';
import { withTimeout } from '../util/withTimeout.js';

export interface DispatchOptions {
  routeFor: (event: string) => Route | undefined;
  /** Called only when a route exists, so ignored events build nothing. */
  createDeps: () => StageDeps;
  /** Milliseconds already spent in the process (reading stdin); deducted from the route's budget. */
  elapsedMs: () => number;
  /**
   * Lets the caller arm its whole-process timer once the dispatcher has to
   * wait: before a lazy stage is imported, or when a stage returns a
   * promise. A stage that answers synchronously never waits, so no timer is
   * armed for it (the first timer of a process costs ~0.4 ms).
   */
  onRoute?: (route: Route) => void;
  /** The JSON value of `text` when the stdin reader already parsed it, so it is not parsed twice. */
  parsedJson?: unknown;
}

/** @returns the exact stdout for `text` (the whole stdin); never rejects. */
export async function dispatchHook(text: string, options: DispatchOptions): Promise<string> {
  const input = options.parsedJson === undefined ? parseHookInput(text) : hookInputFromJson(options.parsedJson);
  if (input === null) return '';
  const route = options.routeFor(input.hook_event_name);
  if (route === undefined) return '';
  let deps: StageDeps | undefined;
  try {
    deps = options.createDeps();
    let answer: StageResult | Promise<StageResult>;
    if ('stage' in route) {
      answer = route.stage(input, deps);
      if (!(answer instanceof Promise)) return encodeStageResult(input.hook_event_name, answer);
      options.onRoute?.(route);
    } else {
      options.onRoute?.(route);
      answer = (await route.load())(input, deps);
    }
    const result = await withTimeout(Promise.resolve(answer), route.safetyMs - options.elapsedMs(), 'timeout' as const);
    if (result === 'timeout') {
      deps.log.warn('stage exceeded its budget; answering pass-through', {
        event: input.hook_event_name,
        budgetMs: route.safetyMs,
      });
      return '';
    }
    return encodeStageResult(input.hook_event_name, result);
  } catch (error: unknown) {
    deps?.log.warn('stage failed; answering pass-through', {
      event: input.hook_event_name,
      error: describeError(error),
    });
    return '';
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
