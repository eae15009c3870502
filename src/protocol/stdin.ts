/**
 * Reads a hook's stdin once, with a size bound and a time bound.
 *
 * The host writes the whole payload and closes the pipe, but a hook must
 * also survive being run by hand (a TTY), a closed stdin, a writer that never
 * closes, and a payload far larger than any real one (a Write of a huge
 * file): past the bound it stops reading and the dispatcher passes, rather
 * than buffering without end.
 *
 * Fast path first (`readHookStdin`): one synchronous read of fd 0. Creating
 * `process.stdin` on the host's pipe or socket loads node's stream stack
 * and `net` (~25 internal modules, ~8 ms of a ~75 ms hook), while a real
 * payload (a few KB, written at once) arrives whole in that one read. When
 * the bytes read are a whole JSON object the hook goes on without waiting
 * for end-of-file; anything else (a partial payload, a big one, a read
 * error, a non-blocking fd) continues on the stream reader below, which
 * keeps the time bound. The one case neither can bound is a writer that
 * opens the pipe and never writes a byte: the synchronous read waits for
 * the host's own timeout, as a `cat`-based hook would (DESIGN D14).
 *
 * @module
 */
import { parseJson } from '../util/json.js';

/** Why reading ended; only `complete` carries a usable payload. */
export type StdinStatus = 'complete' | 'tty' | 'overflow' | 'timeout' | 'error';

export interface StdinResult {
  status: StdinStatus;
  text: string;
  /** The parsed JSON of `text`, when the fast path had to parse it anyway. */
  json?: unknown;
}

/** The part of a Node readable stream the reader uses (process.stdin in production). */
export interface StdinSource {
  readonly isTTY?: boolean;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(): unknown;
  destroy(): unknown;
}

/** 4 MiB: real payloads are kilobytes; a Write of a large file can reach hundreds of KiB. */
export const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/** Size of the one synchronous read: larger than any payload but a big Write's. */
const FIRST_READ_BYTES = 256 * 1024;

/** Synchronous access to file descriptor 0 (node:fs in production). */
export interface StdinFd {
  /** A terminal (the hook run by hand) or /dev/null: nothing to wait for. */
  isCharacterDevice(): boolean;
  /** Bytes read into `buffer`, 0 at end of input; throws when fd 0 cannot be read this way. */
  readSync(buffer: Uint8Array): number;
}

/** `text` parsed, when it is one whole JSON object (the shape of every hook payload); else undefined. */
function wholeJsonObject(text: string): object | undefined {
  if (!text.trimEnd().endsWith('}')) return undefined;
  const value = parseJson(text);
  return typeof value === 'object' && value !== null ? value : undefined;
}

/** Windows reports the end of a pipe as an `EOF` error rather than a 0-byte read. */
function isEndOfInput(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EOF';
}

/**
 * Reads the hook payload: one synchronous read, then the stream reader only
 * when that read did not give a whole payload or end of input.
 *
 * @param fd - fd 0, read synchronously first.
 * @param openStream - the stream over the same fd (`() => process.stdin`), created only when needed.
 */
export function readHookStdin(
  fd: StdinFd,
  openStream: () => StdinSource,
  maxBytes: number,
  timeoutMs: number,
): Promise<StdinResult> {
  let isTerminal = false;
  try {
    isTerminal = fd.isCharacterDevice();
  } catch {
    // Unknown fd type: the stream reader below finds out what it is.
  }
  if (isTerminal) return Promise.resolve({ status: 'tty', text: '' });
  let first: Buffer;
  try {
    const buffer = Buffer.allocUnsafe(Math.min(FIRST_READ_BYTES, maxBytes + 1));
    first = buffer.subarray(0, fd.readSync(buffer));
  } catch (error) {
    if (isEndOfInput(error)) return Promise.resolve({ status: 'complete', text: '' });
    return readBoundedStdin(openStream(), maxBytes, timeoutMs);
  }
  if (first.length === 0) return Promise.resolve({ status: 'complete', text: '' });
  if (first.length > maxBytes) return Promise.resolve({ status: 'overflow', text: '' });
  const text = first.toString('utf8');
  const json = wholeJsonObject(text);
  if (json !== undefined) return Promise.resolve({ status: 'complete', text, json });
  return readBoundedStdin(openStream(), maxBytes, timeoutMs, first);
}

/**
 * @param source - the stream to read.
 * @param maxBytes - above this the stream is dropped and the status is `overflow`.
 * @param timeoutMs - a stream still open after this reads as `timeout`.
 * @param alreadyRead - bytes of the same input read before the stream was opened.
 */
export function readBoundedStdin(
  source: StdinSource,
  maxBytes: number,
  timeoutMs: number,
  alreadyRead?: Buffer,
): Promise<StdinResult> {
  if (source.isTTY) return Promise.resolve({ status: 'tty', text: '' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = alreadyRead ? [alreadyRead] : [];
    let size = alreadyRead?.length ?? 0;
    let done = false;
    const finish = (status: StdinStatus): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      source.removeAllListeners();
      source.on('error', () => undefined);
      if (status !== 'complete') source.destroy();
      resolve({ status, text: status === 'complete' ? Buffer.concat(chunks).toString('utf8') : '' });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    source.on('data', (chunk) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) return finish('overflow');
      chunks.push(buffer);
    });
    source.on('end', () => finish('complete'));
    source.on('close', () => finish('complete'));
    source.on('error', () => finish('error'));
  });
}
