/**
 * The small index of sessions that may still need a commit, so that a
 * session start never reads the capture state of every past session
 * (DESIGN D19): its cost then follows the handful of sessions not yet
 * archived, not the user's whole history.
 *
 * `<dataDir>/capture/uncommitted/<key>.json`, one tiny file per session:
 * written by the session's writer before each capture pass (so a crash can
 * only leave a superfluous entry, never a missing one) and removed once a
 * full commit left nothing behind. The entry's mtime is the session's last
 * capture; with the transcript's mtime it says whether the session is live.
 *
 * The folder is the index once it holds the `.ready` marker: written with
 * the first entry of a data directory that has no capture state yet, or,
 * for a data directory from before the index (where a writer may already
 * have added its own entry), by the commit-stale worker (never the start
 * hook) once it has built the index from a full scan of the capture states.
 *
 * Synchronous small-file I/O on purpose: the start hook reads this (DESIGN D14).
 *
 * @module
 */
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../util/json.js';
import { readJsonSync, writeFileAtomicSync } from '../store/atomic.js';
import { removeFileQuietly } from '../store/fsUtil.js';
import { safeFileKey } from '../store/paths.js';
import { OV_SESSION_PREFIX, ovSessionId, SUBAGENT_SEPARATOR } from '../session/ids.js';
import type { CommitOutcome } from './commit.js';
import { captureDir } from './paths.js';
import { sessionIdentityOf, workLeft } from './state.js';
import type { CaptureState, SessionIdentity } from './state.js';

export interface UncommittedEntry extends SessionIdentity {
  transcriptPath?: string;
  /** Idle seconds of the server-side policy the session carries (absent: none set; 0: a policy without idle timeout). */
  serverIdleSeconds?: number;
}

/** An entry as read back, with its file's mtime (the session's last capture). */
export interface ListedEntry extends UncommittedEntry {
  markedAt: number;
}

/** Written by the first full scan; only then is the folder the whole index. */
const READY_MARKER = '.ready';

/** `<dataDir>/capture/uncommitted`. */
export function uncommittedDir(dataDir: string): string {
  return join(captureDir(dataDir), 'uncommitted');
}

function entryFile(dataDir: string, ovSessionId: string): string {
  return join(uncommittedDir(dataDir), `${safeFileKey(ovSessionId)}.json`);
}

/**
 * Records that the session may need a commit, active now (or, when the
 * index is built from old states, at `activeAt`). Never throws; false when
 * the disk refused.
 */
export function markUncommitted(dataDir: string, entry: UncommittedEntry, activeAt?: number): boolean {
  try {
    const file = entryFile(dataDir, entry.ovSessionId);
    // The folder's first entry: with no capture state from before the index, the index starts complete.
    const startsIndex = activeAt === undefined && !existsSync(uncommittedDir(dataDir)) && !hasCaptureStates(dataDir);
    writeFileAtomicSync(file, JSON.stringify(entry));
    if (startsIndex) initUncommittedIndex(dataDir);
    if (activeAt !== undefined) utimesSync(file, activeAt / 1000, activeAt / 1000);
    return true;
  } catch {
    return false;
  }
}

/** Whether any session's capture state is on disk (`<capture dir>/*.json`). */
function hasCaptureStates(dataDir: string): boolean {
  try {
    return readdirSync(captureDir(dataDir)).some((name) => name.endsWith('.json'));
  } catch {
    return false; // no capture dir: nothing captured yet
  }
}

/** The session needs no commit any more. Never throws. */
export function clearUncommitted(dataDir: string, ovSessionId: string): void {
  removeFileQuietly(entryFile(dataDir, ovSessionId));
}

