/**
 * Cross-process mutual exclusion with safe stale-lock reclaim.
 *
 * Hooks of one event run in parallel, Stop of turn N can overlap turn N+1's
 * prompt, and a detached capture worker runs beside them; any of them can be
 * SIGKILLed while holding a lock. So locks live on disk and a dead holder's
 * lock must be reclaimable, without two reclaimers ever both winning.
 *
 * The design (one invariant makes reclaim safe):
 *
 * - A lock is a directory `<name>.lock` that holds exactly one owner file
 *   `<nonce>.owner` (JSON `{pid, host, nonce}`; its mtime is the heartbeat).
 * - Acquire: build `<name>.lock.<nonce>.staging/<nonce>.owner` privately, then
 *   `rename` the staging dir onto `<name>.lock`. The rename fails while a
 *   lock exists (a non-empty dir cannot be replaced), so exactly one of many
 *   contenders wins. **A live lock is never empty.**
 * - Stale (holder's pid is dead on this host, or the heartbeat is older than
 *   `staleMs`): the reclaimer unlinks *that* owner file by its nonce name,
 *   then `rmdir`s. A second reclaimer that judged the same holder stale finds
 *   the nonce file gone (ENOENT) and cannot touch a newer holder's file,
 *   which has another name; `rmdir` only ever removes an empty, hence dead,
 *   lock. Then everybody competes through `rename` again.
 * - Release unlinks the own owner file and `rmdir`s, tolerating either being
 *   gone (the lock was reclaimed meanwhile).
 *
 * Not reentrant: nesting `withLock` on one path in one process waits for
 * itself until the timeout. Long holders must `refresh()` within `staleMs`.
 *
 * The uncontended path (acquire and release: seven metadata calls on local
 * files) is synchronous: on the session-start hook's clock each thread-pool
 * round trip cost more than the call itself. Waiting for a held lock stays
 * asynchronous (timers), so a contender never blocks its process.
 *
 * @module
 */
import { uniqueToken } from './fastHash.js';
import { mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, rmdir, unlink } from 'node:fs/promises';
import { hostname as osHostname } from 'node:os';
import { dirname, join } from 'node:path';
import { ensurePrivateDirSync, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './atomic.js';
import { mtimeOf, setMtime } from './fsUtil.js';
import { errorCode, errorMessage, hasErrorCode } from '../util/errors.js';
import { parseJson } from '../util/json.js';

const OWNER_SUFFIX = '.owner';
/** Default pause between acquisition attempts (jittered ±50 %). */
export const DEFAULT_LOCK_POLL_MS = 25;

export interface LockIdentity {
  /** Clock for heartbeats and staleness (ms since epoch); it must advance. */
  now(): number;
  /** Defaults: `process.pid` and `os.hostname()`. */
  pid?: number;
  hostname?: string;
  /** Is `pid` alive on this host? Default: `process.kill(pid, 0)`. */
  isProcessAlive?(pid: number): boolean;
}

export interface TryLockOptions extends LockIdentity {
  /** A heartbeat older than this marks the lock stale even when its pid looks alive. */
  staleMs: number;
}

export interface LockOptions extends TryLockOptions {
  /** Give up after this long; the caller then skips its work instead of blocking the host. */
  timeoutMs: number;
  sleep?(ms: number): Promise<void>;
  pollMs?: number;
}

export interface LockHandle {
  /** Moves the heartbeat to now; false when the lock was lost (reclaimed as stale). */
  refresh(): Promise<boolean>;
  /** Releases; false when the lock had already been lost. Never throws. */
  release(): Promise<boolean>;
}

/** What the current holder wrote, for diagnostics. */
export interface LockHolder {
  pid?: number;
  host?: string;
  heartbeatAt?: number;
}

export type TryLockResult =
  | { ok: true; handle: LockHandle }
  | { ok: false; reason: 'busy'; holder?: LockHolder }
  | { ok: false; reason: 'error'; message: string };

export type LockOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'timeout'; holder?: LockHolder }
  | { ok: false; reason: 'error'; message: string };

