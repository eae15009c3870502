/**
 * Retention of capture state (issue 17 item 3, DESIGN D19): a session's
 * files must not stay forever, yet a session the user resumes months later
 * must not have its whole transcript sent again.
 *
 * At most once a day, from a background job (the commit-stale and capture
 * workers, never a hook on the host's clock), every capture state is looked
 * at once. A session that may still need a commit (in the uncommitted
 * index, or with captures, queued writes or a send in flight) is left
 * alone, and so is one active within `staleCommitIdleMs`. Of the rest,
 * committed and idle:
 * - *shrink*: a state still in the old format (a list of 1,000 record ids)
 *   is rewritten in the compact one (acknowledged-record fingerprints), which
 *   is what exactly-once needs to resume the session;
 * - *go*: when its transcript no longer exists (nothing can be re-sent), or
 *   after `captureRetentionDays` of idleness, the state, its inbox and its
 *   `/openviking:why` record are removed. A session resumed after that is
 *   captured again from its start.
 * Start answers (`sessions/*.json`, reused for two minutes only) older than
 * a day go too. Removal holds the session's capture lock, so no writer can
 * be mid-pass.
 *
 * @module
 */
import { rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../util/json.js';
import { CAPTURE_LOCK_STALE_MS, captureLockPath } from '../session/locks.js';
import { readJsonSync, writeFileAtomicSync } from '../store/atomic.js';
import { namesInDir, removeFileQuietly } from '../store/fsUtil.js';
import { tryLock } from '../store/lock.js';
import { storeLayout } from '../store/paths.js';
import { whyFile } from '../why/record.js';
import { listUncommitted } from './commitIndex.js';
import { captureDir, captureStateFile, requestDir } from './paths.js';
import { hasWorkLeft, loadCaptureState, narrowCaptureState, saveCaptureState } from './state.js';

/** How often the sweep runs per data directory. */
export const SWEEP_INTERVAL_MS = 24 * 60 * 60_000;
/** Start answers are reused for two minutes; a day is far past any use. */
const START_ANSWER_MAX_AGE_MS = 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface RetentionRules {
  staleCommitIdleMs: number;
  captureRetentionDays: number;
}

export interface SweepSummary {
  looked: number;
  shrunk: number;
  removed: number;
  startAnswersRemoved: number;
}

function markerFile(dataDir: string): string {
  return join(captureDir(dataDir), '.retention-swept');
}

/** Runs the sweep when the last one is older than a day (or never ran). Never throws. */
export async function sweepIfDue(
  dataDir: string,
  rules: RetentionRules,
  now: number,
): Promise<SweepSummary | undefined> {
  let last = 0;
  try {
    last = statSync(markerFile(dataDir)).mtimeMs;
  } catch {
    // never swept
  }
  if (now - last < SWEEP_INTERVAL_MS) return undefined;
  try {
    writeFileAtomicSync(markerFile(dataDir), '');
    utimesSync(markerFile(dataDir), now / 1000, now / 1000);
  } catch {
    return undefined; // no capture dir yet, or a disk that refuses: nothing to sweep
  }
  return sweepCaptureStates(dataDir, rules, now);
}

/** One sweep over every capture state and start answer. Never throws. */
export async function sweepCaptureStates(dataDir: string, rules: RetentionRules, now: number): Promise<SweepSummary> {
  const summary: SweepSummary = { looked: 0, shrunk: 0, removed: 0, startAnswersRemoved: 0 };
  const listed = listUncommitted(dataDir);
  const waiting = new Set(listed === 'missing' ? [] : listed.map((entry) => entry.ovSessionId));
  for (const name of namesInDir(captureDir(dataDir)).filter((file) => file.endsWith('.json'))) {
    summary.looked++;
    if (listed === 'missing') continue; // before the index is built nothing is known to be settled
    const path = join(captureDir(dataDir), name);
    const raw = readJsonSync(path);
    const state = isRecord(raw) ? narrowCaptureState(raw) : undefined;
    if (
      !isRecord(raw) ||
      state === undefined ||
      waiting.has(state.ovSessionId) ||
      hasWorkLeft(state) ||
      inboxWaiting(dataDir, state.ovSessionId)
    )
      continue;
    const activeAt = Math.max(state.lastCaptureAt ?? 0, state.lastCommitAt ?? 0, mtimeOf(path));
    if (now - activeAt < rules.staleCommitIdleMs) continue;
    const gone = state.transcriptPath === undefined || !exists(state.transcriptPath);
    if (gone || now - activeAt >= rules.captureRetentionDays * DAY_MS) {
      if (await removeSession(dataDir, state.ovSessionId, now)) summary.removed++;
    } else if (Array.isArray(raw['recentIds']) && (await shrink(dataDir, state.ovSessionId, now))) {
      summary.shrunk++;
    }
  }
  summary.startAnswersRemoved = removeOldStartAnswers(dataDir, now);
  return summary;
}

async function underLock(
  dataDir: string,
  ovSessionId: string,
  now: number,
  work: () => Promise<boolean>,
): Promise<boolean> {
  const locked = await tryLock(captureLockPath(dataDir, ovSessionId), {
    now: () => now,
    staleMs: CAPTURE_LOCK_STALE_MS,
  });
  if (!locked.ok) return false; // a writer is on it: not idle after all
  try {
    return await work();
  } finally {
    await locked.handle.release();
  }
}

/** The state, its inbox and its why record. */
function removeSession(dataDir: string, ovSessionId: string, now: number): Promise<boolean> {
  return underLock(dataDir, ovSessionId, now, async () => {
    rmSync(requestDir(dataDir, ovSessionId), { recursive: true, force: true });
    removeFileQuietly(whyFile(dataDir, ovSessionId));
    removeFileQuietly(captureStateFile(dataDir, ovSessionId));
    return true;
  });
}

/** Rewrites an old-format state in the compact one (the loader converts it). */
function shrink(dataDir: string, ovSessionId: string, now: number): Promise<boolean> {
  return underLock(dataDir, ovSessionId, now, async () => {
    const state = await loadCaptureState(dataDir, ovSessionId);
    return state !== undefined && (await saveCaptureState(dataDir, state)).ok;
  });
}

/** A hook's request nobody drained yet: the session is not done. */
function inboxWaiting(dataDir: string, ovSessionId: string): boolean {
  return namesInDir(requestDir(dataDir, ovSessionId)).some((name) => name.endsWith('.json'));
}

function removeOldStartAnswers(dataDir: string, now: number): number {
  const dir = storeLayout(dataDir).sessionsDir;
  let removed = 0;
  for (const name of namesInDir(dir).filter((file) => file.endsWith('.json'))) {
    if (now - mtimeOf(join(dir, name)) < START_ANSWER_MAX_AGE_MS) continue;
    removeFileQuietly(join(dir, name));
    removed++;
  }
  return removed;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function exists(path: string): boolean {
  return mtimeOf(path) > 0;
}
