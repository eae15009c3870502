/**
 * What each session taught, on disk (DESIGN D36): per workspace, the commits
 * this plugin made (their task ids, from the commit's answer) and what the
 * server said of each task since. Two small files per workspace, each with
 * its own writers, so neither overwrites what the other wrote:
 *
 * | file                               | written by                               | holds                          |
 * |------------------------------------|------------------------------------------|--------------------------------|
 * | `learned/<key>.commits.json`       | the session's capture writer, under the workspace's learned lock | the newest commits: session, task id, archive, when |
 * | `learned/<key>.outcomes.json`      | the session start, `/openviking:learned` | per task: status, memories, the diff's URI, error, when checked and reported |
 *
 * `<key>` = `safeFileKey(workspace)`. Bounded: the newest MAX_COMMITS
 * commits, and outcomes only of the tasks still listed. Read with
 * synchronous small-file calls: the session start reads both (two reads,
 * whatever the history, DESIGN D19's rule), and in the hooks module they
 * come from its file snapshot like every other store file (D30).
 *
 * @module
 */
import { join } from 'node:path';
import { isRecord } from '../util/json.js';
import { readJsonSync, writeFileAtomicSync } from './atomic.js';
import { safeFileKey, sessionLockFile, storeLayout } from './paths.js';

/** Commits kept per workspace: enough for the recent sessions `/openviking:learned` lists. */
export const MAX_COMMITS = 50;

/** One commit the server took with a task: what the start and `/openviking:learned` ask about. */
export interface CommitNote {
  ovSessionId: string;
  taskId: string;
  archiveUri?: string;
  at: number;
}

/** Statuses after which a task changes no more (`expired`: the server no longer knows it, F24). */
export const FINAL_TASK_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'expired']);

/** What the server said of one task, and whether the user was told. */
export interface TaskOutcome {
  status: string;
  /** Completed: memories this commit extracted, and by category. */
  memories?: number;
  categories?: Record<string, number>;
  /** Completed with something written: the diff that names each memory. */
  diffUri?: string;
  error?: string;
  checkedAt: number;
  /** When a session start (or `/openviking:learned`) said it. */
  reportedAt?: number;
}

export interface LearnedLedger {
  /** Oldest first. */
  commits: CommitNote[];
  outcomes: Record<string, TaskOutcome>;
}

function learnedDir(dataDir: string): string {
  return join(dataDir, 'learned');
}

function filesOf(dataDir: string, workspace: string): { commits: string; outcomes: string } {
  const key = safeFileKey(workspace);
  return {
    commits: join(learnedDir(dataDir), `${key}.commits.json`),
    outcomes: join(learnedDir(dataDir), `${key}.outcomes.json`),
  };
}

/** The workspace's ledger; missing or corrupt files read as empty. Never throws. */
export function readLearned(dataDir: string, workspace: string): LearnedLedger {
  const files = filesOf(dataDir, workspace);
  return { commits: readCommits(readJsonSync(files.commits)), outcomes: readOutcomes(readJsonSync(files.outcomes)) };
}

/**
 * The workspace's commit list with `note` added (the newest MAX_COMMITS
 * kept), as the file's text. Its one writer is the session's capture writer
 * (capture/learnedNote.ts), under `learnedLockFile`: writers of several
 * sessions of one workspace may commit at once.
 */
export function commitsWith(dataDir: string, workspace: string, note: CommitNote): { file: string; text: string } {
  const file = filesOf(dataDir, workspace).commits;
  const commits = readCommits(readJsonSync(file)).filter((known) => known.taskId !== note.taskId);
  commits.push(note);
  return { file, text: JSON.stringify({ commits: commits.slice(-MAX_COMMITS) }) };
}

/** The lock a workspace's commit list is written under. */
export function learnedLockFile(dataDir: string, workspace: string): string {
  return sessionLockFile(storeLayout(dataDir), workspace, 'learned');
}

/**
 * Stores what is known of the workspace's tasks, only of those still in its
 * commit list (the rest are gone from it). Whole file, no lock: its writers
 * are a session start and the user's command, and a lost update costs one
 * more request or one repeated line, never a commit. Never throws.
 */
export function saveOutcomes(dataDir: string, workspace: string, ledger: LearnedLedger): void {
  const listed = new Set(ledger.commits.map((commit) => commit.taskId));
  const kept = Object.fromEntries(Object.entries(ledger.outcomes).filter(([taskId]) => listed.has(taskId)));
  try {
    writeFileAtomicSync(filesOf(dataDir, workspace).outcomes, JSON.stringify({ outcomes: kept }));
  } catch {
    // The next start asks again.
  }
}

function readCommits(value: unknown): CommitNote[] {
  const list = isRecord(value) && Array.isArray(value['commits']) ? value['commits'] : [];
  const commits: CommitNote[] = [];
  for (const item of list) {
    if (!isRecord(item)) continue;
    const { ovSessionId, taskId, archiveUri, at } = item;
    if (typeof ovSessionId !== 'string' || typeof taskId !== 'string' || taskId === '' || !isTime(at)) continue;
    commits.push({ ovSessionId, taskId, at, ...(typeof archiveUri === 'string' ? { archiveUri } : {}) });
  }
  return commits.slice(-MAX_COMMITS);
}

function readOutcomes(value: unknown): Record<string, TaskOutcome> {
  const map = isRecord(value) && isRecord(value['outcomes']) ? value['outcomes'] : {};
  const outcomes: Record<string, TaskOutcome> = {};
  for (const [taskId, item] of Object.entries(map)) {
    if (taskId === '__proto__' || !isRecord(item) || typeof item['status'] !== 'string' || !isTime(item['checkedAt']))
      continue;
    const outcome: TaskOutcome = { status: item['status'], checkedAt: item['checkedAt'] };
    if (isCount(item['memories'])) outcome.memories = item['memories'];
    const categories = countsOf(item['categories']);
    if (categories !== undefined) outcome.categories = categories;
    if (typeof item['diffUri'] === 'string') outcome.diffUri = item['diffUri'];
    if (typeof item['error'] === 'string') outcome.error = item['error'];
    if (isTime(item['reportedAt'])) outcome.reportedAt = item['reportedAt'];
    outcomes[taskId] = outcome;
  }
  return outcomes;
}

function countsOf(value: unknown): Record<string, number> | undefined {
  if (!isRecord(value)) return undefined;
  const counts: Record<string, number> = {};
  for (const [name, count] of Object.entries(value)) if (name !== '__proto__' && isCount(count)) counts[name] = count;
  return counts;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
