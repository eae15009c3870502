/**
 * What a commit's task says about the memories it produced (DESIGN D36,
 * F24): the task's status, and once completed the sum of its per-category
 * `memories_extracted` and the diff that names them. A 404 is a task the
 * server no longer keeps (completed ones go after a day, failed after a
 * week): final, with nothing more to learn. Any other failure (no answer,
 * a timeout, a 5xx) says nothing: the task is asked about again later.
 *
 * @module
 */
import type { OvResult, TaskInfo } from '../openviking/types.js';
import { FINAL_TASK_STATUSES, type CommitNote, type LearnedLedger, type TaskOutcome } from '../store/learned.js';

/** The task's outcome as of `now`, or undefined when the server did not say. */
export function outcomeOf(answer: OvResult<TaskInfo>, now: number): TaskOutcome | undefined {
  if (!answer.ok) return answer.status === 404 ? { status: 'expired', checkedAt: now } : undefined;
  const task = answer.result;
  const outcome: TaskOutcome = { status: task.status, checkedAt: now };
  if (task.status === 'completed') {
    const categories = task.memories_extracted ?? {};
    outcome.memories = Object.values(categories).reduce((sum, count) => sum + count, 0);
    outcome.categories = categories;
    if (task.memory_diff_uri !== undefined) outcome.diffUri = task.memory_diff_uri;
  }
  if (task.error !== undefined) outcome.error = task.error;
  return outcome;
}

/** True once the task changes no more. */
export function isFinal(outcome: TaskOutcome | undefined): boolean {
  return outcome !== undefined && FINAL_TASK_STATUSES.has(outcome.status);
}

/** Commits whose task may still change, newest first. */
export function unresolvedCommits(ledger: LearnedLedger): CommitNote[] {
  return ledger.commits.filter((commit) => !isFinal(ledger.outcomes[commit.taskId])).reverse();
}

/** The ledger with `outcome` recorded for `taskId` (a report already made stays made). */
export function withOutcome(ledger: LearnedLedger, taskId: string, outcome: TaskOutcome): LearnedLedger {
  const reportedAt = ledger.outcomes[taskId]?.reportedAt;
  return {
    ...ledger,
    outcomes: { ...ledger.outcomes, [taskId]: reportedAt === undefined ? outcome : { ...outcome, reportedAt } },
  };
}

/** `1 memory`, `3 memories`. */
export function memoriesText(count: number): string {
  return `${count} ${count === 1 ? 'memory' : 'memories'}`;
}
