/**
 * Small file-system helpers the store (and the resident helper) need in
 * several places: removing a file that may already be gone, listing a
 * folder that may not exist, and mtimes set from the injected clock (locks
 * and queue claims measure age by mtime, so tests can steer it).
 *
 * @module
 */
import { readdirSync, unlinkSync } from 'node:fs';
import { stat, utimes } from 'node:fs/promises';
import { errorCode } from '../util/errors.js';

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
