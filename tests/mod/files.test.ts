/**
 * The hooks module's file snapshot (src/mod/files/; D30): a rule that asks
 * for what the snapshot does not hold misses, and its writes are taken back;
 * the store's leaves answer from it as node's do (a regular file of at most
 * the cap, else absent with the reason; an append reads the file back; an
 * exclusive create is once); a changed file is read afresh after a look
 * again.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { createFileExclusive, appendPrivateFileSync, statQuietly } from '../../src/mod/files/fsUtil.js';
import { readSmallFile } from '../../src/mod/files/smallFile.js';
import { FileSnapshot, sessionFiles } from '../../src/mod/files/snapshot.js';
import { writeFileAtomicSync } from '../../src/mod/files/atomic.js';

const file = (size: number) => ({
  state: 'found' as const,
  facts: { kind: 'file' as const, size, mtimeMs: 1, realPath: '/x' },
});

describe('FileSnapshot', () => {
  it('a run that misses answers "not there yet", names what to fetch, and takes its writes back', () => {
    const files = new FileSnapshot();
    files.learnStat('/a', file(3));
    files.learnText('/a', 'old', 10);
    const run = files.attempt('decide', () => {
      files.write('/a', 'new');
      return files.stat('/b');
    });
    expect(run).toEqual({ complete: false, needs: [{ op: 'stat', path: '/b' }] });
    expect(files.text('/a', 10)).toBe('old');
    expect(files.takeWrites()).toEqual([]);
    files.learnStat('/b', { state: 'missing' });
    const again = files.attempt('decide', () => {
      files.write('/a', 'new');
      return files.stat('/b');
    });
    expect(again).toEqual({ complete: true, value: { state: 'missing' } });
    expect(files.takeWrites()).toEqual([['/a', 'new']]);
    // What a run looked at is looked at again before the next; what it only wrote is not.
    expect(files.pathsOf('decide')).toEqual(['/b']);
  });

  it('a changed stat drops what was read; an unchanged one keeps it', () => {
    const files = new FileSnapshot();
    files.learnStat('/c', file(2));
    files.learnText('/c', 'ab', 10);
    files.learnStat('/c', file(2));
    expect(files.text('/c', 10)).toBe('ab');
    files.learnStat('/c', file(3));
    expect(files.text('/c', 10)).toBeUndefined();
  });
});

describe("the store's leaves in the module", () => {
  const files = sessionFiles();
  const run = <T>(rule: () => T) => files.attempt('record', rule);

  it("readSmallFile: a regular file within the cap, else absent with the same reasons as node's", () => {
    files.learnStat('/r/ok', file(2));
    files.learnText('/r/ok', 'ok', 100);
    files.learnStat('/r/dir', { state: 'found', facts: { kind: 'dir', size: 0, mtimeMs: 1 } });
    files.learnStat('/r/fifo', { state: 'found', facts: { kind: 'other', size: 0, mtimeMs: 1 } });
    files.learnStat('/r/big', file(1_000));
    files.learnStat('/r/gone', { state: 'missing' });
    files.learnStat('/r/denied', { state: 'refused', why: 'EACCES' });
    expect(
      run(() =>
        ['ok', 'dir', 'fifo', 'big', 'gone', 'denied'].map((name) => readSmallFile(`/r/${name}`, 100).absent ?? 'text'),
      ),
    ).toEqual({
      complete: true,
      value: ['text', 'not-a-file', 'not-a-file', 'too-large', 'missing', 'unreadable'],
    });
  });

  it('an append reads the file back first and writes it whole; an exclusive create happens once', () => {
    expect(run(() => appendPrivateFileSync('/w/log', 'b\n'))).toEqual({
      complete: false,
      needs: [{ op: 'stat', path: '/w/log' }],
    });
    files.learnStat('/w/log', file(2));
    files.learnText('/w/log', 'a\n', 4 * 1024 * 1024 - 1);
    expect(run(() => appendPrivateFileSync('/w/log', 'b\n')).complete).toBe(true);
    files.learnStat('/w/mark', { state: 'missing' });
    expect(run(() => [createFileExclusive('/w/mark'), createFileExclusive('/w/mark')])).toEqual({
      complete: true,
      value: [true, false],
    });
    expect(run(() => writeFileAtomicSync('/w/state.json', '{}')).complete).toBe(true);
    expect(files.takeWrites()).toEqual([
      ['/w/log', 'a\nb\n'],
      ['/w/mark', ''],
      ['/w/state.json', '{}'],
    ]);
    expect(run(() => statQuietly('/w/state.json')?.isFile())).toEqual({ complete: true, value: true });
  });
});
