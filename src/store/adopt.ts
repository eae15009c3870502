/**
 * Brings queued writes left in another data directory into this one.
 *
 * Up to D21 the hooks wrote into the host's per-install directory
 * (`CODEBUDDY_PLUGIN_DATA`, `CLAUDE_PLUGIN_DATA`) when it was set, and that
 * directory changes with the install form (`<plugin>-inline` under
 * `--plugin-dir`, another name from a marketplace). Pending writes and dead
 * letters left there would never be replayed nor shown, so SessionStart (and
 * doctor) moves them into the one data directory (paths.ts). Looked at: the
 * directories this process's host variables name, and every
 * `plugins/data/openviking*` directory of CodeBuddy and Claude Code (a user
 * who switched install forms). Only files that are this plugin's queue
 * entries (name and content checked) move; a file whose name already exists
 * here is the same entry and is dropped. Cheap when there is nothing: two or
 * three `readdir`s of directories that mostly do not exist.
 *
 * @module
 */
import { linkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDirSync, MAX_STATE_FILE_BYTES, PRIVATE_FILE_MODE, readJsonSync } from './atomic.js';
import { readSmallFile } from './smallFile.js';
import { namesInDir, removeFileQuietly } from './fsUtil.js';
import { errorCode } from '../util/errors.js';
import { codebuddyConfigDir, hostDataDirs, storeLayout } from './paths.js';
import { CLAIMED_SUFFIX, keyPrefixOf, parseDeadAt, parseEntryName, queuePaths, toQueueEntry } from './queueFiles.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A claimed entry untouched this long belongs to a replayer that is gone. */
const ABANDONED_CLAIM_MS = 10 * 60_000;

export interface AdoptResult {
  /** Entries moved into this data directory (pending and dead). */
  moved: number;
  /** Directories they came from. */
  from: string[];
}

/** Moves queued writes of other data directories into `dataDir`. Never throws. */
export function adoptStrandedWrites(dataDir: string, env: Env, homeDir: string, now: number): AdoptResult {
  const result: AdoptResult = { moved: 0, from: [] };
  const target = queuePaths(storeLayout(dataDir).queueDir);
  for (const dir of candidateDirs(dataDir, env, homeDir)) {
    const source = queuePaths(storeLayout(dir).queueDir);
    const moved =
      moveEntries(source.pendingDir, target.pendingDir, now, true) +
      moveEntries(source.deadDir, target.deadDir, now, false);
    if (moved === 0) continue;
    result.moved += moved;
    result.from.push(dir);
  }
  return result;
}

/** The host's directories of this process, then every `plugins/data/openviking*` of both hosts. */
export function candidateDirs(dataDir: string, env: Env, homeDir: string): string[] {
  const codebuddyConfig = codebuddyConfigDir(env, homeDir);
  const known = [codebuddyConfig, join(homeDir, '.claude')].flatMap((config) => {
    const parent = join(config, 'plugins', 'data');
    return listNames(parent)
      .filter((name) => name === 'openviking' || name.startsWith('openviking-'))
      .map((name) => join(parent, name));
  });
  return [...new Set([...hostDataDirs(env, homeDir), ...known])].filter((dir) => dir !== dataDir);
}

function moveEntries(fromDir: string, toDir: string, now: number, pending: boolean): number {
  let moved = 0;
  for (const name of listNames(fromDir)) {
    const from = join(fromDir, name);
    const targetName = pending ? pendingNameToAdopt(from, name, now) : deadNameToAdopt(from, name);
    if (targetName === undefined) continue;
    if (moveFile(from, join(toDir, targetName))) moved += 1;
  }
  return moved;
}

/** The pending name to give `name` here, or undefined when it is not ours to take. */
function pendingNameToAdopt(path: string, name: string, now: number): string | undefined {
  const parsed = parseEntryName(name);
  if (parsed === undefined) return undefined;
  if (parsed.claimed && now - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now) < ABANDONED_CLAIM_MS)
    return undefined;
  const entry = toQueueEntry(readJsonSync(path));
  if (entry === undefined || keyPrefixOf(entry.dedupKey) !== parsed.keyPrefix) return undefined;
  return name.endsWith(CLAIMED_SUFFIX) ? `${parsed.base}.json` : name;
}

function deadNameToAdopt(path: string, name: string): string | undefined {
  if (parseDeadAt(name) === undefined) return undefined;
  const value = readJsonSync(path);
  return typeof value === 'object' && value !== null && typeof (value as { reason?: unknown }).reason === 'string'
    ? name
    : undefined;
}

/** Link + unlink (never overwrites); a copy across file systems. True when the file now lives only at `to`. */
function moveFile(from: string, to: string): boolean {
  try {
    ensurePrivateDirSync(join(to, '..'));
    try {
      linkSync(from, to);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') {
        removeFileQuietly(from); // the same entry is already here
        return false;
      }
      if (errorCode(error) !== 'EXDEV') throw error;
      const text = readSmallFile(from, MAX_STATE_FILE_BYTES).text; // a regular file only, never a blocking read
      if (text === undefined) return false;
      writeFileSync(to, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    }
    removeFileQuietly(from);
    return true;
  } catch {
    return false; // left where it was; the next start tries again
  }
}

function listNames(dir: string): string[] {
  return namesInDir(dir).sort(); // no such directory: nothing to adopt
}
