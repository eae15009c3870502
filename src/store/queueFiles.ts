/**
 * The pending-write queue's on-disk vocabulary: entry shape, file names,
 * the dedupe key, and the checks that turn a file back into an entry.
 * Shared by enqueue/stats (queue.ts) and replay (queueReplay.ts).
 *
 * Names sort by (createdAt, seq) so a directory listing is the replay
 * order without opening any file:
 *
 * - pending:  `pending/<createdAt:15>-<seq:6>-<key:32>.json`
 * - claimed:  the same name ending `.processing` (renamed by a replayer)
 * - dead:     `dead/<deadAt:15>-<original name>.json` → `DeadLetter`
 *
 * `<key>` is the first 32 hex digits of the dedupe key, sha256 of
 * `type \n sessionId \n stableStringify(payload)`.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../util/errors.js';

export const QUEUE_ENTRY_TYPES = ['addMessages', 'commit'] as const;
export type QueueEntryType = (typeof QUEUE_ENTRY_TYPES)[number];

/**
 * The server and identity a write belongs to (capture/writeTarget.ts, D33):
 * an opaque `id` (server, account, user and key hashed; never the key), and
 * what may be shown (the server without user info, account, user).
 */
export interface QueueTarget {
  id: string;
  server: string;
  account?: string;
  user?: string;
}

/**
 * One deferred write. `payload` is the request body to re-send (messages or
 * commit options) and never holds a URL or credentials: replay uses the
 * replaying process's own configuration, and only while it names the
 * entry's `target` (D33; an entry queued before targets existed has none
 * and goes to the configured server).
 */
export interface QueueEntry {
  type: QueueEntryType;
  sessionId: string;
  payload: unknown;
  /** Where it goes, and nowhere else. */
  target?: QueueTarget;
  /** ms since epoch; with `seq`, the replay order. */
  createdAt: number;
  /** Orders entries created in the same millisecond (e.g. the chunks of one batch). */
  seq: number;
  /** Replay attempts the server refused so far (a server that did not answer never counts). */
  attempts: number;
  /** Set when a dead letter was put back by hand (`hook.mjs requeue-dead`): the TTL counts from here. */
  requeuedAt?: number;
  /** Last failure, with URLs and bearer tokens removed. */
  lastError?: string;
  dedupKey: string;
}

export type DeadLetterReason = 'expired' | 'max-attempts' | 'fatal' | 'corrupt';

/** What the dead-letter folder holds: why, when, and everything needed to re-send by hand. */
export interface DeadLetter {
  reason: DeadLetterReason;
  deadAt: number;
  /** The pending file name the entry had. */
  file: string;
  error?: string;
  /** The entry as last stored (absent only for `corrupt`, which keeps `raw`). */
  entry?: QueueEntry;
  raw?: string;
}

export const PENDING_SUFFIX = '.json';
export const CLAIMED_SUFFIX = '.processing';
const TIME_DIGITS = 15;
const SEQ_DIGITS = 6;
export const MAX_SEQ = 10 ** SEQ_DIGITS - 1;
const KEY_CHARS = 32;

export interface QueuePaths {
  pendingDir: string;
  deadDir: string;
  enqueueLock: string;
  replayLock: string;
}

export function queuePaths(queueDir: string): QueuePaths {
  return {
    pendingDir: join(queueDir, 'pending'),
    deadDir: join(queueDir, 'dead'),
    enqueueLock: join(queueDir, 'enqueue.lock'),
    replayLock: join(queueDir, 'replay.lock'),
  };
}

/** JSON with object keys sorted at every depth, so equal payloads hash alike. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}

/**
 * sha256 hex of type, session, payload and (when there is one) the target's
 * id: the same write for another server is another entry, never collapsed
 * into this one. Throws on payloads JSON cannot encode.
 */
export function dedupKeyOf(type: QueueEntryType, sessionId: string, payload: unknown, targetId?: string): string {
  const target = targetId === undefined ? '' : `\n${targetId}`;
  return createHash('sha256')
    .update(`${type}\n${sessionId}\n${stableStringify(payload)}${target}`, 'utf8')
    .digest('hex');
}

/** The part of the dedupe key that appears in file names. */
export function keyPrefixOf(dedupKey: string): string {
  return dedupKey.slice(0, KEY_CHARS);
}

/** The pending file's base name (no suffix). */
export function entryBaseName(entry: Pick<QueueEntry, 'createdAt' | 'seq' | 'dedupKey'>): string {
  return `${pad(entry.createdAt, TIME_DIGITS)}-${pad(entry.seq, SEQ_DIGITS)}-${keyPrefixOf(entry.dedupKey)}`;
}

export function deadLetterName(deadAt: number, originalBase: string): string {
  return `${pad(deadAt, TIME_DIGITS)}-${originalBase}${PENDING_SUFFIX}`;
}

function pad(value: number, digits: number): string {
  return String(Math.max(0, Math.trunc(value))).padStart(digits, '0');
}

/** Parsed pieces of a pending/claimed file name, or undefined for foreign files. */
export function parseEntryName(
  name: string,
): { base: string; createdAt: number; keyPrefix: string; claimed: boolean } | undefined {
  const claimed = name.endsWith(CLAIMED_SUFFIX);
  if (!claimed && !name.endsWith(PENDING_SUFFIX)) return undefined;
  const base = name.slice(0, -(claimed ? CLAIMED_SUFFIX : PENDING_SUFFIX).length);
  const match = /^(\d{15})-(\d{6})-([0-9a-f]{32})$/.exec(base);
  if (!match) return undefined;
  return { base, createdAt: Number(match[1]), keyPrefix: match[3] as string, claimed };
}

/** The leading timestamp of a dead-letter name, or undefined. */
export function parseDeadAt(name: string): number | undefined {
  const match = /^(\d{15})-.*\.json$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** Narrows a parsed file to an entry; undefined when any field is off. */
export function toQueueEntry(value: unknown): QueueEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const validType = typeof v.type === 'string' && (QUEUE_ENTRY_TYPES as readonly string[]).includes(v.type);
  if (!validType || typeof v.sessionId !== 'string' || typeof v.dedupKey !== 'string' || !('payload' in v))
    return undefined;
  if (!isCount(v.createdAt) || !isCount(v.seq) || !isCount(v.attempts)) return undefined;
  if (v.lastError !== undefined && typeof v.lastError !== 'string') return undefined;
  if (v.requeuedAt !== undefined && !isCount(v.requeuedAt)) return undefined;
  if (v.target !== undefined && !isQueueTarget(v.target)) return undefined;
  return v as unknown as QueueEntry;
}

function isQueueTarget(value: unknown): value is QueueTarget {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t.id === 'string' &&
    typeof t.server === 'string' &&
    (t.account === undefined || typeof t.account === 'string') &&
    (t.user === undefined || typeof t.user === 'string')
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

const MAX_ERROR_CHARS = 500;

/** Keeps failure text free of URLs and bearer tokens, and short. */
export function redactError(message: string): string {
  return message
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, '<url>')
    .replace(/\b(bearer)\s+\S+/gi, '$1 <redacted>')
    .slice(0, MAX_ERROR_CHARS);
}

/** Directory entries; a missing directory is empty. */
export async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
}
