/**
 * `node scripts/hook.cjs worker <kind>`: the detached background writer.
 * The host neither waits for nor kills it (seed 000 §7), so Stop answers at
 * once and the network work happens here, under one overall deadline
 * (`WORKER_DEADLINE_MS`) and the per-call timeout of the settings.
 *
 * Kinds (stdin is the job):
 * - `capture`: stdin is `{ovSessionId}` (the Stop / SubagentStop /
 *   SessionEnd hook already posted its request); drains that session's
 *   inbox (`captureJob`, which the detached hook process runs itself).
 * - `commit-stale`: stdin is `{workspace, exceptSessionId}` or a SessionStart
 *   payload (then the workspace and session come from it); see commitStale.ts.
 * - `replay`: replays the pending queue (stdin ignored).
 *
 * `runRequeueDead` is `hook.mjs requeue-dead`: dead letters back to the queue.
 *
 * `drainInProcess` is the same drain for the hook's synchronous paths.
 *
 * Test seam, compiled only into the fault tests' own build of this file
 * (build.mjs `--test-seams-worker`; `OV_TEST_SEAMS` is false in every
 * shipped bundle, so the code is dropped there):
 * `OPENVIKING_TEST_CRASH_AT=before-send|after-send|after-enqueue` makes the
 * worker SIGKILL itself at that point (exactly-once tests);
 * `OPENVIKING_TEST_STALL_AT=before-send:<ms>` blocks it there that long (a
 * slow disk or a descheduled process between the write-ahead record and the
 * request).
 * main.ts logs the worker's peak RSS to the debug log when it ends.
 *
 * @module
 */
import { loadStageConfig } from '../session/stageContext.js';
import { printableLine } from '../util/printable.js';
import type { PluginConfig } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import { isRecord, parseJson } from '../util/json.js';
import { parseHookInput } from '../protocol/parse.js';
import { hostSessionIdOf, OV_SESSION_PREFIX } from '../session/ids.js';
import { resolveWorkspace } from '../session/workspace.js';
import { commitStale } from './commitStale.js';
import { drainRequests } from './drain.js';
import type { DrainStatus } from './drain.js';
import { captureEnvFor } from './env.js';
import { queueDirOf } from './queueing.js';
import { replayPendingWrites } from './replay.js';
import { sweepIfDue } from './retention.js';
import { requeueDeadLetters } from '../store/queueDead.js';
import type { CrashPoint } from './writer.js';
import { errorMessage } from '../util/errors.js';
import { counted } from '../util/plural.js';

/** The worker stops starting new work after this long. */
export const WORKER_DEADLINE_MS = 60_000;

/**
 * @param argv - the arguments after `worker` (the first is the job kind).
 * @param stdinText - the job payload written by the spawning hook.
 * @param deps - the same outside world the stages get.
 * @returns the process exit code.
 */
export async function runWorker(argv: readonly string[], stdinText: string, deps: StageDeps): Promise<number> {
  const kind = argv[0] ?? '';
  const started = deps.now();
  try {
    const code = await runKind(kind, stdinText, deps);
    deps.log.debug('worker done', { kind, code, ms: deps.now() - started });
    return code;
  } catch (error) {
    deps.log.warn('worker failed', { kind, error: errorMessage(error) });
    return 1;
  }
}

async function runKind(kind: string, stdinText: string, deps: StageDeps): Promise<number> {
  switch (kind) {
    case 'capture':
      return runCaptureJob(stdinText, deps);
    case 'commit-stale':
      return runCommitStale(stdinText, deps);
    case 'replay':
      return runReplay(deps);
    default:
      deps.log.warn('unknown worker kind', { kind });
      return 2;
  }
}

/**
 * The capture job: drains the session's inbox under the worker's deadline,
 * then the daily retention sweep. Run by `worker capture`, and by the
 * capture stage itself where its process is already off the host's clock.
 * @returns the exit code (1 when the drain failed).
 */
export async function captureJob(ovSessionId: string, deps: StageDeps, config: PluginConfig): Promise<number> {
  const env = captureEnvFor(deps, config, WORKER_DEADLINE_MS, crashPointFrom(deps));
  const status = await drainRequests(env, ovSessionId, 0);
  const swept = await sweepIfDue(env.dataDir, config.settings, deps.now());
  if (swept !== undefined) deps.log.debug('capture state retention', { ...swept });
  return status === 'error' ? 1 : 0;
}

