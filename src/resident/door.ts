/**
 * The resident's door (DESIGN D45): how hooks/relay.sh hands a prompt or a
 * session start to a running resident with no node on its side.
 *
 * A shell cannot compute the resident's key (identity.ts hashes the
 * configuration variables), but it can print its whole exported environment
 * through `cksum`: that "print" stands for exactly one environment, and so
 * for one key. A node hook started by relay.sh carries the print in its
 * request (`ResidentRequest.door`); the resident of that hook's key then
 * opens a door for it: `door-<print>` in its directory, naming its key and
 * pid, and remembers the request's per-session variables (the project
 * directory), which are part of that environment. The next hook of that
 * environment finds the door and sends `<id> @<print>` down the FIFO, with
 * its working directory and the host's payload in `<key>-<id>.request`.
 *
 * The answer goes back through a FIFO the script made, `<key>-<id>.reply`,
 * which it reads to its end with `cat`, straight to the host: the resident
 * writes the exact bytes a node hook would have written (hook/main.ts:
 * the envelope, then the read barrier on CodeBuddy). A print this resident
 * does not know (it was started after the door was opened) is answered by
 * closing the reply without touching the request, which tells the script to
 * go to node (relay.sh).
 *
 * Doors are this process's: closed (their files removed) when it retires,
 * at most MAX_DOORS of them (the least recently used closed first), and a
 * door file whose resident died is removed by any resident's sweep
 * (housekeeping.ts), while the script already refuses one by its pid.
 *
 * @module
 */
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../store/atomic.js';
import { removeFileQuietly } from '../store/fsUtil.js';
import { hookInputFromJson } from '../protocol/parse.js';
import type { HookInput } from '../protocol/input.js';
import { parseJson } from '../util/json.js';
import { errorCode } from '../util/errors.js';

/** `cksum`'s CRC and byte count, as relay.sh joins them. */
export const DOOR_PRINT = /^[0-9]{1,10}-[0-9]{1,12}$/;
/** A door file of any resident; group 1 is its print. */
export const DOOR_FILE = /^door-([0-9]{1,10}-[0-9]{1,12})$/;
/** Doors one resident keeps open (one per environment it served: per session, about). */
export const MAX_DOORS = 64;
/** How often the resident tries again to open a reply FIFO whose reader (`cat`) has not opened it yet. */
const OPEN_RETRY_MS = 1;

export function doorPath(dir: string, print: string): string {
  return join(dir, `door-${print}`);
}

/** The doors one resident opened: print → the per-session variables of its environment. */
export class DoorRegistry {
  private readonly doors = new Map<string, Record<string, string>>();

  constructor(
    private readonly dir: string,
    private readonly key: string,
    private readonly pid: number,
  ) {}

  /** Opens (or refreshes) the door for `print`; a malformed print opens nothing. Never throws. */
  open(print: string, requestEnv: Record<string, string>): void {
    if (!DOOR_PRINT.test(print)) return;
    this.doors.delete(print);
    this.doors.set(print, requestEnv);
    // A node hook came for it: its file may be gone (a sweep's race, a hook that gave up on a late answer).
    if (readDoorFile(doorPath(this.dir, print))?.pid !== this.pid) this.writeDoorFile(print);
    for (const oldest of this.doors.keys()) {
      if (this.doors.size <= MAX_DOORS) break;
      this.close(oldest);
    }
  }

  /** The per-session variables behind `print`, or undefined when this resident has no such door. */
  lookup(print: string): Record<string, string> | undefined {
    const env = this.doors.get(print);
    if (env !== undefined) {
      this.doors.delete(print);
      this.doors.set(print, env);
    }
    return env;
  }

  /** Closes every door (on retirement), leaving a file another resident has written since alone. */
  closeAll(): void {
    for (const print of [...this.doors.keys()]) this.close(print);
  }

  private close(print: string): void {
    this.doors.delete(print);
    const path = doorPath(this.dir, print);
    if (readDoorFile(path)?.pid === this.pid) removeFileQuietly(path);
  }

  private writeDoorFile(print: string): void {
    try {
      writeFileAtomicSync(doorPath(this.dir, print), `${this.key} ${String(this.pid)}\n`);
    } catch {
      this.doors.delete(print); // without its file nobody comes through it
    }
  }
}

/** A door file's key and pid, as relay.sh reads them (`read -r key pid`). */
export function readDoorFile(path: string): { key: string; pid: number } | undefined {
  try {
    const [key, pid] = readFileSync(path, 'latin1').trim().split(' ');
    const number = Number(pid);
    return key !== undefined && /^[0-9a-f]{16}$/.test(key) && Number.isSafeInteger(number) && number > 0
      ? { key, pid: number }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A door request file: the hook's working directory, a newline, the host's payload (relay.sh). */
export function decodeDoorRequest(text: string): { cwd: string; input: HookInput } | undefined {
  const newline = text.indexOf('\n');
  if (newline <= 0) return undefined;
  const input = hookInputFromJson(parseJson(text.slice(newline + 1)));
  return input === null ? undefined : { cwd: text.slice(0, newline), input };
}

/**
 * Writes `bytes` to the reply FIFO at `path` once the script's `cat` has
 * it open, then closes it: `cat` reaches its end and the script exits.
 * Opened non-blocking, so the event loop never waits on a reader that is
 * not there yet (ENXIO: tried again every millisecond) or never comes
 * (given up at `deadline`, a monotonic ms). The FIFO is unlinked as soon as
 * it is open: the script has nothing left to remove.
 * @returns whether every byte was handed over.
 */
export async function answerThroughFifo(
  path: string,
  bytes: string,
  deadline: number,
  monotonicMs: () => number,
): Promise<boolean> {
  const fd = await openWhenRead(path, deadline, monotonicMs);
  removeFileQuietly(path);
  if (fd === undefined) return false;
  if (bytes === '') {
    closeSync(fd);
    return true;
  }
  return new Promise((resolve) => {
    const socket = new Socket({ fd, readable: false, writable: true });
    const timer = setTimeout(() => socket.destroy(), Math.max(0, deadline - monotonicMs()));
    socket.on('error', () => undefined);
    socket.on('close', (hadError) => {
      clearTimeout(timer);
      resolve(!hadError && socket.bytesWritten >= Buffer.byteLength(bytes));
    });
    socket.end(bytes);
  });
}

async function openWhenRead(path: string, deadline: number, monotonicMs: () => number): Promise<number | undefined> {
  for (;;) {
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if (errorCode(error) !== 'ENXIO' || monotonicMs() >= deadline) return undefined;
    }
    await new Promise((resolve) => setTimeout(resolve, OPEN_RETRY_MS));
  }
}
