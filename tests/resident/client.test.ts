/**
 * The hook's side of the resident (src/resident/client.ts) against a real
 * FIFO and a stand-in resident process (support/fake-resident.mjs): every
 * way a call can end (no FIFO, no reader, an answer, no answer, a bad
 * answer), small requests inline and large ones through a file, and many
 * hooks writing to one FIFO at once without their lines mixing.
 *
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { askResident } from '../../src/resident/client.js';
import type { ResidentCall } from '../../src/resident/client.js';
import { residentPaths } from '../../src/resident/identity.js';

const KEY = '0123456789abcdef';
const FAKE = new URL('./support/fake-resident.mjs', import.meta.url).pathname;
const CLIENT = new URL('../../src/resident/client.ts', import.meta.url).pathname;

let dataDir: string;
let paths: ReturnType<typeof residentPaths>;
let log: string;
let fake: ChildProcess | undefined;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ov-resident-client-'));
  paths = residentPaths(dataDir, KEY);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  log = join(dataDir, 'taken.jsonl');
});

afterEach(() => {
  fake?.kill('SIGKILL');
  fake = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

function makeFifo(): void {
  expect(spawnSync('mkfifo', ['-m', '600', paths.fifo]).status).toBe(0);
}

/** Starts the stand-in resident on a fresh FIFO and waits until it reads. */
async function startFake(mode: 'echo' | 'silent' | 'garbage' | 'empty'): Promise<void> {
  makeFifo();
  fake = spawn(process.execPath, [FAKE, paths.fifo, paths.dir, KEY, mode, log], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => fake?.stdout?.once('data', () => resolve()));
}

function call(prompt: string, waitMs = 3_000): ResidentCall {
  return {
    dataDir,
    key: KEY,
    request: {
      input: { hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt },
      cwd: '/work/a',
      env: { CODEBUDDY_PROJECT_DIR: '/work/a' },
    },
    waitMs,
    monotonicMs: () => performance.now(),
    pid: process.pid,
    pipeAtomicBytes: 4096,
  };
}

function taken(): Array<{ id: string; inline: boolean; prompt: string }> {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; inline: boolean; prompt: string })
    : [];
}

/** Request and reply files of the key left in the directory. */
function leftovers(): string[] {
  return readdirSync(paths.dir).filter((name) => name.startsWith(paths.filePrefix));
}

