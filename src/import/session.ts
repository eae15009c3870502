/**
 * One past session brought in (DESIGN D35) by live capture's own machinery:
 * the session's capture lock and state (capture/writer.ts), the tracked pass
 * (index entry, server policy: capture/tracking.ts) and the pass itself
 * (capture/pass.ts: privacy filter and redaction, write-ahead inflight
 * record, acknowledged-record fingerprints, queue, commit). So a session
 * live capture sent in part goes on from its cursor, a batch a killed import
 * left in flight is checked against the server's count before it is sent
 * again, and the session is committed `{}` at its end (the job's `commit`),
 * as SessionEnd would have.
 *
 * The transcript is read in slices of READ_LIMIT_BYTES (a pass each, the
 * cursor saved after each batch), so memory follows the slice, not the
 * file; a slice that moved nothing (one step longer than the slice) is read
 * again twice as large.
 *
 * No request is posted to the session's inbox: a session whose capture lock
 * is held is live (`busy`) and is left to its writer untouched.
 *
 * @module
 */
import { capturePass, type PassResult } from '../capture/pass.js';
import { trackedPass } from '../capture/tracking.js';
import { withSessionWriter, type CaptureEnv } from '../capture/writer.js';
import type { Candidate } from './judge.js';
import { endsWithCutLine } from './scan.js';

/** Bytes of transcript per pass. */
export const READ_LIMIT_BYTES = 4 * 1024 * 1024;
/** Passes of one session at most (a slice that never moves doubles; this only bounds a pathological file). */
const MAX_PASSES = 10_000;

/** What importing one session did. */
export interface SessionImport {
  /**
   * - `done`: everything acknowledged, the commit taken (or nothing to commit);
   * - `queued`: the server refused for now (429, 503, no answer): what is left
   *   waits in the queue; a retry after a pause sends it;
   * - `busy`: its capture lock is held: live, left to its writer;
   * - `failed`: stopped (deadline, disk, lock lost, a write the server refused).
   */
  status: 'done' | 'queued' | 'busy' | 'failed';
  sent: number;
  queued: number;
  deadLettered: number;
  turns: number;
  /** Transcript bytes taken care of in this run (the cursor's progress). */
  bytes: number;
  /** Lines that were not JSON objects (corrupt, or cut short): skipped. */
  skippedLines: number;
  /** The server's last refusal (for the summary). */
  lastError?: string;
}

/** Nothing done yet. */
function nothingYet(status: SessionImport['status']): SessionImport {
  return { status, sent: 0, queued: 0, deadLettered: 0, turns: 0, bytes: 0, skippedLines: 0 };
}

export async function importSession(env: CaptureEnv, candidate: Candidate): Promise<SessionImport> {
  const { transcript } = candidate;
  const identity = {
    ovSessionId: transcript.ovSessionId,
    hostSessionId: transcript.hostSessionId,
    workspace: candidate.cwd,
    ...(transcript.agentId !== undefined ? { agentId: transcript.agentId } : {}),
  };
  const outcome = await withSessionWriter(env, identity, 0, async (writer) => {
    const total = nothingYet('done');
    let limit = READ_LIMIT_BYTES;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const before = writer.state.cursor?.path === transcript.path ? writer.state.cursor.offset : 0;
      const job = {
        identity,
        transcriptPath: transcript.path,
        subagent: transcript.agentId !== undefined,
        commit: true,
        readLimitBytes: limit,
        ...(candidate.peerId !== undefined ? { peerId: candidate.peerId } : {}),
      };
      const result = await trackedPass(writer, job, (tracked) => capturePass(writer, tracked));
      add(total, result, Math.max(0, (result.cursorOffset ?? before) - before));
      env.log.debug('import pass', {
        session: transcript.ovSessionId,
        status: result.status,
        sent: result.sent,
        queued: result.queued,
        offset: result.cursorOffset,
        more: result.more === true,
      });
      if (writer.state.lastError !== undefined) total.lastError = writer.state.lastError;
      const status = statusOf(result);
      if (status === 'done' && (await endsWithCutLine(transcript.path))) total.skippedLines += 1;
      if (status !== undefined) return { ...total, status };
      limit = (result.cursorOffset ?? before) > before ? READ_LIMIT_BYTES : limit * 2;
    }
    return { ...total, status: 'failed' as const, lastError: 'the transcript never came to its end' };
  });
  if (outcome.ok) return outcome.value;
  if (outcome.reason === 'busy') return nothingYet('busy');
  return { ...nothingYet('failed'), lastError: outcome.message ?? 'lock error' };
}

/** The session's status after `result`, or undefined when another pass goes on. */
function statusOf(result: PassResult): SessionImport['status'] | undefined {
  if (result.status === 'blocked') return 'queued'; // an earlier batch's fate is unknown and the server cannot say now
  if (result.status === 'partial') return 'failed';
  if (result.queued > 0 || result.commit === 'queued') return 'queued';
  if (result.more === true) return undefined;
  if (result.commit === 'lost') return 'failed';
  return 'done';
}

function add(total: SessionImport, result: PassResult, bytes: number): void {
  total.sent += result.sent;
  total.queued += result.queued;
  total.deadLettered += result.deadLettered;
  total.turns += result.turns;
  total.skippedLines += result.skippedLines;
  total.bytes += bytes;
}
