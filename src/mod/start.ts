/**
 * The start block inside the host (`classic.SessionStart`, D30): the start
 * stage's own plan, reads and block (stages/startBlock.ts: switches and
 * bypass, the profile and both listings in parallel, the archive overview
 * on resume and compact) with the module's deps, under the stage's deadline
 * (`OPENVIKING_START_DEADLINE_MS`). One profile read per session start: the
 * hook command, its flag set around `next(e)`, does the housekeeping only
 * (replay, commit-stale, adoption; stages/start.ts). The plan comes first
 * (a failure there leaves the start to the hook command); the reads run
 * beside `next(e)` (classic.ts), so the start costs the longer of the two,
 * not their sum.
 *
 * - A repeated delivery answers the same block without reading again: one
 *   per source at a time in this session (the module's state), and the
 *   stored answer of a delivery the hook command or another process made
 *   (profile/startState.ts), which the module keeps for the next one.
 * - Memory off (server away, key refused, writes given up; a privacy
 *   switch whose word was not understood, also where memory is off here):
 *   the same one line, once per session (stages/notice.ts: its mark), shown with
 *   `$.ui.log` (a classic answer has no `systemMessage`, FC18; the line is a
 *   transcript notice, never sent to the model). The hook command, handed
 *   off, says none.
 * - The block reaches the model whole (FC6): token budgets alone (D28).
 * - What earlier sessions taught (DESIGN D36): the stage's own check and
 *   line (stages/startLearned.ts), its ledger read with the plan's files,
 *   its request beside the reads, the line a `$.ui.log` like the one above.
 *
 * A failure or a run past the deadline's grace throws; the caller gives the
 * start to the hook commands for the rest of the session.
 *
 * @module
 */
import type { SessionStartInput } from '../protocol/input.js';
import { hookInputFromJson } from '../protocol/parse.js';
import { loadStartState, reusableAnswer, saveStartState, withAnswer } from '../profile/startState.js';
import { memoryOffNotice, unclearSwitchesOf, watchFailures } from '../stages/notice.js';
import { trustLine } from '../stages/trustNotice.js';
import {
  planStart,
  readStartBlock,
  recordStart,
  startSource,
  startStateFile,
  startWaitMs,
  type StartPlan,
} from '../stages/startBlock.js';
import { answerWithLearned } from '../stages/startLearned.js';
import { learnedAtStart } from '../learned/atStart.js';
import { bounded, LATE, PREPARE_MS, within } from './deadline.js';
import { moduleDeps } from './deps.js';
import { sessionEnv } from './env/sessionEnv.js';
import { decide, flushWrites, settle } from './files/fetch.js';
import { isAbsolute } from './files/posixPath.js';
import { switchFiles } from './files/switchFiles.js';
import { takeOver } from './classic.js';
import type { ClassicInput, ClassicResult, Engine, Next } from './host.js';
import { moduleIsOn } from './moduleSwitch.js';
import { readRecallCaches } from './recall.js';

export interface ModuleStart {
  text: string;
  afterAnswer: Array<() => unknown>;
}

/** Deliveries of this session being answered, by source: a second one waits for the first's reads. */
const answering = new Map<string, Promise<() => Promise<ModuleStart>>>();

/** `classic.SessionStart`: the start block taken over from the hook command where the module may (classic.ts). */
export async function onSessionStart(
  $: Engine,
  e: ClassicInput,
  next: Next<ClassicInput, ClassicResult>,
): Promise<ClassicResult> {
  if (!(await moduleIsOn($))) return next(e);
  const input = startOf(e);
  return (await takeOver($, 'start', e, next, input === undefined ? undefined : () => startInModule($, input))).result;
}

/** The payload, when it is a start the module can answer: a POSIX session folder. */
export function startOf(e: ClassicInput): SessionStartInput | undefined {
  const input = hookInputFromJson(e);
  if (input?.hook_event_name !== 'SessionStart' || typeof input.cwd !== 'string' || !isAbsolute(input.cwd))
    return undefined;
  return input;
}