describe('askResident', () => {
  it('no FIFO → absent at once (ENOENT), nothing written', () => {
    const started = Date.now();
    expect(askResident(call('hello'))).toEqual({ kind: 'absent', reason: 'ENOENT' });
    expect(Date.now() - started).toBeLessThan(100);
    expect(readdirSync(paths.dir)).toEqual([]);
  });

  it('a FIFO nobody reads (a killed resident) → absent at once (ENXIO), nothing written', () => {
    makeFifo();
    expect(askResident(call('hello'))).toEqual({ kind: 'absent', reason: 'ENXIO' });
    expect(leftovers()).toEqual([]);
  });

  it('a small request travels inline in the FIFO; the answer comes back and both sides clean up', async () => {
    await startFake('echo');
    expect(askResident(call('deploy osprey'))).toEqual({
      kind: 'answered',
      result: { kind: 'context', text: 'echo:deploy osprey' },
    });
    expect(taken()).toMatchObject([{ inline: true, prompt: 'deploy osprey' }]);
    expect(leftovers()).toEqual([]);
  });

  it('a request larger than PIPE_BUF goes through a file, read by the resident', async () => {
    await startFake('echo');
    const prompt = `big ${'x'.repeat(10_000)}`;
    expect(askResident(call(prompt))).toEqual({
      kind: 'answered',
      result: { kind: 'context', text: `echo:${prompt}` },
    });
    expect(taken()).toMatchObject([{ inline: false, prompt }]);
    expect(leftovers()).toEqual([]);
  });

  it('no answer by waitUntil → late, and the resident is retired (its FIFO unlinked) so the next hook starts afresh', async () => {
    await startFake('silent');
    const started = Date.now();
    expect(askResident(call('hello', 400))).toEqual({ kind: 'late' });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(900);
    expect(existsSync(paths.fifo)).toBe(false);
    expect(askResident(call('next'))).toEqual({ kind: 'absent', reason: 'ENOENT' });
  });

  it('with PIPE_BUF 512 (macOS, BSD), a request line over 512 bytes goes through a file, a shorter one inline', async () => {
    await startFake('echo');
    const short = `short ${'s'.repeat(200)}`;
    const long = `long ${'l'.repeat(600)}`;
    expect(askResident({ ...call(short), pipeAtomicBytes: 512 })).toEqual({
      kind: 'answered',
      result: { kind: 'context', text: `echo:${short}` },
    });
    expect(askResident({ ...call(long), pipeAtomicBytes: 512 })).toEqual({
      kind: 'answered',
      result: { kind: 'context', text: `echo:${long}` },
    });
    expect(taken()).toMatchObject([
      { inline: true, prompt: short },
      { inline: false, prompt: long },
    ]);
    expect(leftovers()).toEqual([]);
  });

  it('a wall-clock step back during the wait does not stretch it: the wait runs on the monotonic clock', async () => {
    await startFake('silent');
    // The wall clock jumps back an hour once the wait has begun (an NTP step, a suspended laptop's resync).
    const wall = Date.now.bind(Date);
    let reads = 0;
    const spy = vi.spyOn(Date, 'now').mockImplementation(() => (++reads > 1 ? wall() - 3_600_000 : wall()));
    const started = performance.now();
    try {
      expect(askResident(call('hello', 300))).toEqual({ kind: 'late' });
    } finally {
      spy.mockRestore();
    }
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('an empty reply is the resident saying it could not write its answer: failed at once, resident kept', async () => {
    await startFake('empty');
    const started = Date.now();
    expect(askResident(call('hello'))).toEqual({ kind: 'failed' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(existsSync(paths.fifo)).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('a large request not taken in time has its file removed by the hook', async () => {
    await startFake('silent');
    expect(askResident(call(`big ${'y'.repeat(10_000)}`, 300))).toEqual({ kind: 'late' });
    expect(leftovers()).toEqual([]);
  });

  it('a reply that is not one is treated as late (pass-through) and retires the resident', async () => {
    await startFake('garbage');
    expect(askResident(call('hello'))).toEqual({ kind: 'late' });
    expect(existsSync(paths.fifo)).toBe(false);
  });

  it('twelve hooks writing to one FIFO at once each get their own answer', async () => {
    await startFake('echo');
    const script = `
      const { askResident } = await import(${JSON.stringify(CLIENT)});
      const n = process.argv[1];
      const prompt = 'hook ' + n + ' ' + 'z'.repeat(Number(n) * 600);
      const answer = askResident({ dataDir: ${JSON.stringify(dataDir)}, key: ${JSON.stringify(KEY)}, request: { input: { hook_event_name: 'UserPromptSubmit', prompt }, cwd: '/w', env: {} }, waitMs: 5000, monotonicMs: () => performance.now(), pid: process.pid, pipeAtomicBytes: 4096 });
      process.stdout.write(JSON.stringify(answer.kind === 'answered' && answer.result.text === 'echo:' + prompt));
    `;
    const runs = Array.from({ length: 12 }, (_, n) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, String(n)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      return new Promise<string>((resolve) => child.on('close', () => resolve(out)));
    });
    expect(await Promise.all(runs)).toEqual(Array.from({ length: 12 }, () => 'true'));
    const seen = taken();
    expect(seen).toHaveLength(12);
    // Lines up to PIPE_BUF went inline, the larger ones through files; none was mixed with another.
    expect(seen.some((t) => t.inline) && seen.some((t) => !t.inline)).toBe(true);
    expect(leftovers()).toEqual([]);
  });
});
