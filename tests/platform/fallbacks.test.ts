/**
 * Where the plugin relies on Linux, the fallback it takes elsewhere, each
 * proven by taking the Linux piece away here (DESIGN D20, OS table; issue
 * 15 item 7): no procfs (macOS, Git Bash) for the lock's zombie check, no
 * `setsid` (macOS, Git Bash) for detach.sh, no `mkfifo` (a system without
 * FIFOs) for the resident, PIPE_BUF 512 (macOS) for inline requests, and
 * no FIFOs at all (Windows) for the prompt relay.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pipeAtomicBytes } from '../../src/hook/nodeDeps.js';
import { residentWanted } from '../../src/resident/launch.js';
import { defaultIsProcessAlive, tryLock } from '../../src/store/lock.js';
import { createWorld as createCaptureWorld, until } from '../capture/support/world.js';
import type { CaptureWorld } from '../capture/support/world.js';
import { contextOf, createWorld, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { residentPids } from '../support/detached.js';
import { debugLines } from '../support/resident.js';
import { startZombie, waitFor } from '../store/fixtures/processes.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A PATH directory holding only `tools` (symlinks to the real ones): what a leaner OS would have. */
function leanPath(tools: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ov-lean-path-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const where: Record<string, string> = { node: process.execPath, sh: '/bin/sh', head: '/usr/bin/head' };
  for (const tool of tools) symlinkSync(where[tool] ?? `/usr/bin/${tool}`, join(dir, tool));
  return dir;
}

describe('no procfs (macOS, Git Bash): the lock', () => {
  it('a zombie holder counts as alive without /proc, and its lock is reclaimed once its heartbeat is stale', async () => {
    const { pid, parent } = await startZombie();
    cleanups.push(() => void parent.kill('SIGKILL'));
    expect(defaultIsProcessAlive(pid)).toBe(false); // Linux: procfs says Z
    const noProc = (candidate: number) => defaultIsProcessAlive(candidate, join(tmpdir(), 'no-procfs-here'));
    expect(noProc(pid)).toBe(true); // elsewhere: signal 0 alone, a zombie exists

    const dir = mkdtempSync(join(tmpdir(), 'ov-lock-noproc-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const lockPath = join(dir, 'held.lock');
    expect((await tryLock(lockPath, { now: Date.now, staleMs: 30_000, pid })).ok).toBe(true);
    expect(await tryLock(lockPath, { now: Date.now, staleMs: 30_000, isProcessAlive: noProc })).toMatchObject({
      ok: false,
      reason: 'busy',
    });
    const later = () => Date.now() + 31_000;
    expect((await tryLock(lockPath, { now: later, staleMs: 30_000, isProcessAlive: noProc })).ok).toBe(true);
  });
});

describe('no setsid (macOS, Git Bash): detach.sh', () => {
  let world: CaptureWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('still hands Stop to a background node, and the turn is captured', async () => {
    world = await createCaptureWorld();
    const w = world;
    const path = leanPath(['sh', 'head', 'node']);
    w.appendTurn('question without setsid', 'answer without setsid');
    const stop = await w.sim.fire('Stop', w.p.stop('answer without setsid'), { env: { PATH: path } });
    expect(stop.timedOut).toBe(false);
    await until(() => w.storedTexts().length >= 2, 15_000, 'turn captured without setsid');
    expect(w.storedTexts()).toEqual(['question without setsid', 'answer without setsid']);
  }, 30_000);
});

describe('no mkfifo (a file system or OS without FIFOs): the resident', () => {
  it('the resident cannot make its FIFO and leaves; prompts recall in the hook', async () => {
    const w: World = await createWorld({ resident: true, env: { OPENVIKING_DEBUG: '1' } });
    cleanups.push(() => w.dispose());
    const path = leanPath(['sh', 'node']);
    const first = await w.sim.fire('UserPromptSubmit', w.payloads().userPromptSubmit(RECALL_PROMPT), {
      env: { PATH: path },
    });
    expect(contextOf(first)).toContain(RECALL_MARKER);
    const log = join(w.home, '.openviking', 'logs', 'codebuddy-hooks.log');
    await waitFor(
      () =>
        debugLines(log).some(
          (line) => line.message === 'resident: cannot make its FIFO; prompt hooks run recall themselves',
        ),
      8_000,
    );
    await waitFor(() => residentPids(w.home).length === 0, 5_000);
    const second = await w.sim.fire(
      'UserPromptSubmit',
      w.payloads({ sessionId: 'second' }).userPromptSubmit(RECALL_PROMPT),
      { env: { PATH: path } },
    );
    expect(contextOf(second)).toContain(RECALL_MARKER);
    expect(second.durationMs).toBeLessThan(3_000);
  }, 30_000);
});

describe('PIPE_BUF and FIFOs by platform', () => {
  it('Linux 4096, other POSIX systems the POSIX minimum 512, Windows 0, which turns the resident off', () => {
    expect(pipeAtomicBytes('linux')).toBe(4096);
    expect(pipeAtomicBytes('darwin')).toBe(512);
    expect(pipeAtomicBytes('freebsd')).toBe(512);
    expect(pipeAtomicBytes('win32')).toBe(0);
    expect(residentWanted({ env: {}, pipeAtomicBytes: pipeAtomicBytes('win32') })).toBe(false);
    expect(residentWanted({ env: {}, pipeAtomicBytes: pipeAtomicBytes('darwin') })).toBe(true);
  });

  it('with no FIFOs (Windows) a prompt hook neither asks nor starts a resident', async () => {
    const { runPromptRelay } = await import('../../src/stages/relay.js');
    const dataDir = mkdtempSync(join(tmpdir(), 'ov-win-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    mkdirSync(dataDir, { recursive: true });
    const spawned: string[][] = [];
    const deps = {
      now: Date.now,
      env: { CODEBUDDY_PLUGIN_DATA: dataDir, OPENVIKING_URL: 'http://127.0.0.1:9' },
      cwd: dataDir,
      homeDir: dataDir,
      pluginRoot: dataDir,
      http: () => Promise.reject(new Error('refused')),
      pid: process.pid,
      pipeAtomicBytes: pipeAtomicBytes('win32'),
      spawnDetached: (args: readonly string[]) => (spawned.push([...args]), true),
      afterAnswer: () => undefined,
      log: { debug: () => undefined, warn: () => undefined },
    };
    const answer = runPromptRelay(
      { hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: RECALL_PROMPT } as never,
      deps,
    );
    expect(answer).toBeInstanceOf(Promise); // the stage runs here
    await answer;
    expect(spawned).toEqual([]);
    expect(() => readFileSync(join(dataDir, 'resident'))).toThrow(/ENOENT/);
  });
});
