/**
 * The file seam's contract (src/store/fileSeam.ts, D37), run against both
 * of its implementations on the same files: node's (store/smallFile.ts,
 * fsUtil.ts, atomic.ts) and the hooks module's (src/mod/files/, whose
 * `$.fs` is this machine's, as the host answers it: tests/support/
 * mods-harness/hostIo.ts). The module runs each call the way it runs the
 * shared rules: against its snapshot until nothing is missed (fetch.ts
 * `settle`), its writes then written (`flushWrites`).
 *
 * Each implementation gets a folder of its own with the same files, so the
 * module's snapshot (kept for the session) never holds what the other side
 * changed. Where the module cannot do what node does (no delete, no inode),
 * the contract says so and both are held to it.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as moduleAtomic from '../../src/mod/files/atomic.js';
import { flushWrites, settle } from '../../src/mod/files/fetch.js';
import * as moduleFsUtil from '../../src/mod/files/fsUtil.js';
import * as moduleSmallFile from '../../src/mod/files/smallFile.js';
import type { Engine } from '../../src/mod/host.js';
import * as nodeAtomic from '../../src/store/atomic.js';
import type { FileSeam } from '../../src/store/fileSeam.js';
import * as nodeFsUtil from '../../src/store/fsUtil.js';
import * as nodeSmallFile from '../../src/store/smallFile.js';
import { useHostIo } from '../support/mods-harness/hostIo.js';
import { startModSession } from '../support/mods-harness/index.js';

const nodeSeam: FileSeam = { ...nodeSmallFile, ...nodeFsUtil, ...nodeAtomic };
const moduleSeam: FileSeam = { ...moduleSmallFile, ...moduleFsUtil, ...moduleAtomic };

/** One side of the seam: `run` makes the calls as that side's callers do and returns what they gave. */
interface Side {
  name: string;
  root: string;
  run<T>(calls: (files: FileSeam) => T): Promise<Awaited<T>>;
}

async function direct<T>(calls: (files: FileSeam) => T): Promise<Awaited<T>> {
  return await calls(nodeSeam);
}

const sides: Side[] = [];

/** The same files under `root`: a small file, a large one, a folder, a FIFO, links. */
function lay(root: string): void {
  writeFileSync(join(root, 'ok.txt'), 'hello');
  writeFileSync(join(root, 'big.txt'), 'x'.repeat(200));
  // 4 characters, 8 bytes: the cap counts bytes.
  writeFileSync(join(root, 'accents.txt'), 'éééé');
  mkdirSync(join(root, 'dir'));
  writeFileSync(join(root, 'dir', 'a'), 'a');
  writeFileSync(join(root, 'dir', 'b'), 'b');
  execFileSync('mkfifo', [join(root, 'fifo')]);
  symlinkSync(join(root, 'ok.txt'), join(root, 'link'));
  symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
  writeFileSync(join(root, 'log'), 'first\n');
}

beforeAll(async () => {
  const nodeRoot = mkdtempSync(join(tmpdir(), 'ov-seam-node-'));
  const moduleRoot = mkdtempSync(join(tmpdir(), 'ov-seam-module-'));
  lay(nodeRoot);
  lay(moduleRoot);
  const session = await startModSession({ profile: 'claude-code', env: { HOME: moduleRoot } });
  useHostIo(session, { fetch: false });
  const $ = session.$ as Engine;
  sides.push(
    { name: 'node', root: nodeRoot, run: direct },
    {
      name: 'module',
      root: moduleRoot,
      run: async <T>(calls: (files: FileSeam) => T): Promise<Awaited<T>> => {
        const value = await settle($, 'record', () => calls(moduleSeam));
        const failed = await flushWrites($);
        if (failed.length > 0) throw new Error(`not written: ${failed.join(', ')}`);
        return value;
      },
    },
  );
});

afterAll(() => {
  for (const side of sides) rmSync(side.root, { recursive: true, force: true });
});

/** `check` for each side, every side's answer collected first, so a failure shows both. */
async function onBoth<T>(calls: (files: FileSeam, root: string) => T): Promise<Array<Awaited<T>>> {
  const answers: Array<Awaited<T>> = [];
  for (const side of sides) answers.push(await side.run((files) => calls(files, side.root)));
  return answers;
}

describe('readSmallFile: a regular file of at most the cap, else absent with the same reason', () => {
  it.each([
    ['ok.txt', 100, { text: 'hello' }],
    ['ok.txt', 5, { text: 'hello' }],
    ['link', 100, { text: 'hello' }],
    ['big.txt', 100, { absent: 'too-large', why: 'is larger than 100 bytes' }],
    ['accents.txt', 6, { absent: 'too-large', why: 'is larger than 6 bytes' }],
    ['dir', 100, { absent: 'not-a-file', why: 'is a directory, not a regular file' }],
    ['missing', 100, { absent: 'missing', why: 'does not exist' }],
    ['dir/a/below-a-file', 100, { absent: 'missing', why: 'does not exist' }],
    ['dangling', 100, { absent: 'missing', why: 'does not exist' }],
  ])('%s (cap %i)', async (name, cap, expected) => {
    const answers = await onBoth((files, root) => files.readSmallFile(join(root, name), cap));
    expect(answers).toEqual([expected, expected]);
  });

  it('a FIFO is not read, and nothing hangs', async () => {
    const answers = await onBoth((files, root) => files.readSmallFile(join(root, 'fifo'), 100));
    for (const answer of answers)
      expect(answer).toEqual({ absent: 'not-a-file', why: expect.stringMatching(/not a regular file$/) });
  });
});

