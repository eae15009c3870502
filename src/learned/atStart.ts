/**
 * The session start's one line about what earlier sessions of this
 * workspace taught (DESIGN D36), shared by the SessionStart stage
 * (stages/start.ts) and the hooks module's start (mod/start.ts):
 *
 * 1. `learnedAtStart` (synchronous, no network): the workspace's ledger
 *    (store/learned.ts, two small files) and the one task worth asking
 *    about: the newest commit whose task may still change. None: no request.
 * 2. `checkLearned`: that one `GET /api/v1/tasks/{id}`, beside the start's
 *    other reads and under the same client (its deadline).
 * 3. `learnedReport`: the line, from every task that ended and was not
 *    reported yet: memories learned (`OpenViking learned 3 memories from
 *    your last session in this project.`) and extractions that failed.
 *    Nothing to say (none ended, or they ended with no memory): no line.
 *    The ledger comes back with those tasks marked reported, for the
 *    caller to save before its answer is out (so a second delivery of the
 *    same start, under its lock, says nothing).
 *
 * The prompt path never comes here: it makes no request for this.
 *
 * @module
 */
import type { OpenVikingClient } from '../openviking/types.js';
import { readLearned, type LearnedLedger, type TaskOutcome } from '../store/learned.js';
import { isFinal, memoriesText, outcomeOf, unresolvedCommits, withOutcome } from './outcome.js';

/** Longest piece of a server's error quoted in the line. */
const ERROR_CHARS = 80;

export interface LearnedAtStart {
  ledger: LearnedLedger;
  /** The task to ask about, if any. */
  checkTaskId?: string;
  /** Whether the ledger changed since it was read (an answer came): save it even with nothing to say. */
  changed: boolean;
}

export interface LearnedReport {
  /** One line for the user, or undefined. */
  line?: string;
  /** Memories the line speaks of (for the status line). */
  memories: number;
  ledger: LearnedLedger;
  /** Whether the ledger must be saved (something was asked or reported). */
  save: boolean;
}

/** What the disk says, and the one task worth a request. Never throws. */
export function learnedAtStart(dataDir: string, workspace: string): LearnedAtStart {
  const ledger = readLearned(dataDir, workspace);
  const newest = unresolvedCommits(ledger)[0];
  return { ledger, changed: false, ...(newest !== undefined ? { checkTaskId: newest.taskId } : {}) };
}

/** At most one request: the task's status now. A failed request leaves the ledger as it was. */
export async function checkLearned(
  start: LearnedAtStart,
  client: OpenVikingClient,
  now: () => number,
): Promise<LearnedAtStart> {
  if (start.checkTaskId === undefined) return start;
  const outcome = outcomeOf(await client.getTask(start.checkTaskId), now());
  if (outcome === undefined) return start;
  return { ...start, ledger: withOutcome(start.ledger, start.checkTaskId, outcome), changed: true };
}

/** The line for what ended since the last report, and the ledger with it reported. */
export function learnedReport(start: LearnedAtStart, now: number): LearnedReport {
  const { ledger } = start;
  const sessionOf = new Map(ledger.commits.map((commit) => [commit.taskId, commit.ovSessionId]));
  const fresh = Object.entries(ledger.outcomes).filter(
    ([taskId, outcome]) => sessionOf.has(taskId) && isFinal(outcome) && outcome.reportedAt === undefined,
  );
  if (fresh.length === 0) return { memories: 0, ledger, save: start.changed };
  const outcomes: Record<string, TaskOutcome> = { ...ledger.outcomes };
  for (const [taskId, outcome] of fresh) outcomes[taskId] = { ...outcome, reportedAt: now };
  const taught = new Map<string, number>();
  const failed = new Map<string, string>();
  for (const [taskId, outcome] of fresh) {
    const session = sessionOf.get(taskId) ?? '';
    if (outcome.status === 'completed' && (outcome.memories ?? 0) > 0)
      taught.set(session, (taught.get(session) ?? 0) + (outcome.memories ?? 0));
    if (outcome.status === 'failed') failed.set(session, outcome.error ?? 'no reason given');
  }
  const memories = [...taught.values()].reduce((sum, count) => sum + count, 0);
  const newestSession = ledger.commits[ledger.commits.length - 1]?.ovSessionId;
  const line = lineOf(taught, failed, newestSession);
  return { ...(line !== undefined ? { line } : {}), memories, ledger: { ...ledger, outcomes }, save: true };
}

function lineOf(
  taught: ReadonlyMap<string, number>,
  failed: ReadonlyMap<string, string>,
  newestSession: string | undefined,
): string | undefined {
  const whose = (sessions: ReadonlyMap<string, unknown>): string =>
    sessions.size > 1
      ? `your last ${sessions.size} sessions`
      : sessions.has(newestSession ?? '')
        ? 'your last session'
        : 'an earlier session';
  const memories = [...taught.values()].reduce((sum, count) => sum + count, 0);
  if (taught.size > 0 && failed.size === 0)
    return `OpenViking learned ${memoriesText(memories)} from ${whose(taught)} in this project.`;
  if (taught.size > 0)
    return `OpenViking learned ${memoriesText(memories)} from ${whose(taught)} in this project; extraction failed for ${failed.size} more (/openviking:learned lists it).`;
  if (failed.size === 0) return undefined;
  const reason = [...failed.values()][0]?.replace(/\s+/g, ' ').slice(0, ERROR_CHARS) ?? '';
  return `OpenViking could not extract memories from ${whose(failed)} in this project (the server said: ${reason}); /openviking:learned lists it.`;
}
