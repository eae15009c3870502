/**
 * Putting dead letters back into the pending queue, by hand
 * (`node scripts/hook.mjs requeue-dead`, which doctor names when the
 * dead-letter folder is not empty). Nothing is ever deleted silently, so a
 * write given up during a long outage or a misconfiguration can still
 * reach the server once the cause is fixed.
 *
 * A requeued entry keeps its name, and so its place in its session's order
 * (createdAt, seq); its attempts restart at 0 and `requeuedAt` restarts the
 * TTL. An identical entry already waiting absorbs it (same dedupe rule as
 * `enqueue`). A dead letter without an entry (`corrupt`) stays where it is.
 *
 * @module
 */
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../util/errors.js';
import { withLock } from './lock.js';
import { ENQUEUE_LOCK_STALE_MS, writeUnlessQueued } from './queue.js';
import { listDir, parseDeadAt, queuePaths, toQueueEntry } from './queueFiles.js';
import type { QueueEntry } from './queueFiles.js';

export interface RequeueSummary {
  /** Back in `pending/`. */
  requeued: number;
  /** An identical entry was already waiting; the dead letter was removed. */
  alreadyQueued: number;
  /** Left in `dead/`: no entry to re-send (corrupt), or unreadable. */
  kept: number;
  problems: string[];
}

export interface RequeueOptions {
  now(): number;
  lockTimeoutMs: number;
}

/** Moves every dead letter that holds an entry back to the queue; never throws. */
export async function requeueDeadLetters(queueDir: string, options: RequeueOptions): Promise<RequeueSummary> {
  const paths = queuePaths(queueDir);
  const summary: RequeueSummary = { requeued: 0, alreadyQueued: 0, kept: 0, problems: [] };
  const lockOptions = { now: options.now, timeoutMs: options.lockTimeoutMs, staleMs: ENQUEUE_LOCK_STALE_MS };
  try {
    const names = (await listDir(paths.deadDir)).filter((name) => parseDeadAt(name) !== undefined).sort();
    for (const name of names) {
      const entry = await deadEntry(join(paths.deadDir, name));
      if (entry === undefined) {
        summary.kept++;
        continue;
      }
      const requeued: QueueEntry = { ...entry, attempts: 0, requeuedAt: options.now() };
      delete requeued.lastError;
      const locked = await withLock(paths.enqueueLock, lockOptions, () =>
        writeUnlessQueued(paths.pendingDir, requeued),
      );
      if (!locked.ok) {
        summary.problems.push(`${name}: queue lock ${locked.reason}`);
        summary.kept++;
        continue;
      }
      await unlink(join(paths.deadDir, name));
      summary[locked.value.ok && !locked.value.deduped ? 'requeued' : 'alreadyQueued']++;
    }
  } catch (error) {
    summary.problems.push(errorMessage(error));
  }
  return summary;
}

async function deadEntry(path: string): Promise<QueueEntry | undefined> {
  try {
    const letter = JSON.parse(await readFile(path, 'utf8')) as { entry?: unknown };
    return toQueueEntry(letter.entry);
  } catch {
    return undefined; // unreadable: it stays for a human to read
  }
}
