/**
 * One capture pass for one OpenViking session, run by its writer: settle
 * what a previous run left in flight, read what the transcript gained since
 * the cursor, decode and filter it (plan.ts), send it in batches (send.ts),
 * queue or dead-letter what cannot be sent, move the cursor over the
 * acknowledged prefix after every batch, and commit when asked or when the
 * server's pending tokens passed the threshold.
 *
 * Order within a session holds because a session with queued writes queues
 * every later batch (and commit) behind them; the pass first tries to
 * replay them, so a server that came back drains the backlog at the next
 * turn.
 *
 * @module
 */
import type { CommitBody } from '../openviking/types.js';
import { cursorAfterRecords, decodeTranscriptRecords, readTranscriptTail } from '../transcript/index.js';
import type { TranscriptCursor } from '../transcript/index.js';
import { acknowledge, ackedSet } from './ack.js';
import { hasWorkLeft } from './state.js';
import { commitSession } from './commit.js';
import type { CommitOutcome } from './commit.js';
import { MAX_BATCH, nextBatch, planItems, resumeRecordIndex } from './plan.js';
import type { Batch } from './plan.js';
import { batchFingerprint, deadLetterWrite, hasQueuedWrites, queueWrite } from './queueing.js';
import { replayPendingWrites } from './replay.js';
import { deliverBatch } from './send.js';
import { fetchSessionCount } from './inflight.js';
import { recoverEnqueueIntent } from './recover.js';
import { settleInflight } from './settle.js';
import { awaitTranscriptFile } from './awaitTranscript.js';
import type { SessionIdentity } from './state.js';
import type { SessionWriter } from './writer.js';

/** What a pass is asked to do; built from hook requests (requests.ts). */
export interface CaptureJob {
  identity: SessionIdentity;
  transcriptPath: string;
  /** A sub-agent's own transcript (Claude Code marks all its records as sidechain). */
  subagent: boolean;
  /** Archive everything after capturing (PreCompact, SessionEnd, SubagentStop, commit-stale). */
  commit: boolean;
  /** SubagentStop asked: the sub-agent's file may not exist yet on Claude Code (awaitTranscript.ts). */
  subagentEnded?: boolean;
  /** The project's peer id (DESIGN D24), put on every message as `peer_id`. */
  peerId?: string;
  /** The session carries the server's own commit policy (serverPolicy.ts): the server makes the threshold commits. */
  serverCommits?: boolean;
}

/**
 * - `complete`: everything in the transcript is acknowledged (sent, queued or
 *   dead-lettered) and the commit, if any, was handled.
 * - `partial`: stopped early (deadline, disk); the cursor covers what was done.
 * - `blocked`: an earlier batch's outcome is unknown and the server cannot be asked.
 */
export type PassStatus = 'complete' | 'partial' | 'blocked';

export interface PassResult {
  status: PassStatus;
  sent: number;
  queued: number;
  deadLettered: number;
  commit?: CommitOutcome;
}

/** Replay inside a pass may take this long at most. */
const PASS_REPLAY_BUDGET_MS = 30_000;

export async function capturePass(writer: SessionWriter, job: CaptureJob): Promise<PassResult> {
  const result: PassResult = { status: 'complete', sent: 0, queued: 0, deadLettered: 0 };
  await recoverEnqueueIntent(writer);
  // The backlog first: replaying it also resolves a queued batch's inflight record.
  const backlog = await drainOwnBacklog(writer);
  const settlement = await settleInflight(writer);
  if (settlement === 'blocked') return { ...result, status: 'blocked' };
  const tail = await planTail(writer, job);
  if (tail === undefined) return result; // nothing to capture (SubagentStart's file does not exist yet)
  const pendingTokens = await deliverTail(writer, tail, backlog || settlement === 'queued', result);
  if (result.status === 'complete') result.commit = await commitIfDue(writer, job, pendingTokens);
  await writer.save();
  return result;
}