/** The index, or `missing` when this data directory has never had one (built by the worker). Never throws. */
export function listUncommitted(dataDir: string): ListedEntry[] | 'missing' {
  const dir = uncommittedDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 'missing';
  }
  // Writers add entries before the first full scan ran (an upgrade's first capture): until the scan's
  // marker is there, the folder holds only some sessions and must not hide the others.
  if (!names.includes(READY_MARKER)) return 'missing';
  const entries: ListedEntry[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const entry = readEntry(join(dir, name));
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

/** The session's entry, if it has one. Never throws. */
export function readUncommitted(dataDir: string, ovSessionId: string): ListedEntry | undefined {
  return readEntry(entryFile(dataDir, ovSessionId));
}

/** Creates the (empty) index folder: from now on the index is authoritative. */
export function initUncommittedIndex(dataDir: string): void {
  const marker = join(uncommittedDir(dataDir), READY_MARKER);
  try {
    writeFileAtomicSync(marker, '');
  } catch {
    // The next worker builds it again.
  }
}

function readEntry(path: string): ListedEntry | undefined {
  try {
    const value = readJsonSync(path);
    if (!isRecord(value)) return undefined;
    const { ovSessionId, hostSessionId, workspace, agentId, transcriptPath, serverIdleSeconds } = value;
    if (typeof ovSessionId !== 'string' || ovSessionId === '' || typeof workspace !== 'string') return undefined;
    const entry: ListedEntry = {
      ovSessionId,
      hostSessionId: typeof hostSessionId === 'string' ? hostSessionId : '',
      workspace,
      markedAt: statSync(path).mtimeMs,
    };
    if (typeof agentId === 'string') entry.agentId = agentId;
    if (typeof transcriptPath === 'string') entry.transcriptPath = transcriptPath;
    if (typeof serverIdleSeconds === 'number' && serverIdleSeconds >= 0) entry.serverIdleSeconds = serverIdleSeconds;
    return entry;
  } catch {
    return undefined; // gone between readdir and read, or unreadable: a later writer marks it again
  }
}

/** The index entry of a session, from its capture state. */
export function entryOf(state: CaptureState): UncommittedEntry {
  const entry: UncommittedEntry = sessionIdentityOf(state);
  if (state.transcriptPath !== undefined) entry.transcriptPath = state.transcriptPath;
  return entry;
}

/**
 * After a complete pass that was asked to commit: true when nothing of the
 * session waits any more (the commit was taken, or there was none to make,
 * or the server can never take it), so its entry can go.
 */
export function nothingLeftToCommit(state: CaptureState, commit: CommitOutcome | undefined): boolean {
  const left = workLeft(state);
  if (left.inTransit) return false;
  if (commit === undefined) return !left.uncommitted;
  return commit === 'committed' || commit === 'absent' || commit === 'dead-lettered';
}

/** The session's last sign of life: its last capture, or its transcript's last growth. */
export function lastActivityAt(entry: ListedEntry): number {
  let transcriptAt = 0;
  if (entry.transcriptPath !== undefined) {
    try {
      transcriptAt = statSync(entry.transcriptPath).mtimeMs;
    } catch {
      // The transcript is gone: only the capture time counts.
    }
  }
  return Math.max(entry.markedAt, transcriptAt);
}

/**
 * How long this session must be quiet before a client-side commit: the
 * knob, or the idle timeout of the server policy it carries when that is
 * longer, so a server whose idle scanner runs commits it first (§10).
 */
export function idleThresholdMs(entry: UncommittedEntry, staleCommitIdleMs: number): number {
  return Math.max(staleCommitIdleMs, (entry.serverIdleSeconds ?? 0) * 1000);
}

/** True when the entry's session has been quiet long enough to be committed by another session's start. */
export function isIdle(entry: ListedEntry, staleCommitIdleMs: number, now: number): boolean {
  return now - lastActivityAt(entry) >= idleThresholdMs(entry, staleCommitIdleMs);
}

/**
 * The entries of `workspace` that belong to a session other than
 * `exceptSessionId` (a host or OpenViking session id) and its sub-agents:
 * what a new session's start may commit once they are idle.
 */
export function otherSessionsOf(
  entries: readonly ListedEntry[],
  workspace: string,
  exceptSessionId: string,
): ListedEntry[] {
  const except = exceptSessionId.trim();
  const spared = except === '' ? [] : except.startsWith(OV_SESSION_PREFIX) ? [except] : [except, ovSessionId(except)];
  const isSpared = (entry: ListedEntry) =>
    spared.some(
      (id) =>
        entry.hostSessionId === id ||
        entry.ovSessionId === id ||
        entry.ovSessionId.startsWith(`${id}${SUBAGENT_SEPARATOR}`),
    );
  return entries.filter((entry) => entry.workspace === workspace && !isSpared(entry));
}
