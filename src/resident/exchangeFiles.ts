/**
 * The resident's own files: its FIFO, made once it holds its lock, and its
 * side of the exchange files (wire.ts says what they hold): a large request
 * read once and removed, a reply written whole.
 *
 * @module
 */
import { closeSync, openSync, statSync } from 'node:fs';
import type { Logger, StageResult } from '../protocol/stage.js';
import { PRIVATE_FILE_MODE, writeFileAtomicSync } from '../store/atomic.js';
import { removeFileQuietly } from '../store/fsUtil.js';
import { readSmallFile } from '../store/smallFile.js';
import { errorMessage } from '../util/errors.js';
import { encodeReply } from './wire.js';

/** Largest request file read (a hook's stdin is bounded well below). */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** Reads and removes a request file; undefined when it is gone or too big. */
export function readRequest(path: string): string | undefined {
  const text = readSmallFile(path, MAX_REQUEST_BYTES).text;
  removeFileQuietly(path);
  return text;
}

/**
 * Writes the reply whole (temp + rename). When that fails (a full disk:
 * ENOSPC), an EMPTY reply file says "failed": it needs an inode but no
 * data block, so it still fits, and the hook then runs the stage itself at
 * once instead of waiting out its 6 s (client.ts).
 */
export function writeReply(path: string, result: StageResult, log: Logger): void {
  try {
    writeFileAtomicSync(path, encodeReply(result));
  } catch (error) {
    log.warn('resident: cannot write a reply; telling the hook it failed', { path, error: errorMessage(error) });
    try {
      closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
    } catch {
      // Not even an empty file: the hook waits until its deadline, as for a stopped resident.
    }
  }
}

/** Which file a path was when it was made: a FIFO replaced at the same path is another file. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** Makes the resident's FIFO afresh at `path` (any old one removed); undefined when it cannot. */
export function makeOwnFifo(
  host: { makeFifo(path: string): void; log: Logger },
  path: string,
): FileIdentity | undefined {
  try {
    removeFileQuietly(path);
    host.makeFifo(path);
    const { dev, ino } = statSync(path);
    return { dev, ino };
  } catch (error) {
    host.log.warn('resident: cannot make its FIFO; prompt hooks run recall themselves', { error: errorMessage(error) });
    return undefined;
  }
}
