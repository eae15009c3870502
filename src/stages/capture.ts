/**
 * Write-path stage: Stop, SubagentStop, PreCompact, SessionEnd (and
 * SubagentStart, which has nothing to send yet).
 *
 * The hook itself only posts a request to the session's inbox
 * (capture/requests.ts: one small atomic file, no lock, no network, no
 * transcript read) and hands the work to a detached worker, then answers
 * pass-through at once. A Stop hook that reaches its timeout makes CodeBuddy
 * continue the agent, in stream-json forever (codebuddy-host README §3), so
 * its wall time must not depend on the server or the transcript size. The
 * worker needs only the session's OpenViking id: whoever holds the
 * session's writer lock drains every request of its inbox.
 *
 * Where the process already runs off the host's clock (`hook.cjs detached`
 * behind hooks/detach.sh, DESIGN D11: `StageDeps.offHostClock`), the stage
 * drains the inbox itself after its answer, with the configuration it has
 * loaded, instead of starting one more node.
 *
 * Exceptions:
 * - PreCompact captures and commits SYNCHRONOUSLY, within
 *   `syncCaptureDeadlineMs` (the host rewrites the context right after),
 *   waiting for a running worker if needed.
 * - If the worker cannot be spawned, a bounded synchronous capture runs
 *   instead (no lock wait: a busy writer drains our request anyway).
 *
 * SessionEnd and PreCompact never fire on CodeBuddy 2.117 headless, so
 * nothing depends on them: Stop captures every turn, and commit-stale at the
 * next SessionStart archives sessions that ended silently.
 *
 * @module
 */
import type { PluginConfig, Settings } from '../config/types.js';
import type { HookEventName, HookInput } from '../protocol/input.js';
import { PASS } from '../protocol/stage.js';
import type { StageDeps, StageResult } from '../protocol/stage.js';
import { loadStageConfig, stageContextFor } from '../session/stageContext.js';
import { captureOffReason } from '../session/switches.js';
import { postRequest } from '../capture/requests.js';
import { requestForEvent } from '../capture/target.js';

/** PreCompact's route budget is 55 s (protocol/budgets.ts); the synchronous capture stays well inside it. */
const PRE_COMPACT_MAX_MS = 45_000;
/** Synchronous fallback when no worker could be spawned: inside Stop's 8 s budget. */
const SPAWN_FALLBACK_MS = 4_000;

export async function runCapture(input: HookInput, deps: StageDeps): Promise<StageResult> {
  if (input.hook_event_name === 'SubagentStart') return PASS;
  const config = loadStageConfig(deps);
  // The common "off everywhere" case costs no transcript path or project lookup.
  if (!config.settings.enabled || !config.settings.autoCapture) return PASS;
  const ctx = stageContextFor(input, deps, config, (settings) => deadlineMs(input.hook_event_name, settings));
  const request = requestForEvent(input, ctx, deps.now());
  if (request === undefined) return PASS;
  const off = captureOffReason({
    config,
    project: ctx.project,
    sessionId: ctx.hostSessionId,
    workspace: ctx.workspace,
  });
  if (off !== undefined) {
    deps.log.debug('capture is off here; nothing stored', { reason: off });
    return PASS;
  }
  if (!(await postRequest(ctx.dataDir, request))) {
    deps.log.warn('capture request not written; the next turn will catch up', { session: request.ovSessionId });
    return PASS;
  }
  const session = request.ovSessionId;
  const budgetMs = Math.max(0, ctx.deadlineAt - deps.now());
  if (input.hook_event_name === 'PreCompact') {
    await captureNow(session, request.event, deps, config, budgetMs, Math.floor(budgetMs / 2));
  } else if (deps.offHostClock === true) {
    deps.afterAnswer(async () => void (await (await import('../capture/worker.js')).captureJob(session, deps, config)));
  } else if (!deps.spawnDetached(['worker', 'capture'], JSON.stringify({ ovSessionId: session }))) {
    deps.log.warn('capture worker not spawned; capturing in the hook', { session });
    await captureNow(session, request.event, deps, config, budgetMs, 0);
  }
  return PASS;
}

/** The stage's own budget: PreCompact captures in the hook; the others only post (or, failing a spawn, capture briefly). */
function deadlineMs(event: HookEventName, settings: Settings): number {
  return event === 'PreCompact' ? Math.min(settings.syncCaptureDeadlineMs, PRE_COMPACT_MAX_MS) : SPAWN_FALLBACK_MS;
}

/**
 * Drains the session's inbox in this process within `deadlineMs`, waiting up
 * to `lockWaitMs` for a running writer. Goes through the worker module (a
 * lazy module of its own), so the hook's stage stays small.
 */
async function captureNow(
  ovSessionId: string,
  event: string,
  deps: StageDeps,
  config: PluginConfig,
  deadlineMs: number,
  lockWaitMs: number,
): Promise<void> {
  const { drainInProcess } = await import('../capture/worker.js');
  const status = await drainInProcess(ovSessionId, deps, config, deadlineMs, lockWaitMs);
  deps.log.debug('synchronous capture', { session: ovSessionId, event, status });
}
