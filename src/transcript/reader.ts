/**
 * Incremental reading of an append-only JSONL transcript. The capture worker
 * runs after every turn, so the cost of a read must depend on what was
 * appended, not on the size of the file: a cursor remembers where the last
 * complete line ended, and the next read starts there (positioned reads, never
 * the whole file). Before trusting the cursor it checks that the file is the
 * same one (device + inode), did not shrink, and still holds the same last line
 * at the same place (a hash of its head and its length, so no content is kept);
 * anything else rescans from byte 0 and relies on the caller's record-id dedupe.
 *
 * A line without its newline is a write in progress: it is left for the next
 * read. Lines that are not JSON objects are skipped and counted.
 *
 * The path comes from the host's stdin, so it may name anything: the file is
 * opened non-blocking (a FIFO opens at once, a terminal never becomes the
 * controlling one) and read only when it is a regular file; anything else is
 * an unreadable transcript (`error`), never a worker stuck in `open`.
 *
 * @module
 */
import { constants } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import type { RecordSpan, TranscriptCursor } from './types.js';
import { HEAD_BYTES, LineCollector, NEWLINE, lineHash } from './line-collector.js';
import { errorMessage } from '../util/errors.js';

export type { RecordSpan, TranscriptCursor } from './types.js';

export type RescanReason = 'replaced' | 'shrunk' | 'boundary-mismatch';

export interface TranscriptRead {
  /** Parsed records (JSON objects), in file order. */
  records: unknown[];
  /** `spans[i]` locates `records[i]`. */
  spans: RecordSpan[];
  /** The cursor the read started from (a fresh one after a rescan). */
  startCursor: TranscriptCursor;
  /** Cursor after the last complete line read, junk lines included. */
  nextCursor: TranscriptCursor;
  /** True when a previous cursor was discarded and the file was read from byte 0. */
  rescanned: boolean;
  rescanReason?: RescanReason;
  /** Non-empty lines that were not JSON objects. */
  skippedLines: number;
  /** Bytes read from the file by this call, boundary check included. */
  bytesRead: number;
  /** False when `maxBytes` stopped the read before the end of the file. */
  atEnd: boolean;
  /** Set when the file could not be read; nothing was read and `nextCursor` is the cursor passed in (or a fresh one). */
  error?: string;
}

/** The part of a file handle the reader uses (node:fs/promises `FileHandle` fits). */
export interface ReadableFile {
  stat(options: { bigint: true }): Promise<{ dev: bigint; ino: bigint; size: bigint; isFile(): boolean }>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

export interface ReadTranscriptOptions {
  /** Stop after the first complete line that brings the bytes read past this (a longer line is still read whole). */
  maxBytes?: number;
  /** Size of each positioned read. Default 1 MiB. */
  chunkBytes?: number;
  /** Opens a file for reading; defaults to node:fs/promises `open` with {@link TRANSCRIPT_OPEN_FLAGS}. */
  openFile?: (path: string) => Promise<ReadableFile>;
}

const DEFAULT_CHUNK_BYTES = 1 << 20;

/** Read-only, never blocking in `open` (a FIFO), never adopting a terminal. */
export const TRANSCRIPT_OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The file's identity and size; throws for anything but a regular file (a FIFO or device never ends). */
async function regularFileStats(file: ReadableFile): Promise<{ dev: bigint; ino: bigint; size: bigint }> {
  const stats = await file.stat({ bigint: true });
  if (!stats.isFile()) throw new Error('not a regular file');
  return stats;
}
const BACKWARD_CHUNK_BYTES = 4096;

function freshCursor(path: string, fileId: string, size: number): TranscriptCursor {
  return { path, fileId, size, offset: 0, lastLineStart: 0, lastLineHash: '' };
}

async function readAt(
  file: ReadableFile,
  position: number,
  length: number,
  counter: { bytes: number },
): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  counter.bytes += filled;
  return buffer.subarray(0, filled);
}

