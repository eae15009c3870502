/**
 * The capture state of one OpenViking session: where in the transcript
 * capture stands, what is in flight, and the counters that the start stage,
 * doctor and the status line read.
 *
 * One file per OpenViking session (main or sub-agent), written only by the
 * holder of that session's capture lock (session/locks.ts), always
 * atomically, so a reader needs no lock and a SIGKILL never leaves half a
 * file (paths.ts says where).
 *
 * @module
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../util/json.js';
import { loadSessionState, saveSessionState } from '../store/sessionState.js';
import type { StoreWriteResult } from '../store/sessionState.js';
import { RECORD_FINGERPRINT_CHARS, recordFingerprint } from '../transcript/fingerprint.js';
import type { TranscriptCursor, TranscriptFormat } from '../transcript/index.js';
import { captureDir, captureStateFile } from './paths.js';

/** Fingerprints of acknowledged records kept (8 characters each: 160 KB at most, ~8 KB per 1,000 messages). */
export const ACKED_LIMIT = 20_000;

/** The session's size before a send: `message_count` (live) and, when the server tells, `total_message_count`. */
export interface ServerCount {
  live: number;
  total?: number;
}

/**
 * Write-ahead record of one send whose outcome is not known yet (see
 * inflight.ts). Present from just before the request until its result is
 * recorded; a run that finds it asks the server whether the count moved.
 */
export interface Inflight {
  /** `dedupKeyOf('addMessages', session, {messages})`: equals the queue entry's key when the batch is queued. */
  fingerprint: string;
  /** Transcript record ids of the batch (empty for a replayed queue entry). */
  recordIds: string[];
  before: ServerCount;
  /** True once the batch also waits in the pending queue: then only replay of that entry resolves it. */
  queued: boolean;
  startedAt: number;
  /**
   * When this writer gave up waiting for the answer (a timeout, a reset, a
   * cut): the request certainly reached the wire by then, however long the
   * write-ahead save and the connect took after `startedAt`.
   */
  gaveUpAt?: number;
  /**
   * No answer came (yet): the server may still store the request for a while.
   * Written true before the send, so a process killed mid-request leaves it
   * so; cleared by an answer or a refused connection (send.ts).
   */
  unanswered?: boolean;
  /** The id of the server and identity it was sent to (writeTarget.ts): only that one can say what became of it (D33). */
  target?: string;
}

/**
 * Write-ahead record of one batch being handed to the pending queue: saved
 * before the queue file is written and cleared with the acknowledgement, so
 * a crash in between is repaired (recover.ts) instead of queueing twice.
 */
export interface EnqueueIntent {
  fingerprint: string;
  recordIds: string[];
}

export interface CaptureCounts {
  /** Messages the server acknowledged (directly or by replay). */
  sent: number;
  /** Messages handed to the pending queue. */
  queued: number;
  /** Messages moved to the dead-letter folder. */
  deadLettered: number;
  /** Decoded messages skipped (empty after privacy, assistant turns off). */
  skipped: number;
  /** Commits the server accepted or skipped. */
  commits: number;
}

/** Whose a capture state, an inbox request and an index entry are: declared once, copied by `sessionIdentityOf`. */
export interface SessionIdentity {
  ovSessionId: string;
  /** The host's session id ('' when unknown, e.g. a session only met in the queue). */
  hostSessionId: string;
  workspace: string;
  /** Set for a sub-agent's own session. */
  agentId?: string;
}

