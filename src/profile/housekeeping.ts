/**
 * The start stage's housekeeping for earlier sessions, delegated to capture
 * (which owns the write path and its exactly-once guards):
 *
 * - pending replay: capture's `replayPendingWrites` sends each entry as the
 *   session's only writer and checks an `addMessages` entry whose earlier
 *   attempt may have landed against the server's count. It is loaded only
 *   when the queue holds something, so an empty queue costs one readdir.
 * - stale commits: when another session of this workspace has captured
 *   messages it never committed (headless 2.117 never sends SessionEnd), a
 *   detached `worker commit-stale` commits it; start does not wait.
 *
 * @module
 */
import { readdir } from 'node:fs/promises';
import type { PluginConfig } from '../config/types.js';
import type { HookDeps } from '../hook/deps.js';
import { listCaptureStates } from '../capture/state.js';
import type { CaptureState } from '../capture/state.js';
import { ovSessionId, SUBAGENT_SEPARATOR } from '../session/ids.js';
import { queuePaths } from '../store/queueFiles.js';
import { storeLayout } from '../store/paths.js';

/** The worker kind capture's worker dispatches (src/capture/worker.ts). */
export const COMMIT_STALE_WORKER = 'commit-stale';

/** True when the pending queue holds an entry (waiting or claimed). */
export async function hasPendingWrites(dataDir: string): Promise<boolean> {
  try {
    return (await readdir(queuePaths(storeLayout(dataDir).queueDir).pendingDir)).some((name) => name.endsWith('.json') || name.endsWith('.processing'));
  } catch {
    return false; // no queue directory: nothing was ever queued
  }
}

/** Replays the queue within `budgetMs` when it is not empty; returns the summary for the log. */
export async function replayQueue(deps: HookDeps, config: PluginConfig, dataDir: string, budgetMs: number): Promise<Record<string, unknown> | undefined> {
  const { settings } = config;
  if (settings.pendingReplayLimit <= 0 || budgetMs <= 0 || !(await hasPendingWrites(dataDir))) return undefined;
  const [{ captureEnvFor }, { replayPendingWrites }] = await Promise.all([import('../capture/env.js'), import('../capture/replay.js')]);
  const summary = await replayPendingWrites({ ...captureEnvFor(deps, config, budgetMs), dataDir }, {
    budgetMs,
    limit: settings.pendingReplayLimit,
    lockWaitMs: Math.min(settings.lockTimeoutMs, budgetMs),
  });
  return { ...summary };
}

/** Sessions of `workspace`, other than the current one and its sub-agents, with uncommitted captures. */
export function staleCandidates(states: readonly CaptureState[], workspace: string, currentOvSessionId: string): CaptureState[] {
  return states.filter(
    (state) =>
      state.workspace === workspace &&
      state.ovSessionId !== currentOvSessionId &&
      !state.ovSessionId.startsWith(`${currentOvSessionId}${SUBAGENT_SEPARATOR}`) &&
      (state.capturedSinceCommit > 0 || (state.lastCaptureAt ?? 0) > (state.lastCommitAt ?? 0)),
  );
}

/** Starts the commit-stale worker when there is something to commit; returns how many sessions wait. */
export async function commitStaleInBackground(deps: HookDeps, dataDir: string, workspace: string, hostSessionId: string): Promise<number> {
  const candidates = staleCandidates(await listCaptureStates(dataDir), workspace, ovSessionId(hostSessionId));
  if (candidates.length === 0) return 0;
  const started = deps.spawnDetached(['worker', COMMIT_STALE_WORKER], JSON.stringify({ workspace, exceptSessionId: hostSessionId }));
  deps.log.debug('stale sessions handed to the commit-stale worker', { count: candidates.length, started });
  return candidates.length;
}
