/**
 * The pending-write queue: OpenViking writes (`addMessages`, `commit`) that
 * failed with a retryable error wait here, one file per entry, until a
 * later hook replays them (queueReplay.ts). Machine-local, shared by every
 * session and process of this plugin.
 *
 * Improves on the reference design (openviking-api.md §6.1): order is kept
 * per session by (createdAt, seq) in the file name; an entry is never
 * silently dropped: expiry, too many attempts, a non-retryable error or an
 * unreadable file moves it to `dead/` with the reason.
 *
 * Dedupe: the same (type, session, payload) enqueued while a copy is still
 * pending or claimed collapses into that copy. Enqueuers serialize on a short
 * lock for the check-then-write; if that lock cannot be had in time, the
 * write still happens (a possible duplicate beats a lost write).
 *
 * @module
 */
import { join } from 'node:path';
import { writeJsonAtomic } from './atomic.js';
import { errorMessage } from '../util/errors.js';
import { withLock } from './lock.js';
import {
  dedupKeyOf,
  entryBaseName,
  keyPrefixOf,
  listDir,
  MAX_SEQ,
  parseDeadAt,
  parseEntryName,
  PENDING_SUFFIX,
  queuePaths,
} from './queueFiles.js';
import type { QueueEntry, QueueEntryType, QueueTarget } from './queueFiles.js';

export { replay } from './queueReplay.js';
export type { ReplayOptions, ReplaySummary, ReplayVerdict } from './queueReplay.js';
export { queuePaths, redactError, stableStringify } from './queueFiles.js';
export type {
  DeadLetter,
  DeadLetterReason,
  QueueEntry,
  QueueEntryType,
  QueuePaths,
  QueueTarget,
} from './queueFiles.js';

/** What a caller hands to `enqueue`; attempts start at 0. */
export interface NewQueueEntry {
  type: QueueEntryType;
  sessionId: string;
  /** The request body to re-send; must be JSON. No URL, no credentials. */
  payload: unknown;
  createdAt: number;
  /** Order inside one millisecond, 0..999999 (default 0). */
  seq?: number;
  /** The server and identity it belongs to (D33). */
  target?: QueueTarget;
}

export interface EnqueueOptions {
  now(): number;
  /** How long to wait for the dedupe lock before writing without it. */
  lockTimeoutMs: number;
}

export type EnqueueResult = { ok: true; deduped: boolean; file: string } | { ok: false; message: string };

/** Upper bound on how long an enqueuer may sit in the dedupe lock. */
export const ENQUEUE_LOCK_STALE_MS = 30_000;

/** Adds one entry; never throws. `deduped` means an identical entry was already waiting. */
export async function enqueue(queueDir: string, input: NewQueueEntry, options: EnqueueOptions): Promise<EnqueueResult> {
  const seq = input.seq ?? 0;
  if (
    !Number.isSafeInteger(input.createdAt) ||
    input.createdAt < 0 ||
    !Number.isInteger(seq) ||
    seq < 0 ||
    seq > MAX_SEQ
  ) {
    return { ok: false, message: `invalid createdAt/seq: ${input.createdAt}/${seq}` };
  }
  let entry: QueueEntry;
  try {
    const dedupKey = dedupKeyOf(input.type, input.sessionId, input.payload, input.target?.id);
    entry = {
      type: input.type,
      sessionId: input.sessionId,
      payload: input.payload,
      ...(input.target !== undefined ? { target: input.target } : {}),
      createdAt: input.createdAt,
      seq,
      attempts: 0,
      dedupKey,
    };
  } catch (error) {
    return { ok: false, message: `payload is not JSON: ${errorMessage(error)}` };
  }
  const paths = queuePaths(queueDir);
  const write = () => writeUnlessQueued(paths.pendingDir, entry);
  try {
    const lockOptions = { now: options.now, timeoutMs: options.lockTimeoutMs, staleMs: ENQUEUE_LOCK_STALE_MS };
    const locked = await withLock(paths.enqueueLock, lockOptions, write);
    return locked.ok ? locked.value : await write();
  } catch (error) {
    return { ok: false, message: errorMessage(error) };
  }
}

/** Writes `entry` under its own name unless an entry with its dedupe key waits (call under the enqueue lock). */
export async function writeUnlessQueued(pendingDir: string, entry: QueueEntry): Promise<EnqueueResult> {
  const keyPrefix = keyPrefixOf(entry.dedupKey);
  const existing = (await listDir(pendingDir)).find((name) => parseEntryName(name)?.keyPrefix === keyPrefix);
  if (existing !== undefined) return { ok: true, deduped: true, file: join(pendingDir, existing) };
  const file = join(pendingDir, `${entryBaseName(entry)}${PENDING_SUFFIX}`);
  await writeJsonAtomic(file, entry);
  return { ok: true, deduped: false, file };
}

export interface QueueStats {
  /** Waiting entries, and the age of the oldest by its `createdAt`. */
  pending: { count: number; oldestAgeMs?: number };
  /** Entries a replayer holds right now (or left behind when it died). */
  claimed: { count: number; oldestAgeMs?: number };
  /** Dead letters, and the age of the oldest by when it died. */
  dead: { count: number; oldestAgeMs?: number };
}

/** Counts from file names alone (no file is opened); for doctor. Throws only on unreadable directories. */
export async function queueStats(queueDir: string, now: number): Promise<QueueStats> {
  const paths = queuePaths(queueDir);
  const pending: number[] = [];
  const claimed: number[] = [];
  for (const name of await listDir(paths.pendingDir)) {
    const parsed = parseEntryName(name);
    if (parsed) (parsed.claimed ? claimed : pending).push(parsed.createdAt);
  }
  const dead = (await listDir(paths.deadDir)).map(parseDeadAt).filter((at): at is number => at !== undefined);
  return { pending: ageSummary(pending, now), claimed: ageSummary(claimed, now), dead: ageSummary(dead, now) };
}

function ageSummary(times: number[], now: number): { count: number; oldestAgeMs?: number } {
  if (times.length === 0) return { count: 0 };
  const oldest = times.reduce((a, b) => Math.min(a, b));
  return { count: times.length, oldestAgeMs: Math.max(0, now - oldest) };
}