export interface CaptureState extends SessionIdentity {
  transcriptPath?: string;
  format?: TranscriptFormat;
  cursor?: TranscriptCursor;
  /** Record id of the last acknowledged message (skips the acknowledged prefix after a rescan). */
  lastAckedRecordId?: string;
  /**
   * `recordFingerprint` of every acknowledged record, concatenated, oldest
   * first, the newest ACKED_LIMIT kept: whatever happens to the file
   * (rewound, rewritten, replaced), an acknowledged message is never re-sent.
   */
  acked: string;
  inflight?: Inflight;
  enqueueIntent?: EnqueueIntent;
  /** Base names of this session's entries in the pending queue (pruned when they are gone). */
  queued: string[];
  /** The batch route answered 404/405 once: send one message per request. */
  serialOnly?: boolean;
  lastCaptureAt?: number;
  lastCommitAt?: number;
  /** Messages acknowledged since the last commit. */
  capturedSinceCommit: number;
  counts: CaptureCounts;
  lastError?: string;
}

const COUNT_KEYS = ['sent', 'queued', 'deadLettered', 'skipped', 'commits'] as const;

/** The identity fields of `from`, nothing else (`agentId` only when set). */
export function sessionIdentityOf(from: SessionIdentity): SessionIdentity {
  const { ovSessionId, hostSessionId, workspace, agentId } = from;
  return agentId === undefined
    ? { ovSessionId, hostSessionId, workspace }
    : { ovSessionId, hostSessionId, workspace, agentId };
}

/**
 * What of a session is not archived on the server yet: the one model of
 * "this session still has work" that the pass (a full commit is due), the
 * writer's index entry (it may go), commit-stale (commit it) and retention
 * (it may be compacted or removed) read.
 * - `uncommitted`: the server acknowledged messages since the last commit it took;
 * - `inTransit`: messages are queued, in flight, or being queued.
 */
export function workLeft(state: Pick<CaptureState, 'capturedSinceCommit' | 'queued' | 'inflight' | 'enqueueIntent'>): {
  uncommitted: boolean;
  inTransit: boolean;
} {
  return {
    uncommitted: state.capturedSinceCommit > 0,
    inTransit: state.queued.length > 0 || state.inflight !== undefined || state.enqueueIntent !== undefined,
  };
}

/** Something captured is not archived yet (see `workLeft`). */
export function hasWorkLeft(state: Parameters<typeof workLeft>[0]): boolean {
  const left = workLeft(state);
  return left.uncommitted || left.inTransit;
}

export function emptyCaptureState(identity: SessionIdentity): CaptureState {
  return {
    ...sessionIdentityOf(identity),
    acked: '',
    queued: [],
    capturedSinceCommit: 0,
    counts: { sent: 0, queued: 0, deadLettered: 0, skipped: 0, commits: 0 },
  };
}

/** Reads a session's capture state; undefined when missing or unusable. Never throws. */
export async function loadCaptureState(dataDir: string, ovSessionId: string): Promise<CaptureState | undefined> {
  const loaded = await loadSessionState(captureStateFile(dataDir, ovSessionId), narrowCaptureState);
  return loaded.status === 'found' ? loaded.state : undefined;
}

/** Atomic write; only the capture-lock holder calls it. Never throws. */
export function saveCaptureState(dataDir: string, state: CaptureState): Promise<StoreWriteResult> {
  return saveSessionState(captureStateFile(dataDir, state.ovSessionId), state);
}

/** Every readable capture state of the data directory (for commit-stale, doctor, the status line). Never throws. */
export async function listCaptureStates(dataDir: string): Promise<CaptureState[]> {
  let names: string[];
  try {
    names = await readdir(captureDir(dataDir));
  } catch {
    return []; // no capture yet
  }
  const states: CaptureState[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.json')).sort()) {
    const loaded = await loadSessionState(join(captureDir(dataDir), name), narrowCaptureState);
    if (loaded.status === 'found') states.push(loaded.state);
  }
  return states;
}