describe("statQuietly, realPath, namesInDir: the same facts (the module's ino is 0)", () => {
  it('a file, a folder, a link followed, nothing', async () => {
    const facts = (stat: ReturnType<FileSeam['statQuietly']>) =>
      stat && { file: stat.isFile(), dir: stat.isDirectory(), size: stat.size, mtimeMs: stat.mtimeMs };
    const answers = await onBoth((files, root) =>
      ['ok.txt', 'dir', 'link', 'missing', 'dangling'].map((name) => facts(files.statQuietly(join(root, name)))),
    );
    for (const [index, side] of sides.entries()) {
      const ok = statSync(join(side.root, 'ok.txt'));
      expect(answers[index]).toEqual([
        { file: true, dir: false, size: 5, mtimeMs: ok.mtimeMs },
        { file: false, dir: true, size: expect.any(Number), mtimeMs: statSync(join(side.root, 'dir')).mtimeMs },
        { file: true, dir: false, size: 5, mtimeMs: ok.mtimeMs },
        undefined,
        undefined,
      ]);
    }
  });

  it('real paths follow links; a link to nowhere has none', async () => {
    const answers = await onBoth((files, root) => [
      files.realPath(join(root, 'link')),
      files.realPathNative(join(root, 'link')),
      files.realPath(join(root, 'dangling')),
      files.realPath(join(root, 'missing')),
    ]);
    for (const [index, side] of sides.entries()) {
      const target = join(side.root, 'ok.txt');
      expect(answers[index]).toEqual([target, target, undefined, undefined]);
    }
  });

  it("a folder's names; none for what is not a folder", async () => {
    const answers = await onBoth((files, root) => [
      files.namesInDir(join(root, 'dir')).sort(),
      files.namesInDir(join(root, 'missing')),
    ]);
    expect(answers).toEqual([
      [['a', 'b'], []],
      [['a', 'b'], []],
    ]);
  });
});

describe('writes: whole, private (0600 files, 0700 folders), in folders made for them', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('writeFileAtomicSync, writeFileAtomic and writeJsonAtomic replace or create the file', async () => {
    await onBoth((files, root) => {
      files.writeFileAtomicSync(join(root, 'ok.txt'), 'replaced');
      files.writeFileAtomicSync(join(root, 'new', 'deeper', 'state.json'), '{"a":1}');
      return Promise.all([
        files.writeFileAtomic(join(root, 'async.txt'), 'async'),
        files.writeJsonAtomic(join(root, 'json', 'value.json'), { b: [2] }, { fsync: false }),
      ]);
    });
    for (const side of sides) {
      const at = (...parts: string[]) => join(side.root, ...parts);
      expect(readFileSync(at('ok.txt'), 'utf8'), side.name).toBe('replaced');
      expect(readFileSync(at('new', 'deeper', 'state.json'), 'utf8'), side.name).toBe('{"a":1}');
      expect(readFileSync(at('async.txt'), 'utf8'), side.name).toBe('async');
      expect(JSON.parse(readFileSync(at('json', 'value.json'), 'utf8')), side.name).toEqual({ b: [2] });
      expect([mode(at('new', 'deeper', 'state.json')), mode(at('new', 'deeper')), mode(at('new'))], side.name).toEqual([
        0o600, 0o700, 0o700,
      ]);
    }
  });

  it('appendPrivateFileSync adds to what the file holds, or creates it (and its folder)', async () => {
    await onBoth((files, root) => {
      files.appendPrivateFileSync(join(root, 'log'), 'second\n');
      files.appendPrivateFileSync(join(root, 'logs', 'fresh'), 'one\n');
    });
    for (const side of sides) {
      expect(readFileSync(join(side.root, 'log'), 'utf8'), side.name).toBe('first\nsecond\n');
      expect(readFileSync(join(side.root, 'logs', 'fresh'), 'utf8'), side.name).toBe('one\n');
      expect([mode(join(side.root, 'logs', 'fresh')), mode(join(side.root, 'logs'))], side.name).toEqual([
        0o600, 0o700,
      ]);
    }
  });

  it('createFileExclusive makes an empty file once: true for the first caller only', async () => {
    const answers = await onBoth((files, root) => [
      files.createFileExclusive(join(root, 'mark')),
      files.createFileExclusive(join(root, 'mark')),
      files.createFileExclusive(join(root, 'ok.txt')),
    ]);
    expect(answers).toEqual([
      [true, false, false],
      [true, false, false],
    ]);
    for (const side of sides) expect(readFileSync(join(side.root, 'mark'), 'utf8'), side.name).toBe('');
  });

  it('removeFileQuietly never throws (the module has no delete: the file may stay)', async () => {
    const answers = await onBoth((files, root) => {
      files.removeFileQuietly(join(root, 'missing'));
      files.removeFileQuietly(join(root, 'async.txt'));
      return 'done';
    });
    expect(answers).toEqual(['done', 'done']);
  });

  it('the same modes and temp suffix on both sides', () => {
    for (const files of [nodeSeam, moduleSeam])
      expect([files.PRIVATE_FILE_MODE, files.PRIVATE_DIR_MODE, files.TEMP_SUFFIX]).toEqual([0o600, 0o700, '.tmp']);
  });
});
