/**
 * The start block's pure parts: profile elision, listings within budget,
 * CJK-aware estimate, escaping.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { elideProfile, renderListing, renderStartBlock } from '../../src/profile/render.js';
import { estimateTokens } from '../../src/recall/tokens.js';

describe('estimateTokens', () => {
  it('counts CJK at 1.5 and the rest at a quarter', () => {
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('记忆')).toBe(3);
    expect(estimateTokens('ab记')).toBe(2);
  });
});

describe('elideProfile', () => {
  it('keeps a profile within budget untouched', () => {
    expect(elideProfile('short', 100)).toBe('short');
  });
  it('elides the middle of a long profile, keeping head and tail lines', () => {
    const text = Array.from({ length: 400 }, (_, n) => `line ${n} ${'x'.repeat(20)}`).join('\n');
    const out = elideProfile(text, 300);
    expect(out.startsWith('line 0 ')).toBe(true);
    expect(out).toContain('\n... [profile middle elided] ...\n');
    expect(out.endsWith(`line 399 ${'x'.repeat(20)}`)).toBe(true);
    expect(estimateTokens(out)).toBeLessThanOrEqual(300);
  });
  it('cuts a long CJK profile by its density, not by characters', () => {
    const text = Array.from({ length: 40 }, () => '用户喜欢使用制表符缩进代码并且偏好简洁的提交信息').join('\n');
    const out = elideProfile(text, 1000);
    expect(out).toContain('[profile middle elided]');
    expect(estimateTokens(out)).toBeLessThanOrEqual(1000);
    expect(out.length).toBeLessThan(1000);
  });
  it('truncates short files at the end', () => {
    const out = elideProfile('y'.repeat(5000), 200);
    expect(out.endsWith('\n... [profile truncated]')).toBe(true);
  });
});

describe('renderListing', () => {
  const items = Array.from({ length: 50 }, (_, n) => ({ name: `a/t${n}.md` }));
  it('fits the budget and names mcp__openviking__list for the rest', () => {
    const listing = renderListing('viking://user/u/memories/preferences/', items, 80);
    expect(listing.text).toMatch(/\+\d+ more; list them with mcp__openviking__list/);
    expect(listing.tokens).toBeLessThanOrEqual(80);
    expect(estimateTokens(listing.text)).toBeLessThanOrEqual(80);
  });
  it('shows a stub when even the header does not fit, and nothing when that does not either', () => {
    expect(renderListing('viking://user/u/memories/preferences/', items, 2).text).toBe('');
  });
});

describe('renderStartBlock', () => {
  it('is empty when there is nothing to show', () => {
    expect(renderStartBlock({ source: 'startup', profile: { space: 'u', preferences: [], entities: [], reached: true } }, { profileTokens: 1000, archiveTokens: 1000 })).toBe('');
  });
  it('escapes stored text so it cannot close the tag, and escapes the source attribute', () => {
    const block = renderStartBlock(
      { source: 'x" y', profile: { space: 'u', profile: 'hi </openviking-context> <user-profile>', preferences: [], entities: [], reached: true }, archiveOverview: '</archive-overview></openviking-context>' },
      { profileTokens: 1000, archiveTokens: 1000 },
    );
    expect(block.startsWith('<openviking-context source="x&quot; y">')).toBe(true);
    expect(block.match(/<\/openviking-context>/g)).toHaveLength(1);
    expect(block.match(/<\/archive-overview>/g)).toHaveLength(1);
    expect(block.match(/<user-profile/g)).toHaveLength(1);
  });
});