/** One acquisition attempt, reclaiming a stale lock first if that is what blocks it. Never throws. */
export async function tryLock(lockPath: string, options: TryLockOptions): Promise<TryLockResult> {
  try {
    return await attemptWithReclaim(lockPath, options);
  } catch (error) {
    return { ok: false, reason: 'error', message: errorMessage(error) };
  }
}

/**
 * Runs `fn` while holding `lockPath`, waiting up to `timeoutMs`. The lock is
 * released in `finally`. Lock I/O failures come back as `reason:'error'`;
 * an exception thrown by `fn` itself propagates after the release.
 */
export async function withLock<T>(
  lockPath: string,
  options: LockOptions,
  fn: () => Promise<T> | T,
): Promise<LockOutcome<T>> {
  const acquired = await acquire(lockPath, options);
  if (!acquired.ok) return acquired;
  try {
    return { ok: true, value: await fn() };
  } finally {
    await acquired.handle.release();
  }
}

/** Waits for the lock like `withLock` but hands back the handle (for holders that outlive one call). */
export async function acquire(
  lockPath: string,
  options: LockOptions,
): Promise<{ ok: true; handle: LockHandle } | Exclude<LockOutcome<never>, { ok: true }>> {
  const sleep = options.sleep ?? defaultSleep;
  const pollMs = options.pollMs ?? DEFAULT_LOCK_POLL_MS;
  const deadline = options.now() + options.timeoutMs;
  // Bounds the wait even if an injected clock stands still.
  const maxSleeps = Math.ceil(options.timeoutMs / Math.max(1, pollMs / 2)) + 1;
  for (let sleeps = 0; ; sleeps++) {
    const attempt = await tryLock(lockPath, options);
    if (attempt.ok) return attempt;
    if (attempt.reason === 'error') return attempt;
    const remaining = deadline - options.now();
    if (remaining <= 0 || sleeps >= maxSleeps) return { ok: false, reason: 'timeout', holder: attempt.holder };
    await sleep(Math.min(remaining, pollMs * (0.5 + Math.random())));
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Signal 0 says whether the pid exists; a zombie (killed, not yet reaped by
 * its parent) exists too, yet holds nothing. Where the parent of a detached
 * process is a slow reaper (PID 1 of some containers and VMs took ~2 s
 * here), a SIGKILLed holder stays a zombie long enough to block the next
 * start, so on Linux a zombie counts as dead (`/proc/<pid>/stat`, state Z).
 * Without procfs (macOS, Git Bash on Windows; `procRoot` lets tests take it
 * away) a zombie counts as alive, and its lock is reclaimed once its
 * heartbeat is older than `staleMs` (DESIGN D20, OS table).
 */
export function defaultIsProcessAlive(pid: number, procRoot = '/proc'): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errorCode(error) === 'EPERM'; // exists but belongs to another user
  }
  return !isZombie(pid, procRoot);
}

