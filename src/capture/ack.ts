/**
 * Bookkeeping when messages are acknowledged (sent, queued or dead-lettered):
 * the dedupe window, the last acknowledged record, and the counters the
 * start stage, doctor and the status line read. One place, so the capture
 * pass, inflight resolution and replay count alike.
 *
 * @module
 */
import { rememberIds } from './plan.js';
import { RECENT_IDS_LIMIT } from './state.js';
import type { CaptureState } from './state.js';

export type AckKind = 'sent' | 'queued' | 'deadLettered';

/** Records that the messages of `recordIds` left capture's hands as `kind`. */
export function acknowledge(state: CaptureState, recordIds: readonly string[], kind: AckKind, now: number): void {
  if (recordIds.length === 0) return;
  if (recordIds.every((id) => state.recentIds.includes(id))) return; // already recorded (crash recovery)
  state.recentIds = rememberIds(state.recentIds, recordIds, RECENT_IDS_LIMIT);
  state.lastAckedRecordId = recordIds[recordIds.length - 1];
  state.counts[kind] += recordIds.length;
  if (kind !== 'deadLettered') state.capturedSinceCommit += recordIds.length;
  state.lastCaptureAt = now;
}

/** A commit the server took: the archive now holds everything captured so far. */
export function recordCommit(state: CaptureState, now: number): void {
  state.lastCommitAt = now;
  state.capturedSinceCommit = 0;
  state.counts.commits += 1;
}
