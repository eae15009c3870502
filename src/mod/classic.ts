/**
 * How the hooks module takes a classic event over from this plugin's own
 * hook command (D30), for the prompt's recall and the session's start block:
 *
 * 1. The module prepares, first and under its own deadline; a failure gives
 *    the kind up for the session (its flag is never set again) and the hook
 *    command does the work, this event included. The flag's write goes out
 *    beside this step (it only matters once `next(e)` runs).
 * 2. `next(e)` runs everyone's hooks of the event (never answered without
 *    it: FC11), with the kind's flag set around it (handoff.ts), so ours
 *    steps aside; beside it, the rest of the module's work (the start's
 *    reads, the prompt's search: neither waits for the hook commands, nor
 *    they for it; the event costs the longer of the two, not their sum).
 * 3. The module's block is appended to the folded `additionalContext` (an
 *    array, FC12). If the flag could not be set, ours ran and did the work:
 *    the module's work is dropped, one block per event. Work that failed in
 *    step 2 (a throw, not a server's error or timeout: those are answers)
 *    costs this event the module's block, since ours has stepped aside, and
 *    gives the kind up from the next event on (once `next(e)` is done, so
 *    the flag is cleared after the command it was for, never under it).
 * 4. The records are written after the answer (after.ts).
 *
 * @module
 */
import type { HandoffKind } from '../protocol/handoff.js';
import { errorMessage } from '../util/errors.js';
import { runAfterAnswer } from './after.js';
import { debugNote } from './debugNote.js';
import { closeHandoff, giveUp, mayHandOff, openHandoff } from './handoff.js';
import type { ClassicInput, ClassicResult, Engine, Next } from './host.js';
import { hostProfile } from './hostProfile.js';

/** What the module did for an event: its block ('' for none) and the work left for after the answer. */
export interface ModuleOutcome {
  text: string;
  afterAnswer: ReadonlyArray<() => unknown>;
}

/** Step 1 of the module's work; it resolves to the rest (step 2), which may run beside `next(e)`. */
export type ModuleWork<W extends ModuleOutcome> = () => Promise<() => Promise<W>>;

/**
 * Runs `work` (undefined: the module does not take this event) and `next`
 * handed off; `ours` is the module's outcome when it stands.
 */
export async function takeOver<W extends ModuleOutcome>(
  $: Engine,
  kind: HandoffKind,
  e: ClassicInput,
  next: Next<ClassicInput, ClassicResult>,
  work: ModuleWork<W> | undefined,
): Promise<{ result: ClassicResult; ours?: W }> {
  const host = await hostProfile($);
  if (work === undefined || !mayHandOff(kind, host.processId)) return { result: await next(e) };
  const opening = openHandoff($, kind, host.processId);
  let rest: () => Promise<W>;
  try {
    rest = await work();
  } catch (error) {
    await opening;
    await failed($, kind, error);
    return { result: await next(e) };
  }
  if (!(await opening)) return { result: await next(e) };
  const [result, outcome] = await Promise.all([
    // The flag's clearing is not waited for: the hook command it was for has run, and the next one is a later event.
    next(e).finally(() => void closeHandoff($, kind)),
    rest().then(
      (done) => ({ done }),
      (error: unknown) => ({ error }),
    ),
  ]);
  // Given up only once next(e) is done: our hook command of this event has stepped aside either way.
  if ('error' in outcome) {
    await failed($, kind, outcome.error);
    return { result };
  }
  const ours = outcome.done;
  void runAfterAnswer($, ours.afterAnswer);
  return { result: ours.text === '' ? result : withContext(result, ours.text), ours };
}

/** The module's work for `kind` failed: the hook command keeps it for the rest of the session. */
async function failed($: Engine, kind: HandoffKind, error: unknown): Promise<void> {
  debugNote(
    $,
    `${kind} in the module failed; the hook command does it for the rest of the session: ${errorMessage(error)}`,
  );
  await giveUp($, kind);
}

/** The context entries of a folded answer. */
export function contextEntries(result: ClassicResult | undefined): readonly string[] | undefined {
  return Array.isArray(result?.additionalContext) ? result.additionalContext : undefined;
}

/** The folded answer with `text` as one more context entry (an array, whatever came back: FC12). */
export function withContext(result: ClassicResult | undefined, text: string): ClassicResult {
  const base = typeof result === 'object' && result !== null ? result : {};
  return { ...base, additionalContext: [...(contextEntries(base) ?? []), text] };
}
