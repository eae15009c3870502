/**
 * The layers of DESIGN.md ("The house") as a rule the code keeps: a folder
 * of src/ imports only from folders on a lower layer, never sideways or up,
 * and every folder of src/ has its layer. The table is read from DESIGN.md,
 * so the index and the code cannot drift apart; a new folder gets a row
 * there first. `import type` counts: a type is as much a dependency for a
 * reader as a value.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const SRC = join(ROOT, 'src');

/** `folder/` or `file.ts` (a top-level file of src/) → its layer, from the table under "## The house". */
function layers(): Map<string, number> {
  const design = readFileSync(join(ROOT, 'DESIGN.md'), 'utf8');
  const house = design.slice(
    design.indexOf('## The house'),
    design.indexOf('\n## ', design.indexOf('## The house') + 1),
  );
  const table = new Map<string, number>();
  for (const row of house.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
    for (const name of row[2]?.matchAll(/`([^`]+)`/g) ?? [])
      table.set((name[1] ?? '').replace(/\/$/, ''), Number(row[1]));
  }
  return table;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The room of a file: its top folder under src/, or the file itself. */
function roomOf(file: string): string {
  return relative(SRC, file).split('/')[0] ?? '';
}

describe('the layers of DESIGN.md', () => {
  const table = layers();

  it('place every folder and top-level file of src/', () => {
    const rooms = new Set(sources(SRC).map(roomOf));
    expect([...rooms].filter((room) => !table.has(room))).toEqual([]);
  });

  it('every import of src/ runs down the table', () => {
    const upward: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts'));
        if (relative(SRC, target).startsWith('..')) continue; // outside src/ (the plugin manifest)
        const from = roomOf(file);
        const to = roomOf(target);
        if (from === to) continue;
        if ((table.get(to) ?? Infinity) >= (table.get(from) ?? -Infinity))
          upward.push(
            `${relative(ROOT, file)} -> ${relative(ROOT, target)} (layer ${table.get(from)} -> ${table.get(to)})`,
          );
      }
    }
    expect(upward).toEqual([]);
  });
});
