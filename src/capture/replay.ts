/**
 * Replays the pending queue with capture's guarantees: each entry is sent
 * by its session's only writer (the capture lock, or the writer the caller
 * already holds), and an `addMessages` entry whose earlier attempt may have
 * landed is checked against the session's count before it is sent again
 * (inflight.ts). A blind resend after a connection reset would duplicate.
 *
 * The start stage and the capture worker both replay through
 * `replayPendingWrites`; the store's `replay` keeps per-session order, the
 * budget, attempts, TTL and the dead-letter folder. Only the server's
 * refusal of the write (a 4xx other than 408, 429 and a retryable 409)
 * costs an attempt; no answer, a timeout, a 5xx, 429 or a busy writer
 * never does (`wait`), so an outage across any number of session starts
 * dead-letters nothing (DESIGN D18). An entry captured for another server
 * or identity than the configured one waits too, untouched, until that one
 * is configured again or its TTL ends (DESIGN D33).
 *
 * @module
 */
import type { CommitBody, OvFailure, SessionMessage } from '../openviking/types.js';
import { isRecord } from '../util/json.js';
import { replay } from '../store/queue.js';
import { sanitizeMessage } from '../transcript/index.js';
import type { QueueEntry, ReplaySummary, ReplayVerdict } from '../store/queue.js';
import { recordReplayed } from './ack.js';
import { commitTaken } from './commit.js';
import { resolveInflight } from './inflight.js';
import { queueDirOf } from './queueing.js';
import { recoverEnqueueIntent } from './recover.js';
import { deliverBatch } from './send.js';
import { settleInflight } from './settle.js';
import { withSessionWriter } from './writer.js';
import type { CaptureEnv, SessionWriter } from './writer.js';
import { otherTargetText } from './writeTarget.js';

export interface ReplayRun {
  /** No entry starts after this long. */
  budgetMs: number;
  /** At most this many entries. */
  limit: number;
  /** Writers the caller already holds (their locks are not taken again). */
  held?: ReadonlyMap<string, SessionWriter>;
  /** Wait for another session's capture lock this long; a busy session's entry is retried later. */
  lockWaitMs?: number;
}

/** One replay pass over the whole queue; never throws. */
export function replayPendingWrites(env: CaptureEnv, run: ReplayRun): Promise<ReplaySummary> {
  const { settings } = env;
  return replay(queueDirOf(env.dataDir), {
    execute: (entry) => executeEntry(env, run, entry),
    now: env.now,
    budgetMs: run.budgetMs,
    limit: run.limit,
    maxAttempts: settings.pendingMaxRetries,
    ttlMs: settings.pendingTtlDays * 24 * 60 * 60_000,
  });
}

async function executeEntry(env: CaptureEnv, run: ReplayRun, entry: QueueEntry): Promise<ReplayVerdict> {
  // It goes to the server and identity it was captured for, or waits (uncounted; the TTL still bounds it): D33.
  if (entry.target !== undefined && entry.target.id !== env.target.id)
    return { verdict: 'wait', error: otherTargetText(entry.target, env.target) };
  const held = run.held?.get(entry.sessionId);
  if (held !== undefined) return executeAs(held, entry);
  const identity = { ovSessionId: entry.sessionId, hostSessionId: '', workspace: '' };
  const outcome = await withSessionWriter(env, identity, run.lockWaitMs ?? 2_000, (writer) => executeAs(writer, entry));
  if (outcome.ok) return outcome.value;
  return {
    verdict: 'wait',
    error: outcome.reason === 'busy' ? 'session writer busy' : (outcome.message ?? 'lock error'),
  };
}

async function executeAs(writer: SessionWriter, entry: QueueEntry): Promise<ReplayVerdict> {
  const held = writer.env.holdReason?.(writer.state);
  // Kept unsent and uncounted while its session or folder is off (DESIGN D25); the TTL still bounds its wait.
  if (held !== undefined) return { verdict: 'wait', error: `held here: ${held}` };
  await recoverEnqueueIntent(writer);
  const verdict = entry.type === 'commit' ? await replayCommit(writer, entry) : await replayMessages(writer, entry);
  await writer.save();
  return verdict;
}

