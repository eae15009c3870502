/**
 * The house rule on size (issue 39 item 3): no source file under src/ is
 * over 320 lines, so a reader can hold one file at a time. A file that
 * grows past it is split by concern (as recall/cascade.ts gave its request
 * bodies to recall/requests.ts), not trimmed of comments.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');
const MAX_LINES = 320;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

it(`no file under src/ is over ${MAX_LINES} lines`, () => {
  const over = sources(SRC)
    .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((entry) => entry.lines > MAX_LINES)
    .map((entry) => `${entry.file}: ${entry.lines} lines`);
  expect(over).toEqual([]);
});
