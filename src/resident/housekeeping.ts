/**
 * What no single resident cleans up by itself (DESIGN D20):
 * - leftover request and reply files of ANY key: a reply written
 *   after its hook gave up holds recalled memories (0600) and would stay on
 *   disk when no resident of that key runs again, so every resident tick and
 *   every SessionStart removes those older than LEFTOVER_MS, whatever key
 *   they belong to (one readdir of `<dataDir>/resident`, a few entries),
 *   and door files (door.ts) whose resident died without closing them;
 * - the number of residents: each key (environment) has its own, so
 *   per-project environment tools could pile up processes. A resident that
 *   starts next to MAX_RESIDENTS others retires the idlest: the one whose
 *   FIFO was last written longest ago (a hook's write updates a FIFO's
 *   mtime). Retiring is unlinking its FIFO, the path every retirement
 *   already takes (server.ts: it notices within a tick, drains and leaves).
 *
 * "Per user" is per data directory, which is per user in every install.
 *
 * @module
 */
import { closeSync, constants, openSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { namesInDir } from '../store/fsUtil.js';
import { defaultIsProcessAlive } from '../store/lock.js';
import { DOOR_FILE, readDoorFile } from './door.js';
import { EXCHANGE_FILE, FIFO_FILE, residentPaths } from './identity.js';
import type { ResidentPaths } from './identity.js';

/** Request and reply files older than this belong to a hook that gave up long ago. */
export const LEFTOVER_MS = 60_000;
/** Most residents (of all keys) serving one data directory at once. */
export const MAX_RESIDENTS = 3;

/** True when a resident has the FIFO open for reading right now (opening it writes nothing). */
export function residentListening(paths: ResidentPaths): boolean {
  try {
    closeSync(openSync(paths.fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch {
    return false; // ENOENT: never made or retired; ENXIO: nobody reads it
  }
}

/**
 * Removes exchange files of every key older than `maxAgeMs`, and door files
 * whose resident is gone. Never throws.
 * @returns how many were removed.
 */
export function sweepLeftovers(
  dir: string,
  now: number,
  maxAgeMs = LEFTOVER_MS,
  isProcessAlive: (pid: number) => boolean = defaultIsProcessAlive,
): number {
  let removed = 0;
  for (const name of namesInDir(dir)) {
    const path = join(dir, name);
    if (DOOR_FILE.test(name)) {
      removed += removeDeadDoor(path, isProcessAlive);
      continue;
    }
    if (!EXCHANGE_FILE.test(name)) continue;
    try {
      const stats = statSync(path, { throwIfNoEntry: false });
      if (stats === undefined || now - stats.mtimeMs <= maxAgeMs) continue;
      unlinkSync(path);
      removed += 1;
    } catch {
      // Removed meanwhile, or not ours to remove: the next sweep tries again.
    }
  }
  return removed;
}

/** 1 when the door file at `path` named a dead resident and is now removed, else 0. */
function removeDeadDoor(path: string, isProcessAlive: (pid: number) => boolean): number {
  const door = readDoorFile(path);
  if (door !== undefined && isProcessAlive(door.pid)) return 0;
  try {
    unlinkSync(path);
    return 1;
  } catch {
    return 0;
  }
}

/**
 * Called by a resident of `ownKey` once its FIFO exists: retires the
 * idlest other residents until at most MAX_RESIDENTS listen, this one
 * included. Never throws.
 * @returns the keys retired.
 */
export function retireIdlestBeyondCap(dataDir: string, ownKey: string, cap = MAX_RESIDENTS): string[] {
  const dir = join(dataDir, 'resident');
  const others: Array<{ key: string; path: string; ino: number; lastWriteMs: number }> = [];
  for (const name of namesInDir(dir)) {
    const key = FIFO_FILE.exec(name)?.[1];
    if (key === undefined || key === ownKey) continue;
    const paths = residentPaths(dataDir, key);
    const stats = statSync(paths.fifo, { throwIfNoEntry: false });
    if (stats === undefined || !stats.isFIFO() || !residentListening(paths)) continue;
    others.push({ key, path: paths.fifo, ino: stats.ino, lastWriteMs: stats.mtimeMs });
  }
  others.sort((a, b) => a.lastWriteMs - b.lastWriteMs);
  const retired: string[] = [];
  for (const victim of others.slice(0, Math.max(0, others.length - (cap - 1)))) {
    try {
      // Only the FIFO we judged: a newer resident of that key may have replaced it meanwhile.
      if (statSync(victim.path, { throwIfNoEntry: false })?.ino !== victim.ino) continue;
      unlinkSync(victim.path);
      retired.push(victim.key);
    } catch {
      // Gone already: one less to retire.
    }
  }
  return retired;
}