/** The validator of the stored fields: lenient on optional ones, strict on what capture relies on. */
export function narrowCaptureState(fields: Readonly<Record<string, unknown>>): CaptureState | undefined {
  const { ovSessionId, hostSessionId, workspace } = fields;
  if (typeof ovSessionId !== 'string' || ovSessionId === '') return undefined;
  if (typeof hostSessionId !== 'string' || typeof workspace !== 'string') return undefined;
  const state = emptyCaptureState({ ovSessionId, hostSessionId, workspace });
  state.acked = ackedFrom(fields);
  state.queued = stringList(fields.queued);
  state.capturedSinceCommit = count(fields.capturedSinceCommit);
  const counts = isRecord(fields.counts) ? fields.counts : {};
  for (const key of COUNT_KEYS) state.counts[key] = count(counts[key]);
  copyString(fields, state, 'agentId');
  copyString(fields, state, 'transcriptPath');
  copyString(fields, state, 'lastAckedRecordId');
  copyString(fields, state, 'lastError');
  if (fields.format === 'codebuddy' || fields.format === 'claude-code') state.format = fields.format;
  if (fields.serialOnly === true) state.serialOnly = true;
  if (typeof fields.lastCaptureAt === 'number') state.lastCaptureAt = fields.lastCaptureAt;
  if (typeof fields.lastCommitAt === 'number') state.lastCommitAt = fields.lastCommitAt;
  const cursor = narrowCursor(fields.cursor);
  if (cursor !== undefined) state.cursor = cursor;
  const inflight = narrowInflight(fields.inflight);
  if (inflight !== undefined) state.inflight = inflight;
  if (isRecord(fields.enqueueIntent) && typeof fields.enqueueIntent.fingerprint === 'string') {
    state.enqueueIntent = {
      fingerprint: fields.enqueueIntent.fingerprint,
      recordIds: stringList(fields.enqueueIntent.recordIds),
    };
  }
  return state;
}

/** The stored fingerprints, or those of a state from before them (`recentIds`: the newest 1,000 record ids). */
function ackedFrom(fields: Readonly<Record<string, unknown>>): string {
  const { acked } = fields;
  if (typeof acked === 'string' && acked.length % RECORD_FINGERPRINT_CHARS === 0)
    return acked.slice(-ACKED_LIMIT * RECORD_FINGERPRINT_CHARS);
  return stringList(fields.recentIds).map(recordFingerprint).join('');
}

function narrowCursor(value: unknown): TranscriptCursor | undefined {
  if (!isRecord(value)) return undefined;
  const { path, fileId, size, offset, lastLineStart, lastLineHash, lastRecordId } = value;
  if (typeof path !== 'string' || typeof fileId !== 'string' || typeof lastLineHash !== 'string') return undefined;
  if (!isCount(size) || !isCount(offset) || !isCount(lastLineStart)) return undefined;
  const cursor: TranscriptCursor = { path, fileId, size, offset, lastLineStart, lastLineHash };
  if (typeof lastRecordId === 'string') cursor.lastRecordId = lastRecordId;
  return cursor;
}

function narrowInflight(value: unknown): Inflight | undefined {
  if (!isRecord(value) || typeof value.fingerprint !== 'string' || !isRecord(value.before)) return undefined;
  const { live, total } = value.before;
  if (!isCount(live)) return undefined;
  const before: ServerCount = { live };
  if (isCount(total)) before.total = total;
  return {
    fingerprint: value.fingerprint,
    recordIds: stringList(value.recordIds),
    before,
    queued: value.queued === true,
    startedAt: typeof value.startedAt === 'number' ? value.startedAt : 0,
    ...(typeof value.gaveUpAt === 'number' ? { gaveUpAt: value.gaveUpAt } : {}),
    ...(value.unanswered === true ? { unanswered: true } : {}),
    ...(typeof value.target === 'string' ? { target: value.target } : {}),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function count(value: unknown): number {
  return isCount(value) ? value : 0;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

type OptionalStringKey = 'agentId' | 'transcriptPath' | 'lastAckedRecordId' | 'lastError';

function copyString(from: Readonly<Record<string, unknown>>, to: CaptureState, key: OptionalStringKey): void {
  const value = from[key];
  if (typeof value === 'string') to[key] = value;
}