function isZombie(pid: number, procRoot: string): boolean {
  try {
    // `pid (comm) S …`: the state follows the last ')' (comm may hold spaces and parentheses).
    const stat = readFileSync(`${procRoot}/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no procfs (macOS) or the process just left: signal 0 already answered
  }
}

/** A few rounds, because each reclaim of a dead lock is followed by a fresh race. */
const MAX_RECLAIM_ROUNDS = 4;

async function attemptWithReclaim(lockPath: string, options: TryLockOptions): Promise<TryLockResult> {
  ensurePrivateDirSync(dirname(lockPath));
  let holder: LockHolder | undefined;
  for (let round = 0; round < MAX_RECLAIM_ROUNDS; round++) {
    const handle = await attemptAcquire(lockPath, options);
    if (handle) return { ok: true, handle };
    const inspection = await inspectAndReclaim(lockPath, options);
    if (inspection.kind === 'held') {
      holder = inspection.holder;
      break;
    }
  }
  return { ok: false, reason: 'busy', holder };
}

/** The rename race; undefined when someone else holds the lock. */
async function attemptAcquire(lockPath: string, options: TryLockOptions): Promise<LockHandle | undefined> {
  const nonce = uniqueToken();
  const staging = `${lockPath}.${nonce}.staging`;
  const ownerName = `${nonce}${OWNER_SUFFIX}`;
  mkdirSync(staging, { mode: PRIVATE_DIR_MODE });
  try {
    const owner = { pid: options.pid ?? process.pid, host: options.hostname ?? osHostname(), nonce };
    const ownerPath = join(staging, ownerName);
    writeFileSync(ownerPath, JSON.stringify(owner), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    const at = options.now() / 1000;
    utimesSync(ownerPath, at, at);
    renameSync(staging, lockPath);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Linux: EEXIST/ENOTEMPTY; macOS: ENOTEMPTY; Windows: EPERM/EACCES when the target exists.
    if (hasErrorCode(error, 'EEXIST', 'ENOTEMPTY', 'EPERM', 'EACCES', 'ENOTDIR', 'EISDIR')) return undefined;
    throw error;
  }
  return ownedLock(lockPath, join(lockPath, ownerName), options);
}

function ownedLock(lockPath: string, ownerPath: string, options: TryLockOptions): LockHandle {
  return {
    async refresh() {
      try {
        await setMtime(ownerPath, options.now());
        return true;
      } catch {
        return false; // ENOENT: reclaimed by someone who judged us stale
      }
    },
    async release() {
      let held = true;
      try {
        unlinkSync(ownerPath);
      } catch {
        held = false; // already reclaimed; the rmdir below cannot hurt a newer holder
      }
      try {
        rmdirSync(lockPath);
      } catch {
        // ENOTEMPTY: a newer holder already moved in.
      }
      return held;
    },
  };
}

type Inspection = { kind: 'held'; holder: LockHolder } | { kind: 'retry' };

/**
 * Looks at the current lock; removes it when provably dead (see module doc).
 * 'retry' means the way may be free now.
 */
async function inspectAndReclaim(lockPath: string, options: TryLockOptions): Promise<Inspection> {
  let entries: string[];
  try {
    entries = await readdir(lockPath);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'retry' }; // released meanwhile
    throw error;
  }
  const ownerName = entries.find((name) => name.endsWith(OWNER_SUFFIX));
  if (ownerName === undefined) {
    // No owner: dead by the invariant. Names are specific, so a newer lock's files are never hit.
    await Promise.all(entries.map((name) => rm(join(lockPath, name), { recursive: true, force: true })));
    await rmdir(lockPath).catch(() => undefined); // raced with another reclaimer or a new holder
    return { kind: 'retry' };
  }
  const ownerPath = join(lockPath, ownerName);
  const holder = await readHolder(ownerPath);
  if (holder === undefined) return { kind: 'retry' }; // released meanwhile
  if (!isStale(holder, options)) return { kind: 'held', holder };
  await unlink(ownerPath).catch(() => undefined); // ENOENT: another reclaimer was first
  await rmdir(lockPath).catch(() => undefined); // ENOTEMPTY: a newer holder already moved in
  return { kind: 'retry' };
}

async function readHolder(ownerPath: string): Promise<LockHolder | undefined> {
  const heartbeatAt = await mtimeOf(ownerPath);
  if (heartbeatAt === undefined) return undefined;
  const holder: LockHolder = { heartbeatAt };
  const raw = await readFile(ownerPath, 'utf8').catch(() => ''); // unreadable content: judge by age only
  const parsed = parseOwner(raw);
  if (parsed.pid !== undefined) holder.pid = parsed.pid;
  if (parsed.host !== undefined) holder.host = parsed.host;
  return holder;
}

function parseOwner(raw: string): { pid?: number; host?: string } {
  const value = parseJson(raw);
  // A foreign or truncated owner file: staleness falls back to its age.
  if (typeof value !== 'object' || value === null) return {};
  const { pid, host } = value as { pid?: unknown; host?: unknown };
  return {
    ...(typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? { pid } : {}),
    ...(typeof host === 'string' ? { host } : {}),
  };
}

function isStale(holder: LockHolder, options: TryLockOptions): boolean {
  if (holder.heartbeatAt !== undefined && options.now() - holder.heartbeatAt > options.staleMs) return true;
  const sameHost = holder.host === (options.hostname ?? osHostname());
  if (holder.pid === undefined || !sameHost) return false;
  return !(options.isProcessAlive ?? defaultIsProcessAlive)(holder.pid);
}
