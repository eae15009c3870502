/**
 * Bookkeeping when messages are acknowledged (sent, queued or dead-lettered)
 * and committed: the acknowledged-record fingerprints, the last acknowledged
 * record, and the counters the start stage, doctor and the status line read.
 * `capturedSinceCommit` counts what the SERVER acknowledged since the last
 * commit it took, never what merely waits in the queue. One place, so the capture
 * pass, inflight resolution and replay count alike.
 *
 * @module
 */
import type { CommitBody } from '../openviking/types.js';
import { RECORD_FINGERPRINT_CHARS, recordFingerprint } from '../transcript/fingerprint.js';
import { ACKED_LIMIT } from './state.js';
import type { CaptureState } from './state.js';

export type AckKind = 'sent' | 'queued' | 'deadLettered';

/** Records that the messages of `recordIds` left capture's hands as `kind`. */
export function acknowledge(state: CaptureState, recordIds: readonly string[], kind: AckKind, now: number): void {
  if (recordIds.length === 0) return;
  const added = recordIds.map(recordFingerprint);
  const known = ackedSet(state);
  if (added.every((fingerprint) => known.has(fingerprint))) return; // already recorded (crash recovery)
  state.acked = rememberFingerprints(state.acked, added);
  state.lastAckedRecordId = recordIds[recordIds.length - 1];
  state.counts[kind] += recordIds.length;
  // Only what the server holds can be archived: a queued batch counts when its replay lands (recordReplayed).
  if (kind === 'sent') state.capturedSinceCommit += recordIds.length;
  state.lastCaptureAt = now;
}

/** A queued batch of `count` messages reached the server on replay. */
export function recordReplayed(state: CaptureState, count: number): void {
  state.counts.sent += count;
  state.capturedSinceCommit += count;
}

/**
 * A commit the server took archives what the server held then, minus the
 * `keep_recent_count` newest it leaves live; batches still queued behind it
 * are not in it (they count when replayed). So a commit replayed from the
 * queue never hides the turns queued after it (issue 14 item 3).
 */
export function recordCommit(state: CaptureState, now: number, body: CommitBody): void {
  state.lastCommitAt = now;
  state.capturedSinceCommit = Math.min(state.capturedSinceCommit, body.keep_recent_count ?? 0);
  state.counts.commits += 1;
}

/** The acknowledged-record fingerprints as a set, for planning. */
export function ackedSet(state: Pick<CaptureState, 'acked'>): Set<string> {
  const set = new Set<string>();
  for (let at = 0; at < state.acked.length; at += RECORD_FINGERPRINT_CHARS)
    set.add(state.acked.slice(at, at + RECORD_FINGERPRINT_CHARS));
  return set;
}

/** `acked` with `added` appended, bounded to the newest ACKED_LIMIT. */
export function rememberFingerprints(acked: string, added: readonly string[], limit = ACKED_LIMIT): string {
  return (acked + added.join('')).slice(-limit * RECORD_FINGERPRINT_CHARS);
}