/** Does the file still hold, right before `cursor.offset`, the line the cursor ended on? */
async function boundaryHolds(
  file: ReadableFile,
  cursor: TranscriptCursor,
  counter: { bytes: number },
): Promise<boolean> {
  const length = cursor.offset - cursor.lastLineStart;
  if (length <= 0) return false;
  const head = await readAt(file, cursor.lastLineStart, Math.min(length, HEAD_BYTES), counter);
  const last = length <= HEAD_BYTES ? head.subarray(length - 1) : await readAt(file, cursor.offset - 1, 1, counter);
  return (
    last[0] === NEWLINE && lineHash(head.subarray(0, Math.min(length, HEAD_BYTES)), length) === cursor.lastLineHash
  );
}

/** Where to start: the cursor when it still fits the file, else byte 0 and why. */
async function startingPoint(
  file: ReadableFile,
  path: string,
  fileId: string,
  size: number,
  cursor: TranscriptCursor | undefined,
  counter: { bytes: number },
): Promise<{ start: TranscriptCursor; reason?: RescanReason }> {
  const fresh = freshCursor(path, fileId, size);
  if (cursor === undefined || cursor.path !== path || cursor.offset <= 0) return { start: fresh };
  if (cursor.fileId !== fileId) return { start: fresh, reason: 'replaced' };
  if (size < cursor.offset) return { start: fresh, reason: 'shrunk' };
  if (!(await boundaryHolds(file, cursor, counter))) return { start: fresh, reason: 'boundary-mismatch' };
  return { start: cursor };
}

function cursorFrom(base: TranscriptCursor, collector: LineCollector, size: number): TranscriptCursor {
  const cursor: TranscriptCursor = {
    path: base.path,
    fileId: base.fileId,
    size,
    offset: collector.end,
    lastLineStart: collector.lastLineStart,
    lastLineHash: collector.lastLineHash,
  };
  if (collector.lastRecordId !== undefined) cursor.lastRecordId = collector.lastRecordId;
  return cursor;
}

function failedRead(path: string, cursor: TranscriptCursor | undefined, error: unknown): TranscriptRead {
  const start = cursor ?? freshCursor(path, '', 0);
  return {
    records: [],
    spans: [],
    startCursor: start,
    nextCursor: start,
    rescanned: false,
    skippedLines: 0,
    bytesRead: 0,
    atEnd: true,
    error: errorMessage(error),
  };
}

async function readOpenFile(
  file: ReadableFile,
  path: string,
  cursor: TranscriptCursor | undefined,
  options: ReadTranscriptOptions,
): Promise<TranscriptRead> {
  const counter = { bytes: 0 };
  const stats = await regularFileStats(file);
  const size = Number(stats.size);
  const { start, reason } = await startingPoint(file, path, `${stats.dev}:${stats.ino}`, size, cursor, counter);
  const collector = new LineCollector(start);
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const stopAfter = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let position = start.offset;
  let atEnd = true;
  while (position < size) {
    const chunk = await readAt(file, position, Math.min(chunkBytes, size - position), counter);
    if (chunk.length === 0) break;
    position += chunk.length;
    if (!collector.feed(chunk, start.offset, stopAfter)) {
      atEnd = collector.end >= size;
      break;
    }
  }
  const read: TranscriptRead = {
    records: collector.records,
    spans: collector.spans,
    startCursor: start,
    nextCursor: cursorFrom(start, collector, size),
    rescanned: reason !== undefined,
    skippedLines: collector.skippedLines,
    bytesRead: counter.bytes,
    atEnd,
  };
  if (reason !== undefined) read.rescanReason = reason;
  return read;
}

/** Runs `work` on the opened file and closes it; any failure becomes `onError(error)`. */
async function withFile<T>(
  path: string,
  options: ReadTranscriptOptions,
  work: (file: ReadableFile) => Promise<T>,
  onError: (error: unknown) => T,
): Promise<T> {
  let file: ReadableFile;
  try {
    file = await (options.openFile ?? ((target: string) => openFile(target, TRANSCRIPT_OPEN_FLAGS)))(path);
  } catch (error) {
    return onError(error);
  }
  try {
    return await work(file);
  } catch (error) {
    return onError(error);
  } finally {
    await file.close().catch(() => undefined); // nothing useful to do about a failed close of a read-only handle
  }
}

