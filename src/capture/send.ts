/**
 * Sends one batch to the session under the write-ahead protocol of
 * inflight.ts, and says what became of it.
 *
 * - `applied`: the server has the batch (answered, or proven by the count).
 * - `route-missing`: the batch route answered 404/405 (an old server; the
 *   batch route auto-creates sessions, so 404 can only mean the route);
 *   nothing landed and the caller switches to one message per request.
 * - `failed` with `ambiguous: false`: nothing landed (a 4xx refusal, or a
 *   failure the count check proved harmless); retry or dead-letter by
 *   `failure.retryable`.
 * - `failed` with `ambiguous: true`: the request may have landed (or may
 *   still land: it went unanswered) and the server cannot tell yet. The inflight record stays; the caller must
 *   queue exactly this batch (its queue key is the fingerprint), so replay
 *   resolves it before anything else of the session is sent.
 * - `local-error`: the write-ahead record could not be saved, so nothing was
 *   sent; the caller stops without acknowledging.
 *
 * @module
 */
import type { OvFailure, SessionMessage } from '../openviking/types.js';
import { countBeforeSend, countMoved, fetchSessionCount, mayStillLand } from './inflight.js';
import type { ServerCount } from './state.js';
import type { SessionWriter } from './writer.js';

export type Delivery =
  | { kind: 'applied'; pendingTokens?: number }
  | { kind: 'route-missing' }
  | { kind: 'failed'; failure: OvFailure; ambiguous: boolean }
  | { kind: 'local-error' };

export interface BatchMeta {
  /** `dedupKeyOf('addMessages', session, {messages})`. */
  fingerprint: string;
  recordIds: string[];
  /** The batch is a pending-queue entry being replayed. */
  queued: boolean;
}

/** One request: `messages/batch`, or `messages` for a single message in serial mode. */
export async function deliverBatch(
  writer: SessionWriter,
  messages: SessionMessage[],
  meta: BatchMeta,
): Promise<Delivery> {
  const serial = writer.state.serialOnly === true;
  if (serial && messages.length !== 1) return { kind: 'route-missing' };
  const before = await countBeforeSend(writer);
  if (!before.ok) return { kind: 'failed', failure: before, ambiguous: false };
  // Unanswered until an answer says otherwise: if this process dies, the request may still land (inflight.ts).
  writer.state.inflight = {
    fingerprint: meta.fingerprint,
    recordIds: meta.recordIds,
    before: before.result,
    queued: meta.queued,
    startedAt: writer.env.now(),
    unanswered: true,
    target: writer.env.target.id,
  };
  if (!(await writer.save())) {
    writer.state.inflight = undefined;
    return { kind: 'local-error' };
  }
  writer.count = undefined;
  writer.env.crashPoint?.('before-send');
  const client = writer.env.client;
  const sent = serial
    ? await client.addMessage(writer.ovSessionId, messages[0] as SessionMessage)
    : await client.addMessages(writer.ovSessionId, messages);
  writer.env.crashPoint?.('after-send');
  if (sent.ok) {
    writer.state.inflight = undefined;
    writer.count = countAfter(before.result, sent.result.message_count, sent.result.added);
    return sent.result.pending_tokens === undefined
      ? { kind: 'applied' }
      : { kind: 'applied', pendingTokens: sent.result.pending_tokens };
  }
  return settleFailure(writer, before.result, sent, serial);
}

async function settleFailure(
  writer: SessionWriter,
  before: ServerCount,
  failure: OvFailure,
  serial: boolean,
): Promise<Delivery> {
  if (failure.status >= 400 && failure.status < 500) {
    // The server refused the request: nothing was stored.
    writer.state.inflight = undefined;
    writer.count = before;
    if (!serial && (failure.status === 404 || failure.status === 405)) return { kind: 'route-missing' };
    return { kind: 'failed', failure, ambiguous: false };
  }
  // A request that went out unanswered may still land later: only settled once the server had time (inflight.ts).
  // An answer (a 5xx other than 504) or a refused connection proves nothing more will land.
  const inflight = writer.state.inflight;
  if (inflight !== undefined && !mayStillLand(failure)) delete inflight.unanswered;
  if (inflight?.unanswered === true) inflight.gaveUpAt = writer.env.now();
  const now = await fetchSessionCount(writer);
  if (!now.ok) return { kind: 'failed', failure, ambiguous: true };
  writer.count = now.result.count;
  if (countMoved(before, now.result.count)) {
    writer.state.inflight = undefined;
    return now.result.pendingTokens === undefined
      ? { kind: 'applied' }
      : { kind: 'applied', pendingTokens: now.result.pendingTokens };
  }
  if (inflight?.unanswered === true) return { kind: 'failed', failure, ambiguous: true };
  writer.state.inflight = undefined;
  return { kind: 'failed', failure, ambiguous: false };
}

/**
 * The count after an answered add, or undefined (ask again before the next
 * send) when the answer does not say: the server may split a message into
 * several, so the number sent is no substitute for the number stored.
 */
function countAfter(before: ServerCount, live: number | undefined, added: number | undefined): ServerCount | undefined {
  if (live === undefined) return undefined;
  const count: ServerCount = { live };
  if (before.total !== undefined && added !== undefined) count.total = before.total + added;
  return count;
}
