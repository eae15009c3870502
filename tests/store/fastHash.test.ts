import { describe, expect, it } from 'vitest';
import { hash64Hex, uniqueToken } from '../../src/store/fastHash.js';

describe('fastHash', () => {
  it('is deterministic, 16 hex digits, and sensitive to every character', () => {
    expect(hash64Hex('cb-session-1')).toBe(hash64Hex('cb-session-1'));
    expect(hash64Hex('cb-session-1')).toMatch(/^[0-9a-f]{16}$/);
    expect(hash64Hex('')).toMatch(/^[0-9a-f]{16}$/);
    expect(hash64Hex('cb-session-1')).not.toBe(hash64Hex('cb-session-2'));
    expect(hash64Hex('a/b')).not.toBe(hash64Hex('a_b'));
  });

  it('has no collision among 200,000 session-like ids', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++)
      seen.add(hash64Hex(`cb-${i.toString(16)}-0000-4000-8000-${(i * 7919).toString(16)}`));
    expect(seen.size).toBe(200_000);
  });

  it('hands out distinct file-name-safe tokens', () => {
    const tokens = new Set(Array.from({ length: 10_000 }, () => uniqueToken()));
    expect(tokens.size).toBe(10_000);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-z]+$/);
  });
});
