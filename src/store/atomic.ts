/**
 * Whole-file replacement that no reader can observe half-done.
 *
 * Hooks are SIGKILLed at hook timeouts and run concurrently, so a file is
 * never rewritten in place: the new content goes to a private temp file in
 * the same directory (`wx`, 0600), is optionally fsynced, and then `rename`d
 * over the target, which POSIX makes atomic. A crash leaves at worst a stray
 * `*.tmp` (queue replay sweeps its own; elsewhere they are harmless).
 * The JSON readers beside these writers live in store/jsonFile.ts
 * (re-exported here).
 *
 * Node's side of the file seam's AtomicLeaf (fileSeam.ts, which holds the
 * modes and the temp suffix). The hooks module has no node and no rename:
 * its build puts src/mod/files/atomic.ts in this file's place, which queues
 * each replacement for one whole-file `$.fs.write` after the answer (D30).
 *
 * @module
 */
import { uniqueToken } from './fastHash.js';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { removeFileQuietly } from './fsUtil.js';
import {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  TEMP_SUFFIX,
  type AtomicLeaf,
  type AtomicWriteOptions,
  type Implements,
} from './fileSeam.js';

export { MAX_STATE_FILE_BYTES, readJson, readJsonDetailed, readJsonSync, type JsonReadResult } from './jsonFile.js';
export { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, TEMP_SUFFIX, type AtomicWriteOptions } from './fileSeam.js';
/** This file is node's side of the seam's AtomicLeaf (and more, which the module does not run). */
export type _NodeAtomic = Implements<AtomicLeaf, typeof import('./atomic.js')>;

/** Creates `dir` and missing parents with mode 0700 (existing ones are left alone). */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** `ensurePrivateDir`, synchronously. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** A fresh temp path beside `path`: `<name>.<pid>.<random>.tmp`. */
export function tempPathFor(path: string): string {
  const unique = `${process.pid}.${uniqueToken()}`;
  return join(dirname(path), `${basename(path)}.${unique}${TEMP_SUFFIX}`);
}

/**
 * Replaces `path` with `data` atomically (temp + rename), creating the
 * directory (0700) if needed. The file ends up 0600. Throws on I/O failure,
 * after removing its temp file.
 */
export async function writeFileAtomic(path: string, data: string, options: AtomicWriteOptions = {}): Promise<void> {
  await ensurePrivateDir(dirname(path));
  const temp = tempPathFor(path);
  try {
    const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data, 'utf8');
      if (options.fsync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined); // the temp may not exist; nothing else to undo
    throw error;
  }
}

/**
 * `writeFileAtomic` without fsync, done synchronously: for the few-hundred-
 * byte status files a hook writes right before it exits, five thread-pool
 * round trips cost more (~3 ms measured on the prompt hook) than the
 * blocking calls themselves. Throws on I/O failure, after removing its temp.
 */
export function writeFileAtomicSync(path: string, data: string): void {
  ensurePrivateDirSync(dirname(path));
  const temp = tempPathFor(path);
  try {
    writeFileSync(temp, data, { encoding: 'utf8', flag: 'wx', mode: PRIVATE_FILE_MODE });
    renameSync(temp, path);
  } catch (error) {
    removeFileQuietly(temp);
    throw error;
  }
}

/** `writeFileAtomic` of `JSON.stringify(value)`. Throws on unserialisable values or I/O failure. */
export async function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value), options);
}
