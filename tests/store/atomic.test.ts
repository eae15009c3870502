import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  readJson,
  readJsonDetailed,
  readJsonSync,
  writeFileAtomicSync,
  writeJsonAtomic,
} from '../../src/store/atomic.js';
import { pathExists, runChild, useSandbox, waitFor } from './fixtures/processes.js';

const box = useSandbox();

/** A JSON document of roughly `kib` KiB whose every part names its generation. */
function bigDocument(generation: number, kib: number): unknown {
  return { generation, rows: Array.from({ length: kib * 16 }, (_, i) => ({ i, generation, pad: 'x'.repeat(40) })) };
}

describe('writeJsonAtomic / readJson', () => {
  it('round-trips and creates private dirs and files', async () => {
    const file = join(box.dir, 'a', 'b', 'state.json');
    await writeJsonAtomic(file, { hello: 'world' });
    expect(await readJson(file)).toEqual({ hello: 'world' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(box.dir, 'a'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(box.dir, 'a', 'b'))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(box.dir, 'a', 'b'))).toEqual(['state.json']); // no temp left
  });

  it('tells missing from corrupt', async () => {
    const file = join(box.dir, 'x.json');
    expect(await readJsonDetailed(file)).toEqual({ status: 'missing' });
    await writeFile(file, '{"half": ');
    const corrupt = await readJsonDetailed(file);
    expect(corrupt.status).toBe('corrupt');
    expect(corrupt.status === 'corrupt' && corrupt.reason).toMatch(/invalid JSON/);
    expect(await readJson(file)).toBeUndefined();
    await mkdir(join(box.dir, 'dir.json'));
    expect((await readJsonDetailed(join(box.dir, 'dir.json'))).status).toBe('unreadable');
  });

  it('keeps the old content and leaves no temp file when serialisation fails', async () => {
    const file = join(box.dir, 'keep.json');
    await writeJsonAtomic(file, { v: 1 });
    await expect(writeJsonAtomic(file, { big: 1n })).rejects.toThrow();
    expect(await readJson(file)).toEqual({ v: 1 });
    expect(await readdir(box.dir)).toEqual(['keep.json']);
  });

  it('replaces a file with looser permissions by a 0600 one', async () => {
    const file = join(box.dir, 'loose.json');
    await writeFile(file, '{}', { mode: 0o644 });
    await writeJsonAtomic(file, { v: 2 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

/** Rewrites `file` `generations` times while a reader process hammers it; returns the reader's report. */
async function hammer(
  file: string,
  write: (generation: number) => Promise<void>,
  generations: number,
): Promise<{ reads: number; torn: number; generations: number }> {
  const stop = join(box.dir, 'stop');
  await write(0);
  const reader = runChild<{ reads: number; torn: number; generations: number }>('read-hammer', [file, stop]);
  await waitFor(() => pathExists(`${stop}.ready`));
  for (let generation = 1; generation <= generations; generation++) await write(generation);
  await writeFile(stop, '');
  return reader;
}

describe('atomicity against a concurrent reader process', () => {
  it('never shows a torn or invalid file while a large file is rewritten', async () => {
    const file = join(box.dir, 'big.json');
    const report = await hammer(file, (g) => writeJsonAtomic(file, bigDocument(g, 512)), 40);
    expect(report.torn).toBe(0);
    expect(report.generations).toBeGreaterThan(1); // the reader really raced the writer
  }, 20_000); // one child process plus ~20 MB of fsynced writes

  it('the detector does catch torn reads of an in-place writer (control)', async () => {
    const file = join(box.dir, 'big.json');
    const report = await hammer(file, (g) => writeFile(file, JSON.stringify(bigDocument(g, 512))), 40);
    expect(report.torn).toBeGreaterThan(0);
  }, 20_000);
});

it('a file written by writeJsonAtomic is complete JSON text', async () => {
  const file = join(box.dir, 'text.json');
  await writeJsonAtomic(file, [1, 'two', { three: 3 }]);
  expect(await readFile(file, 'utf8')).toBe('[1,"two",{"three":3}]');
});

describe('synchronous variants (hook status files)', () => {
  it('writeFileAtomicSync creates a private file in a private dir and replaces it whole', () => {
    const root = mkdtempSync(join(tmpdir(), 'ov-atomic-sync-'));
    try {
      const file = join(root, 'status', 'server.json');
      writeFileAtomicSync(file, JSON.stringify({ up: true }));
      writeFileAtomicSync(file, JSON.stringify({ up: false }));
      expect(readJsonSync(file)).toEqual({ up: false });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(root, 'status')).mode & 0o777).toBe(0o700);
      expect(readdirSync(join(root, 'status'))).toEqual(['server.json']);
      expect(readJsonSync(join(root, 'missing.json'))).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
