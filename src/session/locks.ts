/**
 * Names of the cross-process locks that several stages share for one
 * OpenViking session. Capture (turn pushes, the worker) and start (pending
 * replay of `addMessages` entries) must serialise on the SAME lock, or a
 * replayed batch could interleave with a fresh one and break message order.
 *
 * @module
 */
import { sessionLockFile, storeLayout } from '../store/paths.js';

/**
 * When another process may take a capture lock whose holder stopped
 * refreshing it. A live holder refreshes far more often; a dead one is
 * reclaimed by pid at once. Every taker of the capture lock uses this one
 * value, or one could reclaim a live writer's lock.
 */
export const CAPTURE_LOCK_STALE_MS = 5 * 60_000;

/** The lock every writer of `ovSessionId`'s messages holds while sending. */
export function captureLockPath(dataDir: string, ovSessionId: string): string {
  return sessionLockFile(storeLayout(dataDir), ovSessionId, 'capture');
}

/** The lock that makes SessionStart idempotent for one session (double delivery). */
export function startLockPath(dataDir: string, ovSessionId: string): string {
  return sessionLockFile(storeLayout(dataDir), ovSessionId, 'start');
}