/**
 * Reads the complete lines appended since `cursor` (or the whole file without
 * one). Never throws: a missing or unreadable file gives `error` and no records.
 */
export async function readTranscriptTail(
  path: string,
  cursor: TranscriptCursor | undefined,
  options: ReadTranscriptOptions = {},
): Promise<TranscriptRead> {
  return withFile(
    path,
    options,
    (file) => readOpenFile(file, path, cursor, options),
    (error) => failedRead(path, cursor, error),
  );
}

/**
 * Offset just after the last newline before `before`, scanning backwards in
 * chunks that start small (most lines are short) and double up to
 * `maxChunkBytes`; 0 when there is none.
 */
async function lineStartBefore(
  file: ReadableFile,
  before: number,
  maxChunkBytes: number,
  counter: { bytes: number },
): Promise<number> {
  let chunkBytes = Math.min(BACKWARD_CHUNK_BYTES, maxChunkBytes);
  for (let end = before; end > 0; chunkBytes = Math.min(chunkBytes * 2, maxChunkBytes)) {
    const start = Math.max(0, end - chunkBytes);
    const chunk = await readAt(file, start, end - start, counter);
    const newline = chunk.lastIndexOf(NEWLINE);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}

async function cursorAtEndOfOpenFile(
  file: ReadableFile,
  path: string,
  options: ReadTranscriptOptions,
): Promise<{ cursor: TranscriptCursor; bytesRead: number }> {
  const counter = { bytes: 0 };
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const stats = await regularFileStats(file);
  const size = Number(stats.size);
  const fresh = freshCursor(path, `${stats.dev}:${stats.ino}`, size);
  const offset = await lineStartBefore(file, size, chunkBytes, counter); // just after the last complete line
  if (offset === 0) return { cursor: fresh, bytesRead: counter.bytes };
  const lineStart = await lineStartBefore(file, offset - 1, chunkBytes, counter);
  const collector = new LineCollector({ ...fresh, offset: lineStart });
  collector.feed(await readAt(file, lineStart, offset - lineStart, counter), lineStart, Number.POSITIVE_INFINITY);
  return { cursor: cursorFrom(fresh, collector, size), bytesRead: counter.bytes };
}

/**
 * A cursor at the end of the file's last complete line, found by reading
 * backwards (cost: the last line, not the file). For following a transcript
 * from now on without decoding its history. Never throws.
 */
export async function cursorAtEnd(
  path: string,
  options: ReadTranscriptOptions = {},
): Promise<{ cursor: TranscriptCursor; bytesRead: number; error?: string }> {
  return withFile(
    path,
    options,
    (file) => cursorAtEndOfOpenFile(file, path, options),
    (error) => ({ cursor: freshCursor(path, '', 0), bytesRead: 0, error: errorMessage(error) }),
  );
}

/**
 * The cursor that resumes right after the first `count` records of `read`
 * (e.g. `count` = a decoder's `consumed`, so held-back records are read
 * again). `count` 0 gives the cursor the read started from.
 */
export function cursorAfterRecords(read: TranscriptRead, count: number): TranscriptCursor {
  if (count >= read.records.length) return read.nextCursor;
  const span = count <= 0 ? undefined : read.spans[count - 1];
  if (span === undefined) return read.startCursor;
  const cursor: TranscriptCursor = {
    path: read.nextCursor.path,
    fileId: read.nextCursor.fileId,
    size: read.nextCursor.size,
    offset: span.end,
    lastLineStart: span.start,
    lastLineHash: span.hash,
  };
  if (span.id !== undefined) cursor.lastRecordId = span.id;
  return cursor;
}