/**
 * The start's plan (before `next(e)`: a throw leaves the start to the hook
 * command), and its reads (beside `next(e)`: the hook command's housekeeping
 * and the module's reads wait for neither).
 */
export async function startInModule($: Engine, input: SessionStartInput): Promise<() => Promise<ModuleStart>> {
  const source = startSource(input);
  const running = answering.get(source);
  if (running !== undefined) {
    const reads = await running;
    return async () => ({ text: (await reads()).text, afterAnswer: [] });
  }
  let started: Promise<ModuleStart> | undefined;
  const once = bounded($, planInModule($, input), PREPARE_MS, 'planning the start').then((reads) => () => {
    started ??= reads().finally(() => answering.delete(source));
    return started;
  });
  answering.set(source, once);
  once.catch(() => answering.delete(source));
  return once;
}

async function planInModule($: Engine, input: SessionStartInput): Promise<() => Promise<ModuleStart>> {
  const cwd = input.cwd as string;
  const view = await sessionEnv($);
  const { deps, afterAnswer } = moduleDeps($, view, cwd);
  const planned = await decide(
    $,
    cwd,
    () => {
      const plan = planStart(input, deps);
      if (plan.off !== undefined) return { plan, stored: undefined, learned: undefined };
      // The user-space cache for the start's reads, and the tier cache with it: the first prompt's recall then needs no round for them.
      readRecallCaches(plan.ctx.dataDir);
      const stored = plan.ctx.ovSessionId === '' ? undefined : loadStartState(startStateFile(plan.ctx));
      return { plan, stored, learned: learnedAtStart(plan.ctx.dataDir, plan.ctx.workspace) };
    },
    switchFiles(view),
  );
  const { plan } = planned;
  if (plan.off !== undefined) {
    deps.log.debug('memory is off here; nothing sent', { reason: plan.off });
    return async () => {
      await tellIfOff($, plan, undefined, deps.now(), true);
      return { text: '', afterAnswer: [] };
    };
  }
  const reused = reusableAnswer(planned.stored, plan.source, deps.now());
  if (reused !== undefined) {
    deps.log.debug('session start delivered again; reusing the answer', { source: plan.source });
    return async () => ({ text: reused.text, afterAnswer: [] });
  }
  return async () => {
    const { ctx, source } = plan;
    const watched = watchFailures(ctx.client, deps.now);
    const watchedCtx = { ...ctx, client: watched.client };
    const answer = await within(
      $,
      answerWithLearned(watchedCtx, deps, () => readStartBlock(watchedCtx, source, deps, undefined), planned.learned),
      startWaitMs(ctx, deps.now()),
    );
    if (answer === LATE) throw new Error('the start block ran past its deadline');
    const { text } = answer;
    if (ctx.ovSessionId !== '')
      deps.afterAnswer(
        () =>
          void saveStartState(
            startStateFile(ctx),
            withAnswer(loadStartState(startStateFile(ctx)), source, { text, at: deps.now() }),
          ),
      );
    recordStart(ctx, deps, source, text, watched.serverSeen());
    await tellIfOff($, plan, watched.failure(), deps.now());
    if (answer.learned !== undefined) {
      // Its ledger marked it said (queued above): written before the line, as the notice's mark is.
      await flushWrites($);
      $.ui.log(answer.learned);
    }
    return { text, afterAnswer };
  };
}

/** The memory-off line (the hook command, handed off, says none), once per session: its mark is claimed first. */
async function tellIfOff(
  $: Engine,
  plan: StartPlan,
  failure: ReturnType<ReturnType<typeof watchFailures>['failure']>,
  now: number,
  off = false,
): Promise<void> {
  const { ctx } = plan;
  const notice = await settle($, 'record', () =>
    memoryOffNotice({
      dataDir: ctx.dataDir,
      sessionId: ctx.ovSessionId,
      credentials: ctx.config.credentials,
      failure,
      now,
      unclear: unclearSwitchesOf(ctx.config, ctx.project),
      off,
      trust: trustLine(ctx.project),
    }),
  );
  if (notice === undefined) return;
  await flushWrites($);
  $.ui.log(notice);
}
