/**
 * A recall block keeps its first three memories and, of the rest, only
 * those within the margin of the best (D43, src/recall/tailMargin.ts).
 */
import { describe, expect, it } from 'vitest';
import { ALWAYS_KEPT, TAIL_MARGIN, trimTail } from '../../src/recall/tailMargin.js';
import type { RecalledItem } from '../../src/recall/types.js';

const item = (n: number, score?: number): RecalledItem => ({
  uri: `viking://user/u/memories/entities/u/m${n}.md`,
  text: `memory ${n}`,
  ...(score !== undefined ? { score } : {}),
});

describe('trimTail', () => {
  it('keeps the first three whatever they score', () => {
    const items = [item(1, 0.8), item(2, 0.5), item(3, 0.4)];
    expect(trimTail(items)).toEqual(items);
    expect(ALWAYS_KEPT).toBe(3);
  });

  it('drops a later memory scoring below the best by more than the margin', () => {
    const items = [item(1, 0.8), item(2, 0.79), item(3, 0.78), item(4, 0.8 - TAIL_MARGIN), item(5, 0.7), item(6, 0.76)];
    expect(trimTail(items).map((kept) => kept.uri)).toEqual([1, 2, 3, 4, 6].map((n) => item(n).uri));
  });

  it('keeps memories without a score, and everything when the best has none', () => {
    expect(trimTail([item(1, 0.8), item(2, 0.7), item(3, 0.7), item(4), item(5, 0.1)]).length).toBe(4);
    expect(trimTail([item(1), item(2, 0.1), item(3, 0.1), item(4, 0.1)]).length).toBe(4);
  });
});
