/**
 * Small file-system helpers the store (and the resident helper) need in
 * several places: removing a file that may already be gone, listing a
 * folder that may not exist, a path's facts and real path, an append and an
 * exclusive create of private files, and mtimes set from the injected clock
 * (locks and queue claims measure age by mtime, so tests can steer it).
 *
 * The synchronous calls here are what the shared rules of the recall and
 * start paths do to files besides reading them (store/smallFile.ts) and
 * replacing them (store/atomic.ts): node's side of the file seam's
 * FsUtilLeaf (fileSeam.ts). The hooks module has no node: its build puts
 * src/mod/files/fsUtil.ts in this file's place, answering the same calls
 * from its `$.fs` snapshot (D30).
 *
 * @module
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { stat, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorCode } from '../util/errors.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type FsUtilLeaf, type Implements, type PathStat } from './fileSeam.js';

export type { PathStat } from './fileSeam.js';
/** This file is node's side of the seam's FsUtilLeaf (and more, which the module does not run). */
export type _NodeFsUtil = Implements<FsUtilLeaf, typeof import('./fsUtil.js')>;

/** Removes `path` if it is there; a file already gone (or never written) is not an error. */
export function removeFileQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or never written: nothing to undo.
  }
}

/** The names in `dir`, or none when it cannot be read (missing, not a directory). */
export function namesInDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Sets a file's mtime (and atime) to `atMs`, ms since epoch. */
export async function setMtime(path: string, atMs: number): Promise<void> {
  await utimes(path, atMs / 1000, atMs / 1000);
}

/** A file's mtime in ms, or undefined when it does not exist. */
export async function mtimeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** `stat` of `path` (following links), or undefined when it is missing or cannot be looked at (ENOTDIR, EACCES, a loop). */
export function statQuietly(path: string): PathStat | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Where `path` lands, every link followed (the JavaScript `realpathSync`, which never folds case); undefined when it leads nowhere. */
export function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The same through the OS's `realpath(3)` (`realpathSync.native`); undefined when it leads nowhere. */
export function realPathNative(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/**
 * Opened for an append: created 0600 when missing; a symlink at the path
 * is refused (`O_NOFOLLOW`: ELOOP), and a FIFO there never blocks.
 */
const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Appends `text` to a private file, creating it (0600) and its folder
 * (0700) when missing. Private whatever was there before: a file that
 * existed with another mode is made 0600 before the text goes in, a
 * symlink at the path is not followed, and anything but a regular file is
 * refused. Throws on any failure (the caller decides whether a lost line
 * matters).
 */
export function appendPrivateFileSync(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, APPEND_FLAGS, PRIVATE_FILE_MODE);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    fd = openSync(path, APPEND_FLAGS, PRIVATE_FILE_MODE);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error(`${path} is not a regular file`);
    if ((stats.mode & 0o777) !== PRIVATE_FILE_MODE) fchmodSync(fd, PRIVATE_FILE_MODE);
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

/** Creates an empty private file (0600) only when none is there: true for the one caller that made it. Never throws. */
export function createFileExclusive(path: string): boolean {
  try {
    writeFileSync(path, '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return true;
  } catch {
    return false;
  }
}
