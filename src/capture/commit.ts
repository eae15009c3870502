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
 * A commit the server took with a task (memory extraction) is noted in its
 * workspace's ledger (store/learned.ts), so the next session start can say
 * what the session taught (DESIGN D36).
 *
 * @module
 */
import type { CommitBody, CommitResult } from '../openviking/types.js';
import { noteCommit } from './learnedNote.js';
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
    await commitTaken(writer, body, result.result);
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

/** What follows a commit the server took, sent now or replayed from the queue: the counters, and its task in the ledger. */
export async function commitTaken(writer: SessionWriter, body: CommitBody, result: CommitResult): Promise<void> {
  const now = writer.env.now;
  recordCommit(writer.state, now(), body);
  writer.count = undefined; // the live count shrank
  if (typeof result.task_id !== 'string' || result.task_id === '') return; // skipped: nothing was archived
  const note = {
    ovSessionId: writer.ovSessionId,
    taskId: result.task_id,
    at: now(),
    ...(typeof result.archive_uri === 'string' ? { archiveUri: result.archive_uri } : {}),
  };
  if (!(await noteCommit(writer.env.dataDir, writer.state.workspace, note, now)))
    writer.env.log.debug('commit task not noted', { session: writer.ovSessionId, task: result.task_id });
}
