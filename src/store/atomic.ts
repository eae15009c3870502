/**
 * Whole-file replacement that no reader can observe half-done, and a JSON
 * reader that tells "missing" from "corrupt".
 *
 * Hooks are SIGKILLed at hook timeouts and run concurrently, so a file is
 * never rewritten in place: the new content goes to a private temp file in
 * the same directory (`wx`, 0600), is optionally fsynced, and then `rename`d
 * over the target, which POSIX makes atomic. A crash leaves at worst a stray
 * `*.tmp` (queue replay sweeps its own; elsewhere they are harmless).
 * Reads go through store/smallFile.ts like every other small-file read: a
 * state file that is not a regular file, or larger than MAX_STATE_FILE_BYTES
 * (far above any state the plugin writes), reads as unreadable, never as a
 * hang.
 *
 * @module
 */
import { uniqueToken } from './fastHash.js';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { removeFileQuietly } from './fsUtil.js';
import { errorMessage } from '../util/errors.js';
import { readSmallFile } from './smallFile.js';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Largest state file read (capture state, start answers, status: kilobytes to a few hundred). */
export const MAX_STATE_FILE_BYTES = 64 * 1024 * 1024;

/** Suffix of in-flight temp files; never matches a `*.json` listing. */
export const TEMP_SUFFIX = '.tmp';

export interface AtomicWriteOptions {
  /**
   * fsync the temp file before the rename, so a power loss cannot leave an
   * empty file behind. Atomicity against crashed processes does not need it.
   * Default true.
   */
  fsync?: boolean;
}

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

/** The parsed content of a small JSON file, read synchronously; undefined when missing, corrupt or unreadable. */
export function readJsonSync(path: string): unknown {
  const file = readSmallFile(path, MAX_STATE_FILE_BYTES);
  if (file.absent !== undefined) return undefined;
  try {
    return JSON.parse(file.text) as unknown;
  } catch {
    // Missing, unreadable or not JSON: all read as absent here (readJsonDetailed tells them apart).
    return undefined;
  }
}

/** `writeFileAtomic` of `JSON.stringify(value)`. Throws on unserialisable values or I/O failure. */
export async function writeJsonAtomic(path: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value), options);
}

export type JsonReadResult =
  | { status: 'ok'; value: unknown }
  | { status: 'missing' }
  /** Not JSON (or not UTF-8 text): a bug or a foreign writer; `reason` says which. */
  | { status: 'corrupt'; reason: string }
  /** Exists but cannot be read (permissions, a directory, ...). */
  | { status: 'unreadable'; reason: string };

/**
 * Reads and parses a JSON file; never throws. The read is synchronous: the
 * plugin's JSON files are state and queue entries of a few KB read on a
 * hook's clock, where the thread pool's four round trips (open, stat,
 * read, close) cost more than the blocking read itself.
 */
export async function readJsonDetailed(path: string): Promise<JsonReadResult> {
  const file = readSmallFile(path, MAX_STATE_FILE_BYTES);
  if (file.absent === 'missing') return { status: 'missing' };
  if (file.absent !== undefined) return { status: 'unreadable', reason: `${path} ${file.why}` };
  const text = file.text;
  try {
    return { status: 'ok', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { status: 'corrupt', reason: `invalid JSON (${text.length} chars): ${errorMessage(error)}` };
  }
}

/** The parsed content, or undefined when missing, corrupt or unreadable (use `readJsonDetailed` for why). */
export async function readJson(path: string): Promise<unknown> {
  const result = await readJsonDetailed(path);
  return result.status === 'ok' ? result.value : undefined;
}
