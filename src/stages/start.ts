/**
 * SessionStart: put the user's long-term memory in front of the model, and
 * tidy up after earlier sessions.
 *
 * Nothing at all when memory is off here or the session is bypassed
 * (session/switches.ts). Otherwise, in order, under one deadline
 * (`startDeadlineMs`, far inside the hook's timeout): replay the
 * pending-write queue when capture is on (so writes made while the server
 * was away land before new ones); fetch the profile and memory listing
 * (and, on resume/compact, the session's latest archive overview) in
 * parallel and, while they are on the wire, hand earlier sessions of this
 * workspace left uncommitted and idle to a detached worker (reading only the
 * small uncommitted index, DESIGN D19); render ONE block (the plan, reads and
 * block in startBlock.ts, shared with the hooks module). Last, it makes sure
 * the resident helper that answers prompt and start hooks runs (DESIGN D16),
 * so the session's first prompt finds it warm. The hook hands the start to
 * that resident when one listens (stages/relay.ts, D44): this same stage then
 * runs there, with the hook's per-session variables.
 *
 * Beside the reads, at most one request says what earlier sessions of this
 * workspace taught (learned/atStart.ts, DESIGN D36): one line for the user
 * when a commit's extraction ended since the last report.
 *
 * Where the in-process hooks module took the start over, the stage does the
 * housekeeping only: no profile, listing or archive read, no block, no
 * memory-off line (the module's), no resident (the module recalls in process).
 * The mark is how this process was started, never the environment: only the
 * hook command that stepped aside for the module (protocol/handoff.ts, D31)
 * runs a session start as `hook.cjs detached` (`deps.offHostClock`), whose
 * answer reaches nobody; a flag a process inherited changes nothing here.
 *
 * Idempotent: the host can deliver SessionStart twice, even concurrently.
 * The work runs under the session's start lock, and the answer is kept per
 * `source` (profile/startState.ts), so the second delivery replays and
 * fetches nothing and answers the same bytes. Any failure is a pass-through,
 * logged. SessionStart has no `cwd`; the workspace comes from the host's
 * project variables (session/workspace.ts).
 *
 * @module
 */
import type { StageDeps, StageResult } from '../protocol/stage.js';
import { PASS } from '../protocol/stage.js';
import type { HookInput } from '../protocol/input.js';
import { withTimeout } from '../util/withTimeout.js';
import { hookContextCap, hostFromEnv } from '../protocol/hostTools.js';
import { loadStartState, reusableAnswer, saveStartState, withAnswer } from '../profile/startState.js';
import { commitStaleInBackground, replayQueue } from '../profile/housekeeping.js';
import { ensureResident } from '../resident/launch.js';
import { memoryOffNotice, unclearSwitchesOf, watchFailures } from './notice.js';
import { trustLine } from './trustNotice.js';
import type { OvFailure } from '../openviking/types.js';
import { startLockPath } from '../session/locks.js';
import type { StageContext } from '../session/stageContext.js';
import { adoptStrandedWrites } from '../store/adopt.js';
import { withLock } from '../store/lock.js';
import { errorMessage } from '../util/errors.js';
import { planStart, readStartBlock, recordStart, startStateFile, startWaitMs } from './startBlock.js';
import { answerWithLearned, learnedNoticeWith, type StartAnswer } from './startLearned.js';

export async function runStart(input: HookInput, deps: StageDeps): Promise<StageResult> {
  if (input.hook_event_name !== 'SessionStart') return PASS;
  try {
    const { ctx, source, off } = planStart(input, deps);
    const moduleAnswers = deps.offHostClock === true;
    if (off !== undefined) {
      deps.log.debug('memory is off here; nothing sent', { reason: off });
      // A privacy switch read as "off" because its word was not understood is still said, once (the module's when it answers).
      const notice = moduleAnswers ? undefined : startNotice(ctx, deps, undefined, true);
      return notice === undefined ? PASS : { kind: 'pass', notice };
    }
    const watched = watchFailures(ctx.client, deps.now);
    if (moduleAnswers) deps.log.debug('the hooks module answers this session start; housekeeping only');
    const { text, learned } = await withTimeout<StartAnswer, StartAnswer>(
      answerOnce({ ...ctx, client: watched.client }, source, deps, moduleAnswers),
      startWaitMs(ctx, deps.now()),
      { text: '' },
    );
    // The resident running this start (stages/relay.ts) is the one it would start.
    if (ctx.settings.autoRecall && ctx.settings.resident && !moduleAnswers && deps.runner !== 'resident')
      ensureResident(deps);
    recordStart(ctx, deps, source, text, watched.serverSeen());
    // Memory off (server away, key refused, writes given up): one line for the user, once per session (DESIGN D21); the module's own when it answers.
    const notice = moduleAnswers ? undefined : startNotice(ctx, deps, watched.failure(), false);
    const told = learnedNoticeWith(notice, learned);
    return text === ''
      ? told.notice === undefined
        ? PASS
        : { kind: 'pass', ...told }
      : { kind: 'context', text, ...told };
  } catch (error: unknown) {
    deps.log.warn('session start failed; passing through', { error: errorMessage(error) });
    return PASS;
  }
}