/** What the transcript gained since the cursor, planned into messages, and how to move the cursor over a prefix of them. */
interface PlannedTail {
  items: ReturnType<typeof planItems>;
  /** Puts the cursor after the records of the first `ackedEnd` items. */
  moveCursor(ackedEnd: number): void;
}

/** Reads, decodes and filters what the transcript gained (plan.ts); undefined when it cannot be read. */
async function planTail(writer: SessionWriter, job: CaptureJob): Promise<PlannedTail | undefined> {
  const { state, env } = writer;
  if (job.subagentEnded === true && !(await awaitTranscriptFile(job.transcriptPath, env))) {
    env.log.warn('sub-agent transcript never appeared', { session: writer.ovSessionId });
  }
  const read = await readTranscriptTail(job.transcriptPath, cursorFor(state.cursor, job.transcriptPath));
  if (read.error !== undefined) {
    env.log.debug('transcript not readable', { session: writer.ovSessionId, error: read.error });
    return undefined;
  }
  const rescanned = read.rescanned || (state.cursor !== undefined && state.cursor.path !== job.transcriptPath);
  state.transcriptPath = job.transcriptPath;
  const decoded = decodeTranscriptRecords(read.records, {
    ...(state.format ? { format: state.format } : {}),
    includeSidechain: job.subagent,
  });
  if (decoded.format !== undefined) state.format = decoded.format;
  const items = planItems(decoded.messages, {
    captureAssistantTurns: env.settings.captureAssistantTurns,
    privacy: { maxToolOutputChars: env.settings.captureToolMaxChars },
    acked: ackedSet(state),
    ...(job.peerId !== undefined ? { peerId: job.peerId } : {}),
    ...(rescanned && state.lastAckedRecordId !== undefined ? { skipThrough: state.lastAckedRecordId } : {}),
  });
  state.counts.skipped += items.filter((item) => item.skip === 'empty' || item.skip === 'assistant-off').length;
  const recordIds = read.spans.map((span) => span.id);
  return {
    items,
    moveCursor: (ackedEnd) => {
      state.cursor = cursorAfterRecords(read, resumeRecordIndex(items, ackedEnd, recordIds, decoded.consumed));
    },
  };
}

/**
 * Sends the planned items batch by batch (queues them once anything is
 * queued, `queueMode`), saving the cursor after each; counts into `result`
 * and marks it partial when it stops early. The server's pending tokens as
 * last reported.
 */
async function deliverTail(
  writer: SessionWriter,
  tail: PlannedTail,
  queueMode: boolean,
  result: PassResult,
): Promise<number | undefined> {
  const { state, env } = writer;
  let pendingTokens: number | undefined;
  for (let from = 0; ;) {
    const batch = nextBatch(tail.items, from, state.serialOnly ? 1 : MAX_BATCH);
    if (batch === undefined) {
      tail.moveCursor(tail.items.length);
      return pendingTokens;
    }
    if (env.now() >= env.deadlineAt) break;
    const step = queueMode
      ? await queueBatch(writer, batch, batchFingerprint(writer.ovSessionId, { messages: batch.messages }))
      : await sendBatch(writer, batch);
    if (step.kind === 'retry-serial') continue;
    if (step.kind === 'stop') break;
    if (step.kind === 'queued') queueMode = true;
    if (step.pendingTokens !== undefined) pendingTokens = step.pendingTokens;
    result[step.kind === 'sent' ? 'sent' : step.kind === 'queued' ? 'queued' : 'deadLettered'] += batch.messages.length;
    from = batch.end;
    tail.moveCursor(from);
    await writer.save();
    // The lock lost: the writer that took it goes on from the saved state.
    if (!(await writer.heartbeat())) break;
  }
  result.status = 'partial';
  return pendingTokens;
}

/**
 * Replays the session's queued writes first; true when some still wait (new
 * batches then queue behind). Only when the server answers a probe: every
 * replay failure costs a queued entry one of its few attempts, and an outage
 * spanning several turns must not use them all up.
 */
