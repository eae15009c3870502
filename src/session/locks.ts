/**
 * Names of the cross-process locks that several stages share for one
 * OpenViking session. Capture (turn pushes, the worker) and start (pending
 * replay of `addMessages` entries) must serialise on the SAME lock, or a
 * replayed batch could interleave with a fresh one and break message order.
 *
 * @module
 */
import { sessionLockFile, storeLayout } from '../store/paths.js';

/** The lock every writer of `ovSessionId`'s messages holds while sending. */
export function captureLockPath(dataDir: string, ovSessionId: string): string {
  return sessionLockFile(storeLayout(dataDir), ovSessionId, 'capture');
}

/** The lock that makes SessionStart idempotent for one session (double delivery). */
export function startLockPath(dataDir: string, ovSessionId: string): string {
  return sessionLockFile(storeLayout(dataDir), ovSessionId, 'start');
}