/** Nobody refused the write (no answer, transient status, local trouble): keep it uncounted and end the run. */
const HALT = (error: string): ReplayVerdict => ({ verdict: 'wait', error, haltRun: true });

/** What the server's answer means for the queued write: refused (counts), transient (waits), or never sendable. */
function failureVerdict(failure: OvFailure): ReplayVerdict {
  const error = `${failure.code}: ${failure.message}`;
  if (failure.retryable) return HALT(error);
  if (failure.status >= 400 && failure.status < 500) return { verdict: 'retry', error };
  return { verdict: 'fatal', error };
}

async function replayMessages(writer: SessionWriter, entry: QueueEntry): Promise<ReplayVerdict> {
  const messages = messagesOf(entry.payload);
  if (messages === undefined) return { verdict: 'fatal', error: 'queued addMessages payload has no messages array' };
  if (writer.state.inflight?.fingerprint === entry.dedupKey) {
    // This very batch was sent before and its outcome is unknown: ask before resending.
    const resolution = await resolveInflight(writer);
    if (resolution?.kind === 'unknown') return HALT(resolution.failure.message);
    writer.state.inflight = undefined;
    if (resolution?.kind === 'applied') {
      recordReplayed(writer.state, messages.length);
      return 'done';
    }
  } else {
    const blocked = await earlierBatchBlocks(writer);
    if (blocked !== undefined) return blocked;
  }
  const delivery = await deliverBatch(writer, messages, { fingerprint: entry.dedupKey, recordIds: [], queued: true });
  switch (delivery.kind) {
    case 'applied':
      recordReplayed(writer.state, messages.length);
      return 'done';
    case 'route-missing':
      writer.state.serialOnly = true;
      // A single message can go the serial way on the next attempt; a batch cannot be split safely.
      return messages.length === 1
        ? 'retry'
        : { verdict: 'fatal', error: 'the server has no batch route; resend these messages one by one' };
    case 'local-error':
      return HALT('capture state not writable (or the capture lock was lost)');
    case 'failed':
      if (delivery.ambiguous) return HALT(`${delivery.failure.code}: ${delivery.failure.message}`);
      return failureVerdict(delivery.failure);
  }
}

async function replayCommit(writer: SessionWriter, entry: QueueEntry): Promise<ReplayVerdict> {
  const blocked = await earlierBatchBlocks(writer);
  if (blocked !== undefined) return blocked;
  const body: CommitBody = isRecord(entry.payload) ? (entry.payload as CommitBody) : {};
  if (!(await writer.heartbeat())) return HALT('capture lock lost');
  const result = await writer.env.client.commit(entry.sessionId, body);
  if (result.ok) {
    await commitTaken(writer, body, result.result);
    return 'done';
  }
  if (result.status === 404) return 'done'; // the session never reached the server: nothing to archive
  return failureVerdict(result);
}

/** Another batch of the session whose outcome is unknown must be settled before anything else is sent. */
async function earlierBatchBlocks(writer: SessionWriter): Promise<ReplayVerdict | undefined> {
  const settlement = await settleInflight(writer);
  if (settlement === 'clear') return undefined;
  const error = 'an earlier batch of the session is unresolved';
  return settlement === 'blocked' ? HALT(error) : { verdict: 'wait', error };
}

/**
 * The entry's messages, through the privacy filter once more (DESIGN D17):
 * an entry queued by an older version, with older rules, leaves with
 * today's. Filtering filtered text changes nothing.
 */
function messagesOf(payload: unknown): SessionMessage[] | undefined {
  if (!isRecord(payload) || !Array.isArray(payload.messages) || payload.messages.length === 0) return undefined;
  if (!payload.messages.every((message) => isRecord(message) && Array.isArray(message.parts))) return undefined;
  return (payload.messages as SessionMessage[]).map(
    (message) => sanitizeMessage(message) ?? { ...message, parts: [{ type: 'text', text: '[removed]' }] },
  );
}
