/**
 * The one writer of an OpenViking session's messages.
 *
 * OpenViking mints message ids, so the only way to know whether a send
 * landed is the session's message count (inflight.ts), and that only works
 * if nobody else writes to the session meanwhile. Every path that adds or
 * commits (the capture pass, pending-queue replay of that session's entries,
 * commit-stale, the synchronous PreCompact capture) therefore runs inside
 * `withSessionWriter`, which holds the session's capture lock
 * (session/locks.ts, shared with the start stage) and its capture state for
 * the whole job. The lock dies with its holder (a dead pid is reclaimed at
 * once), and long jobs refresh its heartbeat. A writer that lost the lock
 * (stopped past the stale time, e.g. SIGSTOP or a suspended laptop, and
 * reclaimed by the next writer) finds out at its next save, which every
 * send is preceded by (the inflight record): it then writes nothing more,
 * neither state nor requests, and its job ends (issue 14 item 5).
 *
 * @module
 */
import type { Logger } from '../protocol/stage.js';
import { CAPTURE_LOCK_STALE_MS, captureLockPath } from '../session/locks.js';
import type { StageContext } from '../session/stageContext.js';
import { acquire, tryLock } from '../store/lock.js';
import type { LockHandle } from '../store/lock.js';
import { recordActivity } from '../store/status.js';
import { emptyCaptureState, loadCaptureState, saveCaptureState } from './state.js';
import type { CaptureState, ServerCount, SessionIdentity } from './state.js';
import type { WriteTarget } from './writeTarget.js';

/** A named point where a test can stop the process (see worker.ts); a no-op in production. */
export type CrashPoint = 'before-send' | 'after-send' | 'after-enqueue';

/**
 * What the capture machinery needs from the outside world, built once per
 * job (env.ts): a stage's context without its session (one job writes for
 * many, each under its own identity), with the clock and log. Its
 * `deadlineAt` is the epoch-ms after which no new batch starts; its client
 * is the background one (env.ts).
 */
export interface CaptureEnv extends Pick<StageContext, 'dataDir' | 'settings' | 'client' | 'deadlineAt'> {
  /** The server and identity the client speaks to and as (writeTarget.ts): what is queued now belongs to it, and only what belongs to it is replayed (D33). */
  target: WriteTarget;
  now(): number;
  log: Logger;
  crashPoint?(point: CrashPoint): void;
  /**
   * Why a session's writes must stay on this machine now (memory off, a
   * bypass, or auto-capture off for its session or folder:
   * session/switches.ts), or undefined. Replay keeps such a session's queued
   * entries unsent (DESIGN D25).
   */
  holdReason?(session: Pick<SessionIdentity, 'hostSessionId' | 'workspace'>): string | undefined;
}

export interface SessionWriter {
  readonly env: CaptureEnv;
  readonly ovSessionId: string;
  state: CaptureState;
  /** The server's count as last seen in this job (undefined: ask before the next send). */
  count?: ServerCount;
  /** Persists `state` atomically; false (and a warning) when the disk refused or the lock was lost. */
  save(): Promise<boolean>;
  /** Keeps the lock's heartbeat fresh; false once the lock was lost (then nothing more may be written). */
  heartbeat(): Promise<boolean>;
  /** Orders this job's queue entries that share a millisecond. */
  nextQueueSeq(): number;
}

export type WriterOutcome<T> = { ok: true; value: T } | { ok: false; reason: 'busy' | 'error'; message?: string };

/**
 * Runs `job` as the session's only writer. `waitMs` 0 tries once (a busy
 * lock means another writer is on it); more waits that long.
 */
export async function withSessionWriter<T>(
  env: CaptureEnv,
  identity: SessionIdentity,
  waitMs: number,
  job: (writer: SessionWriter) => Promise<T>,
): Promise<WriterOutcome<T>> {
  const lockPath = captureLockPath(env.dataDir, identity.ovSessionId);
  const lockOptions = { now: env.now, staleMs: CAPTURE_LOCK_STALE_MS };
  const locked =
    waitMs > 0 ? await acquire(lockPath, { ...lockOptions, timeoutMs: waitMs }) : await tryLock(lockPath, lockOptions);
  if (!locked.ok) {
    if (locked.reason === 'error') return { ok: false, reason: 'error', message: locked.message };
    return { ok: false, reason: 'busy' };
  }
  try {
    const writer = await openWriter(env, identity, locked.handle);
    const sentBefore = writer.state.counts.sent;
    const value = await job(writer);
    // The session's last capture, for doctor and the status line: what the server took in this job (a pass, a replay, commit-stale).
    const taken = writer.state.counts.sent - sentBefore;
    if (taken > 0) await recordActivity(env.dataDir, 'capture', identity.ovSessionId, { at: env.now(), count: taken });
    return { ok: true, value };
  } finally {
    await locked.handle.release();
  }
}

async function openWriter(env: CaptureEnv, identity: SessionIdentity, handle: LockHandle): Promise<SessionWriter> {
  const stored = await loadCaptureState(env.dataDir, identity.ovSessionId);
  const state = stored ?? emptyCaptureState(identity);
  // A session first met in the queue learns who it belongs to when capture sees it.
  if (identity.hostSessionId !== '') state.hostSessionId = identity.hostSessionId;
  if (identity.workspace !== '') state.workspace = identity.workspace;
  if (identity.agentId !== undefined) state.agentId = identity.agentId;
  let queueSeq = 0;
  let lost = false;
  const holds = async (): Promise<boolean> => {
    if (!lost && !(await handle.refresh())) {
      lost = true;
      env.log.warn('capture lock lost; this writer stops', { session: identity.ovSessionId });
    }
    return !lost;
  };
  const writer: SessionWriter = {
    env,
    ovSessionId: identity.ovSessionId,
    state,
    save: async () => {
      if (!(await holds())) return false;
      const saved = await saveCaptureState(env.dataDir, writer.state);
      if (!saved.ok) env.log.warn('capture state not saved', { session: identity.ovSessionId, error: saved.message });
      return saved.ok;
    },
    heartbeat: holds,
    nextQueueSeq: () => queueSeq++,
  };
  return writer;
}
