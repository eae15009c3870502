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
import { cursorAfterRecords } from '../transcript/index.js';
import { acknowledge } from './ack.js';
import { hasWorkLeft } from './state.js';
import { commitSession } from './commit.js';
import type { CommitOutcome } from './commit.js';
import { MAX_BATCH, nextBatch, resumeRecordIndex } from './plan.js';
import type { Batch, PlannedItem } from './plan.js';
import { batchFingerprint, deadLetterWrite, hasQueuedWrites, queueWrite } from './queueing.js';
import { replayPendingWrites } from './replay.js';
import { deliverBatch } from './send.js';
import { fetchSessionCount } from './inflight.js';
import { recoverEnqueueIntent } from './recover.js';
import { settleInflight } from './settle.js';
import { awaitTranscriptFile } from './awaitTranscript.js';
import { planTail, type TailJob } from './tail.js';
import type { SessionIdentity } from './state.js';
import type { SessionWriter } from './writer.js';

/** What a pass is asked to do; built from hook requests (requests.ts), or by an import (DESIGN D35). */
export interface CaptureJob extends TailJob {
  identity: SessionIdentity;
  /** Archive everything after capturing (PreCompact, SessionEnd, SubagentStop, commit-stale, import). */
  commit: boolean;
  /** SubagentStop asked: the sub-agent's file may not exist yet on Claude Code (awaitTranscript.ts). */
  subagentEnded?: boolean;
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
  /** The read stopped at `readLimitBytes` before the end of the file: the next pass goes on (no commit yet). */
  more?: true;
  /** User messages among those sent, queued or dead-lettered (the conversation's turns). */
  turns: number;
  /** Lines of this pass's read that were not JSON objects (corrupt or cut): skipped. */
  skippedLines: number;
  /** Where the cursor stands after the pass (bytes of the file taken care of). */
  cursorOffset?: number;
}

/** Replay inside a pass may take this long at most. */
const PASS_REPLAY_BUDGET_MS = 30_000;

export async function capturePass(writer: SessionWriter, job: CaptureJob): Promise<PassResult> {
  const result: PassResult = { status: 'complete', sent: 0, queued: 0, deadLettered: 0, turns: 0, skippedLines: 0 };
  await recoverEnqueueIntent(writer);
  // The backlog first: replaying it also resolves a queued batch's inflight record.
  const backlog = await drainOwnBacklog(writer);
  const settlement = await settleInflight(writer);
  if (settlement === 'blocked') return { ...result, status: 'blocked' };
  const tail = await readTail(writer, job, result);
  if (tail === undefined) return result; // nothing to capture (SubagentStart's file does not exist yet)
  const pendingTokens = await deliverTail(writer, tail, backlog || settlement === 'queued', result);
  if (result.status === 'complete' && result.more !== true)
    result.commit = await commitIfDue(writer, job, pendingTokens);
  await writer.save();
  if (writer.state.cursor !== undefined) result.cursorOffset = writer.state.cursor.offset;
  return result;
}

/** What the transcript gained since the cursor, planned into messages, and how to move the cursor over a prefix of them. */
interface TailToSend {
  items: PlannedItem[];
  /** Puts the cursor after the records of the first `ackedEnd` items. */
  moveCursor(ackedEnd: number): void;
}

/** Reads and plans what the transcript gained (tail.ts), noting what the read skipped and whether more is left; undefined when it cannot be read. */
async function readTail(writer: SessionWriter, job: CaptureJob, result: PassResult): Promise<TailToSend | undefined> {
  const { state, env } = writer;
  if (job.subagentEnded === true && !(await awaitTranscriptFile(job.transcriptPath, env))) {
    env.log.warn('sub-agent transcript never appeared', { session: writer.ovSessionId });
  }
  const tail = await planTail(state, job, env.settings);
  if ('error' in tail) {
    env.log.debug('transcript not readable', { session: writer.ovSessionId, error: tail.error });
    return undefined;
  }
  const { read, items } = tail;
  result.skippedLines = read.skippedLines;
  if (!read.atEnd) result.more = true;
  state.transcriptPath = job.transcriptPath;
  if (tail.format !== undefined) state.format = tail.format;
  state.counts.skipped += items.filter((item) => item.skip === 'empty' || item.skip === 'assistant-off').length;
  const recordIds = read.spans.map((span) => span.id);
  return {
    items,
    moveCursor: (ackedEnd) => {
      state.cursor = cursorAfterRecords(read, resumeRecordIndex(items, ackedEnd, recordIds, tail.consumed));
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
  tail: TailToSend,
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
      ? await queueBatch(writer, batch, batchFingerprint(writer, { messages: batch.messages }))
      : await sendBatch(writer, batch);
    if (step.kind === 'retry-serial') continue;
    if (step.kind === 'stop') break;
    if (step.kind === 'queued') queueMode = true;
    if (step.pendingTokens !== undefined) pendingTokens = step.pendingTokens;
    result[step.kind === 'sent' ? 'sent' : step.kind === 'queued' ? 'queued' : 'deadLettered'] += batch.messages.length;
    result.turns += batch.messages.filter((message) => message.role === 'user').length;
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
    // Another session's entry whose writer is busy waits for that writer (or the next start), not this pass.
    lockWaitMs: 0,
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
  const fingerprint = batchFingerprint(writer, payload);
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
