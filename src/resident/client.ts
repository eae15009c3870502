/**
 * The hook's side of the resident: hand the event to a running resident
 * and wait for its answer, with synchronous file calls only.
 *
 * Why synchronous: this runs in the prompt hook, whose whole budget over a
 * bare `node -e 0` is a few milliseconds after node's own ESM start-up.
 * A socket would load `node:net` (~3.5 ms) and an event-loop round trip per
 * step; a FIFO opened non-blocking, a small file and a sleep on
 * `Atomics.wait` cost microseconds and load nothing (DESIGN D16).
 *
 * The steps, each of which can only end in an answer the caller can act on:
 * 1. open the FIFO for writing, non-blocking: ENOENT or ENXIO (nobody reads
 *    it) means no resident is listening → `absent`, before any time is spent;
 * 2. write the request as one line `<id> <json>` when it fits in PIPE_BUF
 *    (one atomic write: ~0.5 ms less than a file on both sides), else the
 *    request file and then `<id>` alone; a full pipe means the resident
 *    stopped reading → it is retired and the answer is `absent`;
 * 3. poll for the reply file for `waitMs`, measured on a monotonic clock
 *    (a wall-clock step must never stretch the wait past the hook timeout);
 *    past it the answer is `late` (the prompt then goes on without
 *    memories, inside the hook's budget) and the resident is retired: its
 *    FIFO is unlinked, so the next hook starts a fresh one, and the old one
 *    exits when it notices. An EMPTY reply file is the resident saying it
 *    could not write its answer (a full disk): `failed`, at once, and the
 *    caller runs the stage itself.
 *
 * @module
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { StageResult } from '../protocol/stage.js';
import { PRIVATE_FILE_MODE } from '../store/atomic.js';
import { removeFileQuietly } from '../store/fsUtil.js';
import { errorCode } from '../util/errors.js';
import { uniqueToken } from '../store/fastHash.js';
import { residentPaths } from './identity.js';
import type { ResidentPaths } from './identity.js';
import { decodeReply, encodeRequest } from './wire.js';
import type { ResidentRequest } from './wire.js';

export type ResidentAnswer =
  | { kind: 'answered'; result: StageResult }
  /** No resident took the request: the caller runs the stage itself. */
  | { kind: 'absent'; reason: string }
  /** A resident took the request but did not answer in time: pass the prompt through. */
  | { kind: 'late' }
  /** The resident could not write its answer (full disk): the caller runs the stage itself. */
  | { kind: 'failed' };

export interface ResidentCall {
  dataDir: string;
  key: string;
  request: ResidentRequest;
  /** How long the hook waits for the reply. */
  waitMs: number;
  /** A monotonic clock in ms (never the wall clock, which can step). */
  monotonicMs(): number;
  pid: number;
  /** A request line up to this size goes through the FIFO itself (StageDeps.pipeAtomicBytes). */
  pipeAtomicBytes: number;
}

/** Poll pause after `waitedMs`: tight while a warm resident is expected to answer, then coarser. */
function pollPauseMs(waitedMs: number): number {
  if (waitedMs < 20) return 0.1;
  return waitedMs < 200 ? 0.5 : 2;
}

let sleepCell: Int32Array | undefined;

/** Blocks the thread for `ms` (fractions allowed) without spinning. */
function sleepSync(ms: number): void {
  sleepCell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleepCell, 0, 0, ms);
}

/** Never throws: any failure before the request is taken is `absent`. */
export function askResident(call: ResidentCall): ResidentAnswer {
  const paths = residentPaths(call.dataDir, call.key);
  let fifo: number;
  try {
    fifo = openSync(paths.fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { kind: 'absent', reason: errorCode(error) ?? 'open failed' };
  }
  const id = `${call.pid}-${uniqueToken()}`;
  try {
    const json = encodeRequest(call.request);
    const inline = `${id} ${json}\n`;
    if (Buffer.byteLength(inline) <= call.pipeAtomicBytes) {
      writeSync(fifo, inline);
    } else {
      writeFileSync(paths.request(id), json, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      writeSync(fifo, `${id}\n`);
    }
  } catch (error) {
    removeFileQuietly(paths.request(id));
    if (errorCode(error) === 'EAGAIN') retire(paths, fifo);
    closeQuietly(fifo);
    return { kind: 'absent', reason: errorCode(error) ?? 'request failed' };
  }
  const answer = awaitReplySafely(paths, id, call);
  if (answer.kind === 'late') {
    removeFileQuietly(paths.request(id));
    retire(paths, fifo);
  }
  closeQuietly(fifo);
  return answer;
}

/** A file-system error while waiting (EACCES, EIO) ends the wait like a missing answer. */
function awaitReplySafely(paths: ResidentPaths, id: string, call: ResidentCall): ResidentAnswer {
  try {
    return awaitReply(paths, id, call);
  } catch {
    return { kind: 'late' };
  }
}

function awaitReply(paths: ResidentPaths, id: string, call: ResidentCall): ResidentAnswer {
  const replyPath = paths.reply(id);
  const startedAt = call.monotonicMs();
  for (;;) {
    if (statSync(replyPath, { throwIfNoEntry: false }) !== undefined) {
      const text = readFileSync(replyPath, 'utf8');
      removeFileQuietly(replyPath);
      if (text === '') return { kind: 'failed' };
      const result = decodeReply(text);
      return result === undefined ? { kind: 'late' } : { kind: 'answered', result };
    }
    const waitedMs = call.monotonicMs() - startedAt;
    if (waitedMs >= call.waitMs) return { kind: 'late' };
    sleepSync(Math.min(pollPauseMs(waitedMs), call.waitMs - waitedMs));
  }
}

/**
 * Unlinks the FIFO this call wrote to, if it is still the one at the path
 * (a newer resident's FIFO is left alone): later hooks then find no
 * resident and start a fresh one.
 */
function retire(paths: ResidentPaths, fifo: number): void {
  try {
    const opened = fstatSync(fifo);
    const current = statSync(paths.fifo, { throwIfNoEntry: false });
    if (current !== undefined && current.ino === opened.ino && current.dev === opened.dev) unlinkSync(paths.fifo);
  } catch {
    // Already gone or replaced: nothing to retire.
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing left to release.
  }
}
