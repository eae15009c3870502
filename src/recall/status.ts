/**
 * Leaves what the status line shows about recall (src/store/status.ts): the
 * session's last recall (memories injected, when, which process answered:
 * the hook, the resident helper or the hooks module) and whether the server
 * answered. Both writes are small, atomic, unsynced, and run in parallel;
 * a failed write only makes the status line stale.
 *
 * @module
 */
import { recordActivity, recordServerStatus, type Runner } from '../store/status.js';
import type { RecallOutcome } from './types.js';

/** Did the server answer at all (an HTTP error below 500 still means it is up)? */
export function serverAnswered(outcome: RecallOutcome): boolean {
  return outcome.status !== 'failed' || (outcome.failure.status > 0 && outcome.failure.status < 500);
}

export async function recordRecall(
  dataDir: string,
  ovSessionId: string,
  outcome: RecallOutcome,
  at: number,
  baseUrl: string,
  by: Runner,
): Promise<void> {
  const up = serverAnswered(outcome);
  const detail = outcome.status === 'failed' ? outcome.failure.code : undefined;
  await Promise.all([
    recordActivity(dataDir, 'recall', ovSessionId, {
      at,
      count: outcome.status === 'hits' ? outcome.items.length : 0,
      by,
    }),
    recordServerStatus(dataDir, { up, at, ...(up || detail === undefined ? {} : { detail }) }, baseUrl),
  ]);
}
