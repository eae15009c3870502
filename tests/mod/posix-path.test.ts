/**
 * The hooks module's `node:path` (src/mod/files/posixPath.ts, D30) computes
 * what node:path.posix computes, for every function the shared rules call,
 * on paths of every shape the rules meet (absolute, relative, `.`/`..`,
 * repeated and trailing slashes, dots in names).
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as ours from '../../src/mod/files/posixPath.js';

const SEGMENTS = ['', '.', '..', 'a', 'b.c', '.git', '..x', 'x..', '...', 'viking:', 'd e'];

/** Every path of up to three segments, absolute and relative, with and without a trailing slash, plus doubled slashes. */
function corpus(): string[] {
  const paths = new Set<string>(['', '/', '//', '///', '//a', 'a//b', '/a//b/', '/..', '../..', './', '/./a/../b']);
  for (const a of SEGMENTS)
    for (const b of SEGMENTS)
      for (const c of ['', 'a', '..']) {
        const relative = [a, b, c].filter((part, index) => part !== '' || index === 0).join('/');
        for (const path of [relative, `/${relative}`, `${relative}/`, `/${relative}/`]) paths.add(path);
      }
  return [...paths];
}

describe('posixPath, against node:path.posix', () => {
  const paths = corpus();

  it('normalize, isAbsolute, dirname, basename, extname, parse', () => {
    for (const path of paths) {
      expect(ours.normalize(path), `normalize(${JSON.stringify(path)})`).toBe(posix.normalize(path));
      expect(ours.isAbsolute(path), path).toBe(posix.isAbsolute(path));
      expect(ours.dirname(path), `dirname(${JSON.stringify(path)})`).toBe(posix.dirname(path));
      expect(ours.basename(path), `basename(${JSON.stringify(path)})`).toBe(posix.basename(path));
      expect(ours.extname(path), `extname(${JSON.stringify(path)})`).toBe(posix.extname(path));
      expect(ours.parse(path), `parse(${JSON.stringify(path)})`).toEqual(posix.parse(path));
    }
  });

  it('join and resolve of pairs (resolve against the working directory set)', () => {
    ours.setWorkingDirectory('/home/u/ws');
    const cwd = '/home/u/ws';
    for (const a of paths.slice(0, 120))
      for (const b of paths.slice(0, 120)) {
        expect(ours.join(a, b), `join(${JSON.stringify(a)}, ${JSON.stringify(b)})`).toBe(posix.join(a, b));
        expect(ours.resolve(a, b), `resolve(${JSON.stringify(a)}, ${JSON.stringify(b)})`).toBe(
          posix.resolve(cwd, a, b),
        );
      }
    expect(ours.join()).toBe(posix.join());
    expect(ours.resolve()).toBe(cwd);
    expect(ours.sep).toBe(posix.sep);
  });
});
