/**
 * The one append of private files (store/fsUtil.ts `appendPrivateFileSync`:
 * the debug log, the why record): private whatever was at the path before
 * (issue 29 item 8). On 4953f41 a file that existed at 0644 stayed 0644 and
 * a symlink at the path was followed.
 *
 * @module
 */
import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendPrivateFileSync } from '../../src/store/fsUtil.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ov-append-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('appendPrivateFileSync', () => {
  it('creates the file 0600 and its folder 0700', () => {
    const file = join(root, 'a', 'b', 'log');
    appendPrivateFileSync(file, 'one\n');
    appendPrivateFileSync(file, 'two\n');
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'a', 'b')).mode & 0o777).toBe(0o700);
  });

  it('makes a file that existed with a looser mode private, keeping what it held', () => {
    const file = join(root, 'log');
    writeFileSync(file, 'before\n');
    chmodSync(file, 0o666);
    appendPrivateFileSync(file, 'after\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('before\nafter\n');
  });

  it('refuses a symlink at the path: the target is untouched', () => {
    const target = join(root, 'target');
    writeFileSync(target, 'mine\n');
    chmodSync(target, 0o644);
    const link = join(root, 'log');
    symlinkSync(target, link);
    expect(() => appendPrivateFileSync(link, 'x\n')).toThrow();
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('refuses what is not a regular file (a folder at the path)', () => {
    expect(() => appendPrivateFileSync(root, 'x\n')).toThrow();
  });
});
