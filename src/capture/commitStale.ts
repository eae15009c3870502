/**
 * Archives sessions that were left behind. CodeBuddy 2.117 never fires
 * SessionEnd headless (codebuddy-host README §2), so without this a session
 * would only ever be committed by the token threshold and its last turns
 * would never become memories. The start stage of a NEW session runs this
 * (detached, `hook.mjs worker commit-stale`) for the other sessions of the
 * same workspace: each one with something uncommitted, or a transcript that
 * grew past its cursor, gets a commit request in its inbox and is drained
 * like any capture (the tail is captured first, then `commit {}`). A session
 * whose writer is busy keeps the request; that writer drains it.
 *
 * @module
 */
import { stat } from 'node:fs/promises';
import { loadPluginConfig } from '../config/load.js';
import type { HookDeps } from '../hook/deps.js';
import { OV_SESSION_PREFIX, ovSessionId, SUBAGENT_SEPARATOR } from '../session/ids.js';
import { drainRequests } from './drain.js';
import type { DrainStatus } from './drain.js';
import { captureEnvFor } from './env.js';
import { postRequest } from './requests.js';
import { listCaptureStates } from './state.js';
import type { CaptureState } from './state.js';

export interface CommitStaleSummary {
  /** Sessions of the workspace that needed a commit. */
  considered: number;
  drained: number;
  /** Another writer holds the session; it will drain the request. */
  busy: number;
  /** Deadline, unknown server state or a disk problem: the request waits for a later run. */
  incomplete: number;
}

/** Whole-job deadline of commit-stale (it runs detached). */
export const COMMIT_STALE_DEADLINE_MS = 60_000;

/**
 * Commits every session of `workspace` except `exceptSessionId` (a host or
 * OpenViking session id; its sub-agents are spared too) that has
 * uncommitted captures. Never throws.
 */
export async function commitStale(dataDir: string, workspace: string, exceptSessionId: string, deps: HookDeps): Promise<CommitStaleSummary> {
  const summary: CommitStaleSummary = { considered: 0, drained: 0, busy: 0, incomplete: 0 };
  const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
  if (!config.settings.enabled || !config.settings.autoCapture) return summary;
  const env = { ...captureEnvFor(deps, config, COMMIT_STALE_DEADLINE_MS), dataDir };
  const spared = sparedIds(exceptSessionId);
  for (const state of await listCaptureStates(dataDir)) {
    if (state.workspace !== workspace || isSpared(state, spared) || state.transcriptPath === undefined) continue;
    if (state.capturedSinceCommit === 0 && !(await transcriptGrew(state))) continue;
    summary.considered++;
    const posted = await postRequest(dataDir, {
      event: 'commit-stale',
      ovSessionId: state.ovSessionId,
      hostSessionId: state.hostSessionId,
      workspace: state.workspace,
      ...(state.agentId !== undefined ? { agentId: state.agentId } : {}),
      transcriptPath: state.transcriptPath,
      subagent: state.agentId !== undefined,
      commit: true,
      at: deps.now(),
    });
    count(summary, posted ? await drainRequests(env, state.ovSessionId, 0) : 'error');
  }
  deps.log.debug('commit-stale done', { workspace, ...summary });
  return summary;
}

function sparedIds(exceptSessionId: string): string[] {
  const except = exceptSessionId.trim();
  if (except === '') return [];
  return except.startsWith(OV_SESSION_PREFIX) ? [except] : [except, ovSessionId(except)];
}

function isSpared(state: CaptureState, spared: readonly string[]): boolean {
  return spared.some((id) => state.hostSessionId === id || state.ovSessionId === id || state.ovSessionId.startsWith(`${id}${SUBAGENT_SEPARATOR}`));
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
