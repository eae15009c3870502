/**
 * Write-path stage: Stop, SubagentStop, PreCompact, SessionEnd (and
 * SubagentStart, which has nothing to send yet).
 *
 * The hook itself only posts a request to the session's inbox
 * (capture/requests.ts: one small atomic file, no lock, no network, no
 * transcript read) and hands the work to a detached worker, then answers
 * pass-through at once. A Stop hook that reaches its timeout makes CodeBuddy
 * continue the agent, in stream-json forever (codebuddy-host README §3), so
 * its wall time must not depend on the server or the transcript size.
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
import { loadStageConfig } from '../session/stageContext.js';
import type { PluginConfig } from '../config/types.js';
import type { StageDeps, StageResult } from '../protocol/stage.js';
import { PASS } from '../protocol/stage.js';
import type { HookInput } from '../protocol/input.js';
import { projectFor } from '../project/identity.js';
import { captureOffReason } from '../session/switches.js';
import { resolveDataDir } from '../store/paths.js';
import { postRequest } from '../capture/requests.js';
import type { CaptureRequest } from '../capture/requests.js';
import { requestForEvent } from '../capture/target.js';

/** PreCompact's route budget is 55 s (routes.ts); the synchronous capture stays well inside it. */
const PRE_COMPACT_MAX_MS = 45_000;
/** Synchronous fallback when no worker could be spawned: inside Stop's 8 s budget. */
const SPAWN_FALLBACK_MS = 4_000;

export async function runCapture(input: HookInput, deps: StageDeps): Promise<StageResult> {
  if (input.hook_event_name === 'SubagentStart') return PASS;
  const config = loadStageConfig(deps);
  const { settings } = config;
  // The common "off everywhere" case costs no transcript path or project lookup.
  if (!settings.enabled || !settings.autoCapture) return PASS;
  const request = requestForEvent(input, deps.env, deps.cwd, deps.now());
  if (request === undefined) return PASS;
  const { project } = projectFor(config, request.workspace, deps.homeDir, deps.now());
  const off = captureOffReason({ config, project, sessionId: request.hostSessionId, workspace: request.workspace });
  if (off !== undefined) {
    deps.log.debug('capture is off here; nothing stored', { reason: off });
    return PASS;
  }
  if (project.peerId !== undefined) request.peerId = project.peerId;
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  if (!(await postRequest(dataDir, request))) {
    deps.log.warn('capture request not written; the next turn will catch up', { session: request.ovSessionId });
    return PASS;
  }
  if (input.hook_event_name === 'PreCompact') {
    const deadlineMs = Math.min(settings.syncCaptureDeadlineMs, PRE_COMPACT_MAX_MS);
    await captureNow(request, deps, config, deadlineMs, Math.floor(deadlineMs / 2));
  } else if (!deps.spawnDetached(['worker', 'capture'], workerJob(input))) {
    deps.log.warn('capture worker not spawned; capturing in the hook', { session: request.ovSessionId });
    await captureNow(request, deps, config, SPAWN_FALLBACK_MS, 0);
  }
  return PASS;
}

/**
 * Drains the session's inbox in this process within `deadlineMs`, waiting up
 * to `lockWaitMs` for a running writer. Goes through the worker module (a
 * lazy module of its own), so the hook's stage stays small.
 */
async function captureNow(request: CaptureRequest, deps: StageDeps, config: PluginConfig, deadlineMs: number, lockWaitMs: number): Promise<void> {
  const { drainInProcess } = await import('../capture/worker.js');
  const status = await drainInProcess(request.ovSessionId, deps, config, deadlineMs, lockWaitMs);
  deps.log.debug('synchronous capture', { session: request.ovSessionId, event: request.event, status });
}

/**
 * The worker's job: the payload's top-level scalars (ids, paths, event name),
 * which is all `requestForEvent` reads. Nested values are dropped, so a
 * hostile or huge nested field cannot make the hand-off fail (a 10,000-deep
 * array overflowed `JSON.stringify`: found by the dispatcher fuzzer).
 */
function workerJob(input: HookInput): string {
  return JSON.stringify(Object.fromEntries(Object.entries(input).filter(([, value]) => value === null || typeof value !== 'object')));
}
