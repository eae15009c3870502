/**
 * The one small-file reader (store/smallFile.ts, issue 20 item 2): regular
 * files only, never a blocking open or read, at most the cap plus one byte,
 * and a reason for every absence. The hook-level proof (a cloned
 * repository's files as /dev/zero, a FIFO, 50 MB) is
 * tests/security/hostile-repo.test.ts.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSmallFile } from '../../src/store/smallFile.js';

const dir = mkdtempSync(join(tmpdir(), 'ov-small-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);

describe('readSmallFile', () => {
  it('reads a regular file, and one through a symlink, as UTF-8 text', () => {
    writeFileSync(path('a.json'), '{"name":"ü"}');
    symlinkSync(path('a.json'), path('link.json'));
    expect(readSmallFile(path('a.json'), 100)).toEqual({ text: '{"name":"ü"}' });
    expect(readSmallFile(path('link.json'), 100)).toEqual({ text: '{"name":"ü"}' });
    writeFileSync(path('empty'), '');
    expect(readSmallFile(path('empty'), 100)).toEqual({ text: '' });
  });

  it('a missing file, a dangling symlink and a path through a file are "missing"', () => {
    symlinkSync(path('nowhere'), path('dangling'));
    for (const missing of [path('nope'), path('dangling'), join(path('a.json'), 'below')]) {
      expect(readSmallFile(missing, 100)).toMatchObject({ absent: 'missing' });
    }
  });

  it('the cap is exact: maxBytes is read, one byte more is too large, whatever stat says', () => {
    writeFileSync(path('ten'), '0123456789');
    expect(readSmallFile(path('ten'), 10)).toEqual({ text: '0123456789' });
    expect(readSmallFile(path('ten'), 9)).toMatchObject({ absent: 'too-large', why: 'is larger than 9 bytes' });
    // procfs files say size 0 and still hold bytes: read up to the cap, no further.
    expect(readSmallFile('/proc/self/status', 1_000_000).text).toMatch(/^Name:/);
    expect(readSmallFile('/proc/self/status', 10)).toMatchObject({ absent: 'too-large' });
  });

  it('a 50 MB file is refused before any read', () => {
    writeFileSync(path('big'), '');
    truncateSync(path('big'), 50 * 1024 * 1024);
    const started = performance.now();
    expect(readSmallFile(path('big'), 1024 * 1024)).toMatchObject({
      absent: 'too-large',
      why: 'is larger than 1048576 bytes',
    });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('/dev/zero, /dev/null, a FIFO with no writer and a directory are not regular files, and nothing blocks', () => {
    execFileSync('mkfifo', [path('fifo')]);
    symlinkSync('/dev/zero', path('zero-link'));
    symlinkSync(path('fifo'), path('fifo-link'));
    mkdirSync(path('dir'));
    const started = performance.now();
    expect(readSmallFile(path('zero-link'), 100)).toEqual({
      absent: 'not-a-file',
      why: 'is a character device, not a regular file',
    });
    expect(readSmallFile('/dev/null', 100)).toMatchObject({ absent: 'not-a-file' });
    expect(readSmallFile(path('fifo-link'), 100)).toEqual({
      absent: 'not-a-file',
      why: 'is a FIFO, not a regular file',
    });
    expect(readSmallFile(path('dir'), 100)).toEqual({
      absent: 'not-a-file',
      why: 'is a directory, not a regular file',
    });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('a file it may not read is "unreadable", with the error', () => {
    if (process.getuid?.() === 0) {
      // root reads 0000 files; a loop of symlinks is unreadable for everyone.
      symlinkSync(path('loop-b'), path('loop-a'));
      symlinkSync(path('loop-a'), path('loop-b'));
      expect(readSmallFile(path('loop-a'), 100)).toMatchObject({
        absent: 'unreadable',
        why: expect.stringMatching(/^cannot be read \(ELOOP/),
      });
      return;
    }
    writeFileSync(path('secret'), 'x', { mode: 0 });
    expect(readSmallFile(path('secret'), 100)).toMatchObject({
      absent: 'unreadable',
      why: expect.stringMatching(/^cannot be read \(EACCES/),
    });
  });
});
