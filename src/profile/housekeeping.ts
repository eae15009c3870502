/**
 * The start stage's housekeeping for earlier sessions, delegated to capture
 * (which owns the write path and its exactly-once guards):
 *
 * - pending replay: capture's `replayPendingWrites` sends each entry as the
 *   session's only writer and checks an `addMessages` entry whose earlier
 *   attempt may have landed against the server's count. It is loaded only
 *   when the queue holds something, so an empty queue costs one readdir.
 * - stale commits: when another session of this workspace has captured
 *   messages it never committed (headless 2.117 never sends SessionEnd) and
 *   has been idle past `staleCommitIdleMs`, a detached `worker commit-stale`
 *   commits it; start does not wait. Only the small index of sessions that
 *   may need a commit is read (capture/commitIndex.ts), never every state.
 *
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import type { PluginConfig } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import { isIdle, listUncommitted, otherSessionsOf } from '../capture/commitIndex.js';
import type { ListedEntry } from '../capture/commitIndex.js';
import { captureDir } from '../capture/paths.js';
import { queuePaths } from '../store/queueFiles.js';
import { storeLayout } from '../store/paths.js';

/** The worker kind capture's worker dispatches (src/capture/worker.ts). */
export const COMMIT_STALE_WORKER = 'commit-stale';

/** True when the pending queue holds an entry (waiting or claimed). One synchronous readdir (DESIGN D14). */
export function hasPendingWrites(dataDir: string): boolean {
  try {
    return readdirSync(queuePaths(storeLayout(dataDir).queueDir).pendingDir).some(
      (name) => name.endsWith('.json') || name.endsWith('.processing'),
    );
  } catch {
    return false; // no queue directory: nothing was ever queued
  }
}

/** Replays the queue within `budgetMs` when it is not empty; returns the summary for the log. */
export async function replayQueue(
  deps: StageDeps,
  config: PluginConfig,
  dataDir: string,
  budgetMs: number,
): Promise<Record<string, unknown> | undefined> {
  const { settings } = config;
  if (settings.pendingReplayLimit <= 0 || budgetMs <= 0 || !hasPendingWrites(dataDir)) return undefined;
  const [{ captureEnvFor }, { replayPendingWrites }] = await Promise.all([
    import('../capture/env.js'),
    import('../capture/replay.js'),
  ]);
  const summary = await replayPendingWrites(
    { ...captureEnvFor(deps, config, budgetMs), dataDir },
    {
      budgetMs,
      limit: settings.pendingReplayLimit,
      lockWaitMs: Math.min(settings.lockTimeoutMs, budgetMs),
    },
  );
  return { ...summary };
}

/**
 * Entries of the uncommitted index (capture/commitIndex.ts) that this start
 * may have committed: another session of the workspace (not this one nor its
 * sub-agents), idle past the threshold (a live session is never cut: DESIGN
 * D19). The worker applies the same rules again.
 */
export function staleCandidates(
  entries: readonly ListedEntry[],
  workspace: string,
  exceptSessionId: string,
  idleMs: number,
  now: number,
): ListedEntry[] {
  return otherSessionsOf(entries, workspace, exceptSessionId).filter((entry) => isIdle(entry, idleMs, now));
}

/**
 * Starts the commit-stale worker when an idle session of this workspace may
 * need a commit, or once to build the index of a data directory from before
 * it; returns how many sessions wait. Reads only the small index, never the
 * capture states: a start costs the same after 50,000 past sessions.
 */
export function commitStaleInBackground(
  deps: StageDeps,
  dataDir: string,
  workspace: string,
  hostSessionId: string,
  idleMs: number,
): number {
  const listed = listUncommitted(dataDir);
  const waiting =
    listed === 'missing'
      ? existsSync(captureDir(dataDir))
        ? 1
        : 0
      : staleCandidates(listed, workspace, hostSessionId, idleMs, deps.now()).length;
  if (waiting === 0) return 0;
  const started = deps.spawnDetached(
    ['worker', COMMIT_STALE_WORKER],
    JSON.stringify({ workspace, exceptSessionId: hostSessionId }),
  );
  deps.log.debug('stale sessions handed to the commit-stale worker', {
    count: waiting,
    indexed: listed !== 'missing',
    started,
  });
  return waiting;
}