/** The session start's line for the user (stages/notice.ts), at most once per session. */
function startNotice(
  ctx: StageContext,
  deps: StageDeps,
  failure: OvFailure | undefined,
  off: boolean,
): string | undefined {
  return memoryOffNotice({
    dataDir: ctx.dataDir,
    sessionId: ctx.ovSessionId,
    credentials: ctx.config.credentials,
    failure,
    now: deps.now(),
    unclear: unclearSwitchesOf(ctx.config, ctx.project),
    off,
    trust: trustLine(ctx.project),
  });
}

/**
 * The block for this delivery: the stored answer of an earlier delivery, else
 * freshly built and stored, with the line on what earlier sessions taught.
 * `housekeepingOnly`: the module answers; replay and commit-stale still run
 * once (under the same lock), nothing is read, stored or said.
 */
async function answerOnce(
  ctx: StageContext,
  source: string,
  deps: StageDeps,
  housekeepingOnly: boolean,
): Promise<StartAnswer> {
  if (housekeepingOnly) return { text: await housekeepingAlone(ctx, deps) };
  if (ctx.ovSessionId === '') return answerWithLearned(ctx, deps, () => buildAnswer(ctx, source, deps));
  const file = startStateFile(ctx);
  const lock = {
    now: deps.now,
    timeoutMs: Math.max(0, ctx.deadlineAt - deps.now()),
    staleMs: ctx.settings.startDeadlineMs + 5_000,
  };
  const locked = await withLock(startLockPath(ctx.dataDir, ctx.ovSessionId), lock, async () => {
    const state = loadStartState(file);
    const reused = reusableAnswer(state, source, deps.now());
    if (reused !== undefined) {
      deps.log.debug('session start delivered again; reusing the answer', { source });
      return { text: reused.text };
    }
    const answer = await answerWithLearned(ctx, deps, () => buildAnswer(ctx, source, deps));
    if (!saveStartState(file, withAnswer(state, source, { text: answer.text, at: deps.now() })))
      deps.log.warn('session start answer not saved', { file });
    return answer;
  });
  if (!locked.ok) deps.log.warn('session start lock not acquired; passing through', { reason: locked.reason });
  return locked.ok ? locked.value : { text: '' };
}

async function buildAnswer(ctx: StageContext, source: string, deps: StageDeps): Promise<string> {
  await beforeReads(ctx, deps);
  // Once the reads are on the wire: the index check, and the worker's spawn (node:child_process) when one is due.
  return readStartBlock(ctx, source, deps, hookContextCap(hostFromEnv(deps.env)), () => afterReadsSent(ctx, deps));
}

/** Replay and commit-stale without the reads, under the start lock when the session is known; always ''. */
async function housekeepingAlone(ctx: StageContext, deps: StageDeps): Promise<string> {
  const work = async (): Promise<string> => {
    await beforeReads(ctx, deps);
    await afterReadsSent(ctx, deps);
    return '';
  };
  if (ctx.ovSessionId === '') return work();
  const lock = {
    now: deps.now,
    timeoutMs: Math.max(0, ctx.deadlineAt - deps.now()),
    staleMs: ctx.settings.startDeadlineMs + 5_000,
  };
  const locked = await withLock(startLockPath(ctx.dataDir, ctx.ovSessionId), lock, work);
  if (!locked.ok) deps.log.warn('session start lock not acquired; no housekeeping', { reason: locked.reason });
  return '';
}

/** What goes before the reads: writes an earlier version left elsewhere moved in, and queued writes replayed. */
async function beforeReads(ctx: StageContext, deps: StageDeps): Promise<void> {
  const adopted = adoptStrandedWrites(ctx.dataDir, deps.env, deps.homeDir, deps.now());
  if (adopted.moved > 0) deps.log.warn('queued writes moved into the data directory (DESIGN D21)', { ...adopted });
  // Queued turns are conversation: replayed only where capture is on (each entry's own session and folder are checked again, DESIGN D25).
  if (ctx.settings.autoCapture) {
    const budgetMs = Math.min(ctx.settings.pendingReplayBudgetMs, Math.max(0, ctx.deadlineAt - deps.now()));
    const replayed = await replayQueue(deps, ctx.config, ctx.dataDir, budgetMs);
    if (replayed !== undefined) deps.log.debug('pending writes replayed', replayed);
  }
}

/** What goes once the reads are on the wire: earlier sessions left uncommitted handed to a worker. */
async function afterReadsSent(ctx: StageContext, deps: StageDeps): Promise<void> {
  if (ctx.settings.autoCapture)
    await onNextTurn(deps, () =>
      commitStaleInBackground(deps, ctx.dataDir, ctx.workspace, ctx.hostSessionId, ctx.settings.staleCommitIdleMs),
    );
}

/** Runs `work` on the event loop's next turn (after pending requests were written); never rejects. */
function onNextTurn(deps: StageDeps, work: () => unknown): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(() => {
      try {
        work();
      } catch (error: unknown) {
        deps.log.warn('session start housekeeping failed', { error: errorMessage(error) });
      }
      resolve();
    });
  });
}
