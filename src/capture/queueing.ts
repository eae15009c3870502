/**
 * Where capture puts writes it could not complete: the pending queue for
 * retryable failures, the dead-letter folder for the rest. Nothing a turn
 * produced is ever dropped without a file that says why.
 *
 * The session's capture state lists the queue entries it owns, so "does
 * this session still have queued writes?" (then new batches queue behind
 * them, keeping order) costs a few `stat`s instead of reading the queue.
 * Every entry records the server and identity it was captured for
 * (writeTarget.ts, D33): replay sends it there or nowhere.
 *
 * @module
 */
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeJsonAtomic } from '../store/atomic.js';
import { enqueue } from '../store/queue.js';
import {
  CLAIMED_SUFFIX,
  deadLetterName,
  dedupKeyOf,
  entryBaseName,
  PENDING_SUFFIX,
  queuePaths,
  redactError,
} from '../store/queueFiles.js';
import type { DeadLetter, QueueEntry, QueueEntryType } from '../store/queueFiles.js';
import { storeLayout } from '../store/paths.js';
import type { SessionWriter } from './writer.js';

export function queueDirOf(dataDir: string): string {
  return storeLayout(dataDir).queueDir;
}

/** The fingerprint of a batch: the key its queue entry would have (its session, payload and target, D33). */
export function batchFingerprint(writer: Pick<SessionWriter, 'env' | 'ovSessionId'>, payload: unknown): string {
  return dedupKeyOf('addMessages', writer.ovSessionId, payload, writer.env.target.id);
}

/** Queues one write for replay behind the writer's earlier ones; true when it is on disk (or already was). */
export async function queueWrite(writer: SessionWriter, type: QueueEntryType, payload: unknown): Promise<boolean> {
  const { env } = writer;
  const queued = await enqueue(
    queueDirOf(env.dataDir),
    {
      type,
      sessionId: writer.ovSessionId,
      payload,
      target: env.target,
      createdAt: env.now(),
      seq: writer.nextQueueSeq(),
    },
    { now: env.now, lockTimeoutMs: env.settings.lockTimeoutMs },
  );
  if (!queued.ok) {
    env.log.warn('capture could not queue a write', { session: writer.ovSessionId, type, error: queued.message });
    return false;
  }
  const base = baseOf(queued.file);
  if (!writer.state.queued.includes(base)) writer.state.queued.push(base);
  return true;
}

/** Writes a dead letter for a write the server refused; true when it is on disk. */
export async function deadLetterWrite(
  writer: SessionWriter,
  type: QueueEntryType,
  payload: unknown,
  error: string,
): Promise<boolean> {
  const { env } = writer;
  const now = env.now();
  const entry: QueueEntry = {
    type,
    sessionId: writer.ovSessionId,
    payload,
    target: env.target,
    createdAt: now,
    seq: 0,
    attempts: 1,
    dedupKey: dedupKeyOf(type, writer.ovSessionId, payload, env.target.id),
  };
  const base = entryBaseName(entry);
  const letter: DeadLetter = {
    reason: 'fatal',
    deadAt: now,
    file: `${base}${PENDING_SUFFIX}`,
    error: redactError(error),
    entry: { ...entry, lastError: redactError(error) },
  };
  try {
    await writeJsonAtomic(join(queuePaths(queueDirOf(env.dataDir)).deadDir, deadLetterName(now, base)), letter);
    return true;
  } catch (failure) {
    env.log.warn('capture could not write a dead letter', { session: writer.ovSessionId, error: String(failure) });
    return false;
  }
}

/** Drops entries that replay finished; true when some of the session's writes still wait. */
export async function hasQueuedWrites(writer: SessionWriter): Promise<boolean> {
  const { pendingDir } = queuePaths(queueDirOf(writer.env.dataDir));
  const waiting: string[] = [];
  for (const base of writer.state.queued) {
    if (
      (await exists(join(pendingDir, base + PENDING_SUFFIX))) ||
      (await exists(join(pendingDir, base + CLAIMED_SUFFIX)))
    )
      waiting.push(base);
  }
  writer.state.queued = waiting;
  return waiting.length > 0;
}

function baseOf(file: string): string {
  const name = basename(file);
  return name.endsWith(PENDING_SUFFIX) ? name.slice(0, -PENDING_SUFFIX.length) : name;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false; // ENOENT in practice; an unreadable queue counts as empty
  }
}
