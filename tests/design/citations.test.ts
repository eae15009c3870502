/**
 * DESIGN.md is an index: every decision (`D<n>`) and host fact (`F<n>`,
 * `FC<n>`) that code, tests, docs or the README cite must exist where the
 * index says, and every path the index names must exist. A renamed file or
 * a dropped decision fails here, not in a reader's head.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** Text files where decisions and facts are cited. */
function citingFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'fixtures') continue;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.(ts|mjs|md|sh|json)$/.test(name)) files.push(path);
    }
  };
  for (const dir of ['src', 'tests', 'bench', 'hooks', 'docs', 'commands', 'skills']) walk(dir);
  return [...files, 'README.md', 'DESIGN.md', 'build.mjs'];
}

const decisionFiles = readdirSync(join(ROOT, 'docs/decisions')).filter((name) => name.endsWith('.md'));
const decisionNumbers = new Set(decisionFiles.map((name) => Number(/^D(\d+)-/.exec(name)?.[1])));
const factIds = new Set([...read('docs/host-facts.md').matchAll(/^\| (FC?\d+) \|/gm)].map((match) => match[1] ?? ''));

describe('the DESIGN index', () => {
  it('has one file per decision, D1 to the last without a gap, each with its four parts', () => {
    const numbers = [...decisionNumbers].sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    for (const name of decisionFiles) {
      const text = read(join('docs/decisions', name));
      for (const part of ['**Problem.**', '**Decision', '**Alternatives considered.**', '**Consequences.**'])
        expect(text, `${name}: ${part}`).toContain(part);
      expect(text.startsWith(`# ${name.split('-')[0]}. `), name).toBe(true);
    }
  });

  it('lists every decision once, linked to its file', () => {
    const index = read('DESIGN.md');
    for (const name of decisionFiles) expect(index, name).toContain(`(docs/decisions/${name})`);
  });

  it('every decision and fact cited anywhere exists', () => {
    const missing: string[] = [];
    for (const file of citingFiles()) {
      const text = read(file);
      for (const match of text.matchAll(/\bD([1-9]\d?)\b/g))
        if (!decisionNumbers.has(Number(match[1]))) missing.push(`${file}: D${match[1]}`);
      for (const match of text.matchAll(/\b(FC?[1-9]\d?)\b/g))
        if (!factIds.has(match[1] ?? '')) missing.push(`${file}: ${match[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('every path the index and the decisions name exists', () => {
    const missing: string[] = [];
    for (const file of ['DESIGN.md', ...decisionFiles.map((name) => join('docs/decisions', name))]) {
      for (const match of read(file).matchAll(/`((?:src|tests|bench|hooks|docs|scripts|servers)\/[^`*<> ]+)`/g)) {
        const path = match[1] ?? '';
        if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the facts keep one numbered order: F1 to F<n>, then FC1 to FC<n>', () => {
    const ids = [...factIds];
    const order = (id: string): number => (id.startsWith('FC') ? 1000 + Number(id.slice(2)) : Number(id.slice(1)));
    expect(ids).toEqual([...ids].sort((a, b) => order(a) - order(b)));
  });
});
