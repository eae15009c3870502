/**
 * Committing a session (archive + memory extraction on the server), under
 * the session's writer so a commit never slips between a batch and its
 * inflight check, and never ahead of the session's queued batches.
 *
 * When: the add result's `pending_tokens` passed `commitTokenThreshold`
 * (body `{keep_recent_count}`), and at PreCompact, SessionEnd, SubagentStop
 * and commit-stale (body `{}`: archive everything). A 404 means the session
 * was never created on the server: nothing to commit.
 *
 * @module
 */
import type { CommitBody } from '../openviking/types.js';
import { recordCommit } from './ack.js';
import { deadLetterWrite, hasQueuedWrites, queueWrite } from './queueing.js';
import type { SessionWriter } from './writer.js';

export type CommitOutcome = 'committed' | 'queued' | 'absent' | 'dead-lettered' | 'lost';

/** Commits now, or queues the commit behind the session's queued writes (or when the server is away). */
export async function commitSession(writer: SessionWriter, body: CommitBody): Promise<CommitOutcome> {
  if (await hasQueuedWrites(writer)) return queueCommit(writer, body);
  if (!(await writer.heartbeat())) return 'lost'; // another writer has the session now
  const result = await writer.env.client.commit(writer.ovSessionId, body);
  if (result.ok) {
    recordCommit(writer.state, writer.env.now(), body);
    writer.count = undefined; // the live count shrank
    return 'committed';
  }
  if (result.status === 404) return 'absent';
  writer.state.lastError = `commit: ${result.code} ${result.message}`;
  if (result.retryable) return queueCommit(writer, body);
  return (await deadLetterWrite(writer, 'commit', body, `${result.code}: ${result.message}`))
    ? 'dead-lettered'
    : 'lost';
}

async function queueCommit(writer: SessionWriter, body: CommitBody): Promise<CommitOutcome> {
  return (await queueWrite(writer, 'commit', body)) ? 'queued' : 'lost';
}
