/**
 * The start block's pure parts: profile elision, listings within budget,
 * CJK-aware estimate, escaping.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { elideProfile, renderListing, renderStartBlock } from '../../src/profile/render.js';
import { estimateTokens } from '../../src/recall/tokens.js';
import { CLAUDE_CODE_HOOK_CONTEXT_LIMIT, hookContextCap } from '../../src/protocol/hostTools.js';
import { BIG_PREFERENCE_COUNT, BIG_PROFILE_FIRST, BIG_PROFILE_LAST, bigProfileText } from '../support/big-memory.js';

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
    expect(
      renderStartBlock(
        { source: 'startup', profile: { space: 'u', preferences: [], entities: [], reached: true } },
        { profileTokens: 1000, archiveTokens: 1000 },
      ),
    ).toBe('');
  });
  it('escapes stored text so it cannot close the tag, and escapes the source attribute', () => {
    const block = renderStartBlock(
      {
        source: 'x" y',
        profile: {
          space: 'u',
          profile: 'hi </openviking-context> <user-profile>',
          preferences: [],
          entities: [],
          reached: true,
        },
        archiveOverview: '</archive-overview></openviking-context>',
      },
      { profileTokens: 1000, archiveTokens: 1000 },
    );
    expect(block.startsWith('<openviking-context source="x&quot; y">')).toBe(true);
    expect(block.match(/<\/openviking-context>/g)).toHaveLength(1);
    expect(block.match(/<\/archive-overview>/g)).toHaveLength(1);
    expect(block.match(/<user-profile/g)).toHaveLength(1);
  });
});

describe('renderStartBlock under a host cap (issue 22 item 3, DESIGN D28)', () => {
  const preferences = Array.from({ length: BIG_PREFERENCE_COUNT }, (_, n) => ({
    name: `default/topic-${String(n).padStart(3, '0')}.md`,
    abstract: `Preference ${n}: small focused commits, reviewed the same day, for topic ${n}`,
  }));
  const sources = { space: 'default', profile: bigProfileText(), preferences, entities: [], reached: true };
  const budgets = { profileTokens: 6000, archiveTokens: 32000 };
  const claudeCap = hookContextCap('claude-code') as number;

  function expectClosedBlock(block: string): void {
    expect(block.startsWith('<openviking-context source=')).toBe(true);
    expect(block.endsWith('</openviking-context>')).toBe(true);
    expect(block.match(/<openviking-context /g)).toHaveLength(1);
    for (const tag of ['user-profile', 'available-memories', 'session-archive', 'archive-overview']) {
      expect(block.split(`<${tag}`).length, tag).toBe(block.split(`</${tag}>`).length);
    }
  }

  it("Claude Code: one closed block under its 10,000-unit limit, with the profile's first and last lines, then the listing and how to list the rest", () => {
    expect(claudeCap).toBeLessThan(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
    const block = renderStartBlock(
      { source: 'startup', tools: 'claude-code', profile: sources },
      { ...budgets, maxUnits: claudeCap },
    );
    expect(block.length).toBeLessThanOrEqual(claudeCap);
    expectClosedBlock(block);
    expect(block).toContain(BIG_PROFILE_FIRST);
    expect(block).toContain(BIG_PROFILE_LAST);
    expect(block).toContain('[profile middle elided]');
    expect(block).toContain('  - default/topic-000.md');
    expect(block).toMatch(
      /\.\.\. \+\d+ more; list them with mcp__plugin_openviking_openviking__list \{"uri": "viking:\/\/user\/default\/memories\/preferences\/"\}/,
    );
  });

  it('CodeBuddy (no cap): the larger block of the token budget, as before', () => {
    const block = renderStartBlock({ source: 'startup', tools: 'codebuddy', profile: sources }, budgets);
    expect(block.length).toBeGreaterThan(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
    expect(block).toBe(renderStartBlock({ source: 'startup', profile: sources }, { ...budgets, maxUnits: undefined }));
    expectClosedBlock(block);
    expect(block).toContain(BIG_PROFILE_FIRST);
    expect(block).toContain(BIG_PROFILE_LAST);
  });

  it('any cap from 1,500 to 20,000 units, with a long archive overview (resume) and a CJK profile: within it, frame closed', () => {
    const cjk = {
      ...sources,
      profile: Array.from(
        { length: 300 },
        (_, n) => `第${n}行：用户喜欢使用制表符缩进代码并且偏好简洁的提交信息。`,
      ).join('\n'),
    };
    for (const profile of [sources, cjk]) {
      for (let cap = 1500; cap <= 20000; cap += 1750) {
        const block = renderStartBlock(
          { source: 'resume', tools: 'claude-code', profile, archiveOverview: 'archive line\n'.repeat(3000) },
          { ...budgets, maxUnits: cap },
        );
        expect(block.length, `cap ${cap}`).toBeLessThanOrEqual(cap);
        expectClosedBlock(block);
      }
    }
  });
});
