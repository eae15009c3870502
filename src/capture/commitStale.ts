/**
 * Archives sessions that were left behind. CodeBuddy 2.117 never fires
 * SessionEnd headless (codebuddy-host README §2), and 2.163 fires it only in
 * the TUI, so without this a session would only ever be committed by the
 * token threshold (or the server's own policy, serverPolicy.ts) and its last
 * turns would never become memories. The start stage of a NEW session runs
 * this (detached, `hook.cjs worker commit-stale`) for the other sessions of
 * the same workspace that are in the uncommitted index (commitIndex.ts) and
 * idle past `staleCommitIdleMs`: a second terminal must never cut the first
 * one's live session in half (DESIGN D19). Each one with something
 * uncommitted, or a transcript that grew past its cursor, gets a commit
 * request in its inbox and is drained like any capture (the tail is captured
 * first, then `commit {}`). A session whose writer is busy keeps the
 * request; that writer drains it.
 *
 * A data directory from before the index gets it built here, once, from a
 * scan of every capture state; the start hook never scans.
 *
 * @module
 */
import { stat } from 'node:fs/promises';
import type { PluginConfig } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import {
  clearUncommitted,
  entryOf,
  initUncommittedIndex,
  isIdle,
  listUncommitted,
  markUncommitted,
  otherSessionsOf,
} from './commitIndex.js';
import type { ListedEntry } from './commitIndex.js';
import { drainRequests } from './drain.js';
import type { DrainStatus } from './drain.js';
import { captureEnvFor } from './env.js';
import { postRequest } from './requests.js';
import { projectFor } from '../project/identity.js';
import { captureOffReason } from '../session/switches.js';
import { sweepIfDue } from './retention.js';
import { hasWorkLeft, listCaptureStates, loadCaptureState, sessionIdentityOf } from './state.js';
import type { CaptureState } from './state.js';

export interface CommitStaleSummary {
  /** Sessions of the workspace that needed a commit. */
  considered: number;
  drained: number;
  /** Another writer holds the session; it will drain the request. */
  busy: number;
  /** Deadline, unknown server state or a disk problem: the request waits for a later run. */
  incomplete: number;
  /** Sessions of the workspace left alone because they are still live. */
  live: number;
}

/** Whole-job deadline of commit-stale (it runs detached). */
export const COMMIT_STALE_DEADLINE_MS = 60_000;

/**
 * Commits every idle session of `workspace` in the uncommitted index except
 * `exceptSessionId` (a host or OpenViking session id; its sub-agents are
 * spared too). Never throws.
 */
export async function commitStale(
  workspace: string,
  exceptSessionId: string,
  deps: StageDeps,
  config: PluginConfig,
): Promise<CommitStaleSummary> {
  const summary: CommitStaleSummary = { considered: 0, drained: 0, busy: 0, incomplete: 0, live: 0 };
  // The workspace's project (DESIGN D24): its switches hold here too, and what is still uncaptured goes out under its peer.
  const { project } = projectFor(config, workspace, deps.homeDir, deps.now());
  if (captureOffReason({ config, project, workspace }) !== undefined) return summary;
  const env = captureEnvFor(deps, config, COMMIT_STALE_DEADLINE_MS);
  const { dataDir } = env;
  for (const entry of otherSessionsOf(await indexEntries(dataDir), workspace, exceptSessionId)) {
    // A session whose id is bypassed is never committed (DESIGN D25); the folder's switches were checked above.
    if (captureOffReason({ config, project, sessionId: entry.hostSessionId, workspace }) !== undefined) continue;
    if (!isIdle(entry, config.settings.staleCommitIdleMs, deps.now())) {
      summary.live++;
      continue;
    }
    const state = await loadCaptureState(dataDir, entry.ovSessionId);
    if (state === undefined || state.transcriptPath === undefined || !(await needsCommit(state))) {
      clearUncommitted(dataDir, entry.ovSessionId);
      continue;
    }
    summary.considered++;
    const posted = await postRequest(dataDir, {
      event: 'commit-stale',
      ...sessionIdentityOf(state),
      transcriptPath: state.transcriptPath,
      subagent: state.agentId !== undefined,
      commit: true,
      at: deps.now(),
      ...(project.peerId !== undefined ? { peerId: project.peerId } : {}),
    });
    count(summary, posted ? await drainRequests(env, state.ovSessionId, 0) : 'error');
  }
  deps.log.debug('commit-stale done', { workspace, ...summary });
  const swept = await sweepIfDue(dataDir, config.settings, deps.now());
  if (swept !== undefined) deps.log.debug('capture state retention', { ...swept });
  return summary;
}

/** The index, built first from every capture state when this data directory predates it. */
async function indexEntries(dataDir: string): Promise<ListedEntry[]> {
  const listed = listUncommitted(dataDir);
  if (listed !== 'missing') return listed;
  for (const state of await listCaptureStates(dataDir)) {
    if (state.transcriptPath !== undefined && (await needsCommit(state)))
      markUncommitted(dataDir, entryOf(state), state.lastCaptureAt ?? 0);
  }
  initUncommittedIndex(dataDir);
  const built = listUncommitted(dataDir);
  return built === 'missing' ? [] : built;
}

/** Work left (state.ts), a capture after the last commit, or a transcript that grew past the cursor. */
async function needsCommit(state: CaptureState): Promise<boolean> {
  if (hasWorkLeft(state) || (state.lastCaptureAt ?? 0) > (state.lastCommitAt ?? 0)) return true;
  return transcriptGrew(state);
}

async function transcriptGrew(state: CaptureState): Promise<boolean> {
  if (state.transcriptPath === undefined) return false;
  try {
    return (await stat(state.transcriptPath)).size > (state.cursor?.offset ?? 0);
  } catch {
    return false; // the transcript is gone: nothing more to capture
  }
}

function count(summary: CommitStaleSummary, status: DrainStatus | 'error'): void {
  if (status === 'drained') summary.drained++;
  else if (status === 'busy') summary.busy++;
  else summary.incomplete++;
}
