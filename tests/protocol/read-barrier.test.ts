/**
 * The read barrier (src/protocol/readBarrier.ts, F45). CodeBuddy 2.117 takes
 * as a hook's answer what its stdout delivered by the child's `exit` event,
 * then destroys the stream: an answer the host had not read by then was lost
 * (the start block, 1 run in ~5 on a loaded machine). The bundled hook,
 * spawned as node spawns a child (its stdio an AF_UNIX socket pair, like
 * the host's), with a reader that does not read: under CodeBuddy's env it
 * cannot exit until the answer is read, and what was read when it exits is
 * the whole answer; under Claude Code's env (which reads to the end, D28)
 * it writes the answer alone and exits at once.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FALLBACK_SOCKET_BYTES,
  socketBufferBytes,
  socketBytesFrom,
  withReadBarrier,
} from '../../src/protocol/readBarrier.js';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const CODEBUDDY = { CODEBUDDY_PLUGIN_ROOT: '/plugin' };

describe('withReadBarrier', () => {
  it('pads a CodeBuddy answer with more blank space than the socket buffer holds (a 64 KiB margin), and nothing else', () => {
    const padded = withReadBarrier('{"a":1}', CODEBUDDY, () => 200_000);
    expect(padded.startsWith('{"a":1}')).toBe(true);
    expect(padded.length).toBe('{"a":1}'.length + 200_000 + 64 * 1024 + 1);
    expect(padded.trim()).toBe('{"a":1}');
  });

  it('leaves an empty answer, and every answer outside CodeBuddy, as it is', () => {
    expect(withReadBarrier('', CODEBUDDY, () => 200_000)).toBe('');
    expect(withReadBarrier('{"a":1}', { CLAUDE_PLUGIN_ROOT: '/plugin' }, () => 200_000)).toBe('{"a":1}');
  });

  it('never pads less than a pipe holds, and reads the send buffer or falls back', () => {
    expect(withReadBarrier('x', CODEBUDDY, () => 8192).length).toBe(1 + 2 * 64 * 1024 + 1);
    expect(socketBytesFrom('212992\n')).toBe(212_992);
    for (const text of [undefined, '', 'none', '-1']) expect(socketBytesFrom(text)).toBe(FALLBACK_SOCKET_BYTES);
    expect(socketBufferBytes()).toBeGreaterThan(0);
  });
});

const sandbox = mkdtempSync(join(tmpdir(), 'ov-read-barrier-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

interface Spawned {
  /** Resolves when the child exits, with what had been read by then. */
  exited: Promise<{ code: number | null; readBeforeExit: string }>;
  startReading(): void;
}

/** The bundled hook with a PreToolUse deny event, its stdout not read until asked. */
function spawnDeny(env: Record<string, string>): Spawned {
  const home = join(sandbox, `home-${Math.random().toString(36).slice(2)}`);
  mkdirSync(home);
  const child = spawn(process.execPath, [join(REPO_ROOT, HOOK_ENTRY)], {
    env: { PATH: process.env.PATH ?? '', HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9', ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  child.stdout.pause();
  let read = '';
  const exited = new Promise<{ code: number | null; readBeforeExit: string }>((resolve) => {
    child.on('exit', (code) => {
      const readBeforeExit = read; // what the host has when it destroys the stream
      child.stdout.destroy();
      resolve({ code, readBeforeExit });
    });
  });
  child.stdin.end(
    JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 'read-barrier',
      cwd: home,
      tool_name: 'Read',
      tool_input: { file_path: 'viking://user/memories/x.md' },
    }),
  );
  return {
    exited,
    startReading() {
      child.stdout.on('data', (chunk: Buffer) => (read += chunk.toString('utf8')));
      child.stdout.resume();
    },
  };
}

/** Whether `promise` settles within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('the bundled hook over a socket its reader has not read', () => {
  it('on CodeBuddy: does not exit before the answer is read, and the answer is whole when it does', async () => {
    const hook = spawnDeny(CODEBUDDY);
    // However long the host waits before it reads, the hook is still there: its write cannot complete.
    expect(await settlesWithin(hook.exited, 1500)).toBe(false);
    hook.startReading();
    const { code, readBeforeExit } = await hook.exited;
    expect(code).toBe(0);
    const answer = JSON.parse(readBeforeExit.trim()) as { hookSpecificOutput?: { permissionDecision?: string } };
    expect(answer.hookSpecificOutput?.permissionDecision).toBe('deny');
  }, 20_000);

  it('on Claude Code: writes the answer alone and exits without waiting for the reader', async () => {
    const hook = spawnDeny({ CLAUDE_PLUGIN_ROOT: '/plugin' });
    const { code, readBeforeExit } = await hook.exited;
    expect(code).toBe(0);
    expect(readBeforeExit).toBe(''); // nothing read: an exit first, which Claude Code's reader survives
  }, 20_000);
});