/** A bounded capture in the calling process (PreCompact, or Stop when no worker could be spawned). */
export async function drainInProcess(
  ovSessionId: string,
  deps: StageDeps,
  config: PluginConfig,
  deadlineMs: number,
  lockWaitMs: number,
): Promise<DrainStatus> {
  return drainRequests(captureEnvFor(deps, config, deadlineMs), ovSessionId, lockWaitMs);
}

async function runCaptureJob(stdinText: string, deps: StageDeps): Promise<number> {
  const job = parseJson(stdinText);
  const ovSessionId = isRecord(job) && typeof job.ovSessionId === 'string' ? job.ovSessionId : '';
  if (!ovSessionId.startsWith(OV_SESSION_PREFIX)) return 2;
  return captureJob(ovSessionId, deps, loadStageConfig(deps));
}

async function runCommitStale(stdinText: string, deps: StageDeps): Promise<number> {
  const job = commitStaleJob(stdinText, deps);
  if (job === undefined) return 2;
  await commitStale(job.workspace, job.exceptSessionId, deps, loadStageConfig(deps));
  return 0;
}

async function runReplay(deps: StageDeps): Promise<number> {
  const config = loadStageConfig(deps);
  // Queued turns are conversation: none leaves while memory or auto-capture is off (DESIGN D25).
  if (!config.settings.enabled || !config.settings.autoCapture) return 0;
  const env = captureEnvFor(deps, config, WORKER_DEADLINE_MS);
  const summary = await replayPendingWrites(env, {
    budgetMs: WORKER_DEADLINE_MS / 2,
    limit: Math.max(config.settings.pendingReplayLimit, 100),
  });
  deps.log.debug('worker replay', { replayed: summary.replayed, remaining: summary.remaining, busy: summary.busy });
  return 0;
}

/**
 * `node scripts/hook.mjs requeue-dead`: every dead letter back into the
 * queue (store/queueDead.ts), then one replay pass, so a fixed server gets
 * them now. Returns the exit code and the text main prints.
 */
export async function runRequeueDead(deps: StageDeps): Promise<{ code: number; text: string }> {
  const config = loadStageConfig(deps);
  const env = captureEnvFor(deps, config, WORKER_DEADLINE_MS);
  const back = await requeueDeadLetters(queueDirOf(env.dataDir), {
    now: deps.now,
    lockTimeoutMs: config.settings.lockTimeoutMs,
  });
  const lines = [
    `requeued ${counted(back.requeued, 'dead letter')} (${back.alreadyQueued} already queued, ${back.kept} kept: no request inside)`,
  ];
  if (!config.settings.enabled || !config.settings.autoCapture) {
    lines.push(
      'not replayed: memory or auto-capture is off (OPENVIKING_MEMORY_ENABLED / OPENVIKING_AUTO_CAPTURE); they wait in the queue',
    );
  } else if (back.requeued + back.alreadyQueued > 0) {
    const replayed = await replayPendingWrites(env, {
      budgetMs: WORKER_DEADLINE_MS / 2,
      limit: Math.max(config.settings.pendingReplayLimit, 100),
    });
    lines.push(
      `replayed ${replayed.replayed} now; ${replayed.remaining} wait for the server (sent at the next session start)`,
    );
  }
  for (const problem of back.problems) lines.push(`problem: ${printableLine(problem)}`);
  return { code: back.problems.length > 0 ? 1 : 0, text: `${lines.join('\n')}\n` };
}

function commitStaleJob(
  stdinText: string,
  deps: StageDeps,
): { workspace: string; exceptSessionId: string } | undefined {
  const value = parseJson(stdinText);
  if (!isRecord(value)) return undefined;
  if (typeof value.workspace === 'string' && value.workspace !== '') {
    return {
      workspace: value.workspace,
      exceptSessionId: typeof value.exceptSessionId === 'string' ? value.exceptSessionId : '',
    };
  }
  const input = parseHookInput(stdinText);
  if (input === null) return undefined;
  return { workspace: resolveWorkspace(input, deps.env, deps.cwd), exceptSessionId: hostSessionIdOf(input) };
}

/** Defined by build.mjs: false in shipped bundles, true in the fault tests' worker; undefined when run from source. */
declare const OV_TEST_SEAMS: boolean | undefined;

function crashPointFrom(deps: StageDeps): ((point: CrashPoint) => void) | undefined {
  if (typeof OV_TEST_SEAMS === 'undefined' || !OV_TEST_SEAMS) return undefined;
  const target = deps.env.OPENVIKING_TEST_CRASH_AT;
  const [stallAt, stallMs] = (deps.env.OPENVIKING_TEST_STALL_AT ?? '').split(':');
  return (point) => {
    if (point === stallAt) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(stallMs) || 0);
    if (point === target) deps.killNow?.();
  };
}
