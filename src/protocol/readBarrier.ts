/**
 * CodeBuddy 2.117 takes a hook's answer to be what its stdout delivered by
 * the time the hook process's `exit` event fires, and destroys the pipe
 * there (F45): an answer still in the socket's buffer at that moment is
 * lost. On a loaded machine that happened to the start block (1 run in ~5
 * with three busy loops beside the CLI: the hook wrote it, the host never
 * logged "SessionStart hook provided additional context") and, in CI, to
 * the recall block too; a lost deny would let the tool run.
 *
 * The barrier: the answer followed by more blank space than the socket can
 * hold (its send buffer and a margin: what a stream socket queues is charged
 * with its buffers' overhead, so the payload that fits is somewhat less than
 * the buffer, never more), so the write returns only once the host has read
 * the answer itself, and the process exits after that. Every byte of it is
 * written, and read by the host, on every answer: twice the buffer, as it
 * was, cost the prompt ~1 ms more than once and the margin (D44). The host trims the stdout before it
 * parses it (bundle `parseHookOutput`), so the answer means the same.
 * Only on CodeBuddy: Claude Code reads a hook's output to its end, and
 * counts what it reads against its 10,000-unit limit (D28).
 *
 * @module
 */
import { readFileSync } from 'node:fs';

type Env = Readonly<Record<string, string | undefined>>;

/** Linux's default send buffer of a socket: what the host's stdio socket holds unread. */
const SOCKET_BUFFER_FILE = '/proc/sys/net/core/wmem_default';

/**
 * What a stdio socket of the host holds at most when nothing reads it: an AF_UNIX stream socket queues up to its
 * send buffer (`net.core.wmem_default` on Linux, 212,992 bytes here; 200,000 bytes fit, 220,000 did not), pipes
 * hold 64 KiB, macOS sockets 8 KiB. Used when the Linux value cannot be read.
 */
export const FALLBACK_SOCKET_BYTES = 256 * 1024;

/** Blank space past the socket's send buffer: the smallest buffer counted (a pipe's) again. */
const PADDING_MARGIN_BYTES = 64 * 1024;

/**
 * The bytes a hook writes for `answer`: with the barrier when CodeBuddy runs the hook (it sets
 * `CODEBUDDY_PLUGIN_ROOT` for every hook, F1), as they are elsewhere (Claude Code, a person's shell) or when empty.
 */
export function withReadBarrier(answer: string, env: Env, socketBytes: () => number): string {
  if (answer === '' || !env.CODEBUDDY_PLUGIN_ROOT) return answer;
  return `${answer}${' '.repeat(Math.max(socketBytes(), PADDING_MARGIN_BYTES) + PADDING_MARGIN_BYTES)}\n`;
}

/** The socket send buffer from `net.core.wmem_default`'s text, or the fallback. */
export function socketBytesFrom(procText: string | undefined): number {
  const value = Number.parseInt(procText ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : FALLBACK_SOCKET_BYTES;
}

/** This machine's socket send buffer (one small read of /proc, only when there is an answer to send). */
export function socketBufferBytes(): number {
  try {
    return socketBytesFrom(readFileSync(SOCKET_BUFFER_FILE, 'latin1'));
  } catch {
    return FALLBACK_SOCKET_BYTES; // not Linux
  }
}
