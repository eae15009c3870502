/**
 * Exactly-once sending when the server mints the message ids.
 *
 * The problem: OpenViking gives each added message a fresh id and has no
 * client-side idempotency key, so a request whose answer was lost (SIGKILL
 * between send and bookkeeping, a connection reset after the server stored
 * the batch, a timeout) cannot be resent blindly: it may already be there.
 *
 * The protocol (write-ahead, per session, under the capture lock):
 * 1. Before a send, the session's count is known (the last add result, or
 *    one `GET session`) and an `inflight` record is saved atomically: the
 *    batch fingerprint, its record ids, and that count.
 * 2. The request is sent. On an answer, the result and the cleared inflight
 *    are saved together with the advanced cursor.
 * 3. Anyone who finds an inflight record (a later run after a crash, a
 *    failed request, replay of the queued batch) asks `GET session`: if the
 *    count moved past the recorded one, the batch landed and is recorded as
 *    sent; if not, it did not land and is sent again, but only once the
 *    server had time to finish it (`resolveInflight`). If the server cannot
 *    be asked, nothing is decided and the record stays.
 *
 * Why the count is proof: only the capture-lock holder adds to a `cb-*`
 * session, and it resolves any inflight record before it adds anything
 * else, so between the recorded count and the check the only possible
 * writer is the batch itself (a batch is applied atomically). Commits shrink
 * the live `message_count`, so `total_message_count` (which counts archived
 * messages too) is compared when the server reports it; and no commit runs
 * while an inflight record is unresolved (commits go through the same lock
 * and resolve first, or queue behind the batch).
 *
 * @module
 */
import type { OvFailure, OvResult } from '../openviking/types.js';
import type { Inflight, ServerCount } from './state.js';
import type { SessionWriter } from './writer.js';

export interface SessionSnapshot {
  count: ServerCount;
  pendingTokens?: number;
}

/** The session's counts now; a missing session counts as empty (the first add creates it). */
export async function fetchSessionCount(writer: SessionWriter): Promise<OvResult<SessionSnapshot>> {
  const got = await writer.env.client.getSession(writer.ovSessionId);
  if (!got.ok) return got.status === 404 ? { ok: true, status: 404, result: { count: { live: 0, total: 0 } } } : got;
  const count: ServerCount = { live: got.result.message_count ?? 0 };
  if (got.result.total_message_count !== undefined) count.total = got.result.total_message_count;
  const snapshot: SessionSnapshot = { count };
  if (got.result.pending_tokens !== undefined) snapshot.pendingTokens = got.result.pending_tokens;
  return { ok: true, status: got.status, result: snapshot };
}

/** Did anything land since `before`? Totals when both sides have one, else the live count. */
export function countMoved(before: ServerCount, now: ServerCount): boolean {
  if (before.total !== undefined && now.total !== undefined) return now.total > before.total;
  return now.live > before.live;
}

export type Resolution =
  | { kind: 'applied'; snapshot: SessionSnapshot }
  | { kind: 'not-applied'; snapshot: SessionSnapshot }
  | { kind: 'unknown'; failure: OvFailure };

/**
 * Asks the server what became of the writer's inflight batch; the writer's
 * count is refreshed. A batch whose request went unanswered counts as not
 * applied only once the server had time to finish it (`settlesAt`): a slow
 * server stores a request after the client gave up, and a server finishes
 * a request whose client was SIGKILLed (the record of a dead process is
 * unanswered: it was written so before the send), and a resend before that
 * would duplicate it, or a later count would take the late batch for the
 * next one (a loss). When the deadline leaves room for it, the wait
 * happens here (a worker after a crash).
 */
export async function resolveInflight(writer: SessionWriter): Promise<Resolution | undefined> {
  const inflight = writer.state.inflight;
  if (inflight === undefined) return undefined;
  for (let waited = false; ; waited = true) {
    const now = await fetchSessionCount(writer);
    if (!now.ok) return { kind: 'unknown', failure: now };
    writer.count = now.result.count;
    if (countMoved(inflight.before, now.result.count)) return { kind: 'applied', snapshot: now.result };
    if (inflight.unanswered !== true) return { kind: 'not-applied', snapshot: now.result };
    const settleAt = settlesAt(inflight, writer.env.settings.timeoutMs);
    if (writer.env.now() >= settleAt) return { kind: 'not-applied', snapshot: now.result };
    // Room for the wait, the check and a send before the deadline: wait once; else leave it to a later run.
    if (waited || settleAt + writer.env.settings.timeoutMs > writer.env.deadlineAt)
      return { kind: 'unknown', failure: STILL_LANDING };
    writer.env.log.debug('inflight batch may still be landing; waiting', {
      session: writer.ovSessionId,
      ms: settleAt - writer.env.now(),
    });
    await sleep(settleAt - writer.env.now());
  }
}

/**
 * When an unanswered batch that has not landed counts as never stored:
 * three request timeouts after the write-ahead record, and at least two
 * after this writer gave up on the answer. Nothing the client can ask
 * tells a request the server will still act on from one it dropped, so
 * this is the bound of the guarantee: a server that stores a request more
 * than two timeouts after its client gave up can get it twice. Each
 * margin comes from a clean-clone CI run of the seeded soak that stored
 * turns twice inside the one before it: the send left well after
 * `startedAt` (a slow save or a descheduled writer, 4953f41: hence the
 * bound after the give-up; a writer killed mid-request leaves only
 * `startedAt`), and a starved server acted on a request more than one
 * timeout after the give-up (f878509). tests/faults/late-send.test.ts
 * holds a batch past each old bound.
 */
export function settlesAt(inflight: Inflight, timeoutMs: number): number {
  const afterRecord = inflight.startedAt + 3 * timeoutMs;
  return inflight.gaveUpAt === undefined ? afterRecord : Math.max(afterRecord, inflight.gaveUpAt + 2 * timeoutMs);
}

const STILL_LANDING: OvFailure = {
  ok: false,
  status: 0,
  code: 'IN_FLIGHT',
  message: 'an unanswered batch may still be landing',
  retryable: true,
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * A failure after which the request may still be stored: it went out and no
 * answer came (not a refused connection). A stage deadline that cut the
 * request counts too (a start hook's replay budget is shorter than the
 * request timeout); one that passed before sending only makes the next
 * writer wait longer, never send twice.
 */
export function mayStillLand(failure: OvFailure): boolean {
  if (failure.status !== 0) return failure.status === 504;
  if (failure.code === 'TIMEOUT' || failure.code === 'DEADLINE') return true;
  return failure.code === 'NETWORK' && failure.unsent !== true;
}

/** The count to record before a send: the one seen last in this job, else asked now. */
export async function countBeforeSend(writer: SessionWriter): Promise<OvResult<ServerCount>> {
  if (writer.count !== undefined) return { ok: true, status: 200, result: writer.count };
  const now = await fetchSessionCount(writer);
  if (!now.ok) return now;
  writer.count = now.result.count;
  return { ok: true, status: now.status, result: now.result.count };
}
