/**
 * The `why` record's bounds (issue 20): the file never passes
 * MAX_FILE_BYTES whatever the entries hold (a huge recall query, a huge
 * item list, text of escaped characters), each entry keeps at most
 * MAX_ITEMS items and says how many it left out, and the newest entry
 * always survives a rewrite. On 8e37669 two oversized entries made a
 * 291 KB file and an entry kept all of its 10,000 items.
 *
 * @module
 */
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, readWhy, recordInjection, whyFile } from '../../src/why/record.js';
import type { WhyEntry } from '../../src/why/record.js';

const dataDir = mkdtempSync(join(tmpdir(), 'ov-why-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const entry = (session: string, at: number, extra: Partial<WhyEntry> = {}): WhyEntry => ({
  session,
  at,
  kind: 'recall',
  detail: 'how do we deploy',
  items: [{ uri: 'viking://user/default/memories/a.md', score: 0.9 }],
  text: 'block',
  ...extra,
});

function sizeOf(session: string): number {
  return statSync(whyFile(dataDir, session)).size;
}

describe('the why record stays bounded', () => {
  it('oversized queries: never over MAX_FILE_BYTES, after every append, and the newest entry is kept', () => {
    for (let at = 1; at <= 12; at++) {
      recordInjection(dataDir, entry('cb-long-queries', at, { detail: `q${at} ${'x'.repeat(300_000)}` }));
      expect(sizeOf('cb-long-queries')).toBeLessThanOrEqual(MAX_FILE_BYTES);
      expect(readWhy(dataDir, 'cb-long-queries').at(-1)?.at).toBe(at);
    }
  });

  it('a huge item list: capped per entry, the rest counted', () => {
    const items = Array.from({ length: 10_000 }, (_, index) => ({
      uri: `viking://user/default/memories/m${index}.md`,
      score: 0.5,
    }));
    recordInjection(dataDir, entry('cb-many-items', 1, { kind: 'start', detail: 'startup', items }));
    const [stored] = readWhy(dataDir, 'cb-many-items');
    expect(stored?.items.length).toBeLessThanOrEqual(100);
    expect(stored?.items[0]?.uri).toBe('viking://user/default/memories/m0.md');
    expect((stored as WhyEntry & { moreItems?: number }).moreItems).toBe(10_000 - (stored?.items.length ?? 0));
    expect(sizeOf('cb-many-items')).toBeLessThanOrEqual(MAX_FILE_BYTES);
  });

  it('text and URIs of escaped control characters (JSON makes each six bytes) stay inside the bound', () => {
    const control = '\u0001'.repeat(50_000);
    for (let at = 1; at <= 6; at++) {
      recordInjection(
        dataDir,
        entry('cb-escapes', at, {
          detail: control,
          text: control,
          items: Array.from({ length: 200 }, () => ({ uri: `viking://${control}` })),
        }),
      );
      expect(sizeOf('cb-escapes')).toBeLessThanOrEqual(MAX_FILE_BYTES);
      expect(readWhy(dataDir, 'cb-escapes').at(-1)?.at).toBe(at);
    }
  });

  it('ordinary entries: many appends, bounded, newest kept', () => {
    for (let at = 1; at <= 400; at++) recordInjection(dataDir, entry('cb-ordinary', at, { text: 'y'.repeat(20_000) }));
    expect(sizeOf('cb-ordinary')).toBeLessThanOrEqual(MAX_FILE_BYTES);
    const entries = readWhy(dataDir, 'cb-ordinary');
    expect(entries.at(-1)?.at).toBe(400);
    expect(entries.length).toBeGreaterThan(1);
  });
});

describe('who answered a recall', () => {
  it('is kept with the entry, and a value that names no process is dropped when read back', () => {
    recordInjection(dataDir, entry('cb-by', 1, { by: 'resident' }));
    recordInjection(dataDir, entry('cb-by', 2, { by: 'module' }));
    recordInjection(dataDir, entry('cb-by', 3));
    appendFileSync(whyFile(dataDir, 'cb-by'), `${JSON.stringify({ ...entry('cb-by', 4), by: 'root\u001b[2J' })}\n`);
    expect(readWhy(dataDir, 'cb-by').map((stored) => [stored.at, stored.by])).toEqual([
      [1, 'resident'],
      [2, 'module'],
      [3, undefined],
      [4, undefined],
    ]);
  });
});