async function drainOwnBacklog(writer: SessionWriter): Promise<boolean> {
  if (!(await hasQueuedWrites(writer))) return false;
  const probe = await fetchSessionCount(writer);
  if (!probe.ok) return true;
  writer.count = probe.result.count;
  const { env } = writer;
  const budgetMs = Math.max(0, Math.min(PASS_REPLAY_BUDGET_MS, env.deadlineAt - env.now()));
  const summary = await replayPendingWrites(env, {
    budgetMs,
    limit: Math.max(env.settings.pendingReplayLimit, MAX_BATCH),
    held: new Map([[writer.ovSessionId, writer]]),
  });
  env.log.debug('capture replayed the queue', {
    session: writer.ovSessionId,
    replayed: summary.replayed,
    remaining: summary.remaining,
  });
  return (await hasQueuedWrites(writer)) || writer.state.inflight?.queued === true;
}

type Step =
  { kind: 'sent' | 'queued' | 'deadLettered'; pendingTokens?: number } | { kind: 'retry-serial' } | { kind: 'stop' };

async function sendBatch(writer: SessionWriter, batch: Batch): Promise<Step> {
  const payload = { messages: batch.messages };
  const fingerprint = batchFingerprint(writer.ovSessionId, payload);
  const now = writer.env.now;
  const delivery = await deliverBatch(writer, batch.messages, {
    fingerprint,
    recordIds: batch.recordIds,
    queued: false,
  });
  switch (delivery.kind) {
    case 'applied':
      acknowledge(writer.state, batch.recordIds, 'sent', now());
      return delivery.pendingTokens === undefined
        ? { kind: 'sent' }
        : { kind: 'sent', pendingTokens: delivery.pendingTokens };
    case 'route-missing':
      writer.state.serialOnly = true;
      return { kind: 'retry-serial' };
    case 'local-error':
      return { kind: 'stop' };
    case 'failed': {
      const reason = `${delivery.failure.code}: ${delivery.failure.message}`;
      writer.state.lastError = reason;
      if (delivery.ambiguous || delivery.failure.retryable) return queueBatch(writer, batch, fingerprint);
      if (!(await deadLetterWrite(writer, 'addMessages', payload, reason))) return { kind: 'stop' };
      acknowledge(writer.state, batch.recordIds, 'deadLettered', now());
      return { kind: 'deadLettered' };
    }
  }
}

/**
 * Hands a batch to the pending queue under an enqueue intent (recover.ts).
 * An ambiguous batch keeps its inflight record, which from now on belongs to
 * the queued entry: replay of this very entry resolves it.
 */
async function queueBatch(writer: SessionWriter, batch: Batch, fingerprint: string): Promise<Step> {
  const { state } = writer;
  state.enqueueIntent = { fingerprint, recordIds: batch.recordIds };
  if (!(await writer.save()) || !(await queueWrite(writer, 'addMessages', { messages: batch.messages }))) {
    state.enqueueIntent = undefined;
    return { kind: 'stop' };
  }
  writer.env.crashPoint?.('after-enqueue');
  if (state.inflight?.fingerprint === fingerprint) state.inflight.queued = true;
  state.enqueueIntent = undefined;
  acknowledge(state, batch.recordIds, 'queued', writer.env.now());
  return { kind: 'queued' };
}

async function commitIfDue(
  writer: SessionWriter,
  job: CaptureJob,
  pendingTokens: number | undefined,
): Promise<CommitOutcome | undefined> {
  const { settings } = writer.env;
  let body: CommitBody | undefined;
  if (job.commit && hasWorkLeft(writer.state)) body = {};
  else if (job.serverCommits !== true && pendingTokens !== undefined && pendingTokens >= settings.commitTokenThreshold)
    body = { keep_recent_count: settings.commitKeepRecentCount };
  if (body === undefined) return undefined;
  const outcome = await commitSession(writer, body);
  writer.env.log.debug('capture commit', { session: writer.ovSessionId, outcome, full: job.commit });
  return outcome;
}

function cursorFor(cursor: TranscriptCursor | undefined, path: string): TranscriptCursor | undefined {
  return cursor?.path === path ? cursor : undefined;
}
