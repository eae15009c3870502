/**
 * Reads a hook's stdin once, with a size bound and a time bound.
 *
 * The host writes the whole payload and closes the pipe, but a hook must
 * also survive being run by hand (a TTY), a closed stdin, a writer that never
 * closes, and a payload far larger than any real one (a Write of a huge
 * file): past the bound it stops reading and the dispatcher passes, rather
 * than buffering without end.
 *
 * @module
 */

/** Why reading ended; only `complete` carries a usable payload. */
export type StdinStatus = 'complete' | 'tty' | 'overflow' | 'timeout' | 'error';

export interface StdinResult {
  status: StdinStatus;
  text: string;
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

/**
 * @param source - the stream to read.
 * @param maxBytes - above this the stream is dropped and the status is `overflow`.
 * @param timeoutMs - a stream still open after this reads as `timeout`.
 */
export function readBoundedStdin(source: StdinSource, maxBytes: number, timeoutMs: number): Promise<StdinResult> {
  if (source.isTTY) return Promise.resolve({ status: 'tty', text: '' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
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
