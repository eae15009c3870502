/**
 * The one reader of small files the plugin does not fully control: config
 * files, a repository's `.git`, `commondir` and `config`, the workspace's
 * `.openviking/config.json`, the CLI's settings, doctor's inputs, and its
 * own state (DESIGN D27).
 *
 * A cloned repository can commit any of those as a symlink: to `/dev/zero`
 * (a plain read never ends), to a FIFO or a terminal (a plain open or read
 * blocks the thread; hooks read synchronously, so no timer can fire), or to
 * a huge file. So a file is read only when it is a regular file, opened
 * non-blocking (`O_NONBLOCK`: a FIFO swapped in after the check opens at
 * once; `O_NOCTTY`: a terminal never becomes the process's controlling
 * one), checked again on the open descriptor (`fstat`), and read for at
 * most `maxBytes + 1` bytes whatever its size claims. Anything else is
 * absent, with the reason, which doctor shows.
 *
 * Synchronous and as cheap as the plain read it replaces: a `stat` first
 * (the common missing file costs no exception: an `open` that throws
 * ENOENT costs ~6 µs here against ~0.6 µs, and a device or FIFO is refused
 * without being opened), then open, fstat, read, close: ~3 µs for a small
 * file against ~4 µs for `stat` + `readFileSync` (measured, Node 20).
 *
 * Node's side of the file seam's small-file rule (fileSeam.ts, which holds
 * the rule and its reasons; the hooks module's side is
 * src/mod/files/smallFile.ts).
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { errorMessage } from '../util/errors.js';
import {
  MISSING,
  smallFileRefusal,
  tooLargeFile,
  unreadableFile,
  type FileKind,
  type Implements,
  type SmallFile,
  type SmallFileLeaf,
} from './fileSeam.js';

export type { SmallFile, SmallFileAbsence } from './fileSeam.js';
/** This file is node's side of the seam's SmallFileLeaf. */
export type _NodeSmallFile = Implements<SmallFileLeaf, typeof import('./smallFile.js')>;

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** Reads `path` as UTF-8 text when it is a regular file of at most `maxBytes` bytes. Never throws. */
export function readSmallFile(path: string, maxBytes: number): SmallFile {
  let stats: Stats | undefined;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return unreadable(error);
  }
  if (stats === undefined) return MISSING;
  const refused = refusal(stats, maxBytes);
  if (refused !== undefined) return refused;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    return unreadable(error);
  }
  try {
    // The path may have been swapped between the stat and the open: judge the file actually opened.
    const opened = fstatSync(fd);
    return refusal(opened, maxBytes) ?? readOpen(fd, opened.size, maxBytes);
  } catch (error) {
    return unreadable(error);
  } finally {
    closeSync(fd);
  }
}

function refusal(stats: Stats, maxBytes: number): SmallFile | undefined {
  return smallFileRefusal(kindOf(stats), stats.size, maxBytes);
}

/**
 * Reads to the end, at most `maxBytes + 1` bytes, so neither a size of 0
 * (procfs) nor a file grown since the fstat can make it read more.
 */
function readOpen(fd: number, expected: number, maxBytes: number): SmallFile {
  let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, expected + 1));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length > maxBytes) return tooLargeFile(maxBytes);
      const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2 + 4096));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
    // A regular file that gave all the bytes fstat promised is done (what readFileSync does): no extra read for the end.
    if (expected > 0 && length === expected) break;
  }
  if (length > maxBytes) return tooLargeFile(maxBytes);
  return { text: buffer.toString('utf8', 0, length) };
}

function unreadable(error: unknown): SmallFile {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return MISSING;
  // ENXIO: a socket (or a FIFO with no reader, for writes); never a regular file.
  if (code === 'ENXIO') return { absent: 'not-a-file', why: 'is a socket or device, not a regular file' };
  return unreadableFile(errorMessage(error));
}

function kindOf(stats: Stats): FileKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSocket()) return 'socket';
  return 'other';
}
