import { describe, expect, it } from 'vitest';
import { isMatchAll, matcherQuery, matchesMatcher } from '../support/host-sim/protocol/index.js';
import type { MatcherMode } from '../support/host-sim/protocol/index.js';

const MODES: MatcherMode[] = ['codebuddy', 'claude'];

describe('matchesMatcher', () => {
  for (const mode of MODES) {
    it(`${mode}: absent, empty and * match everything`, () => {
      for (const m of [undefined, '', '*']) {
        expect(isMatchAll(m)).toBe(true);
        expect(matchesMatcher(m, 'Read', mode)).toBe(true);
      }
    });

    it(`${mode}: no match value selects every group`, () => {
      expect(matchesMatcher('Read', undefined, mode)).toBe(true);
    });

    it(`${mode}: an invalid regex matches nothing and does not throw`, () => {
      expect(matchesMatcher('Read(', 'Read(', mode)).toBe(false);
      expect(matchesMatcher('[', 'Read', mode)).toBe(false);
    });

    it(`${mode}: an anchored alternation selects exactly its names`, () => {
      const m = '^(Read|Edit)$';
      expect(matchesMatcher(m, 'Read', mode)).toBe(true);
      expect(matchesMatcher(m, 'Edit', mode)).toBe(true);
      expect(matchesMatcher(m, 'NotebookEdit', mode)).toBe(false);
      expect(matchesMatcher(m, 'ReadMcpResource', mode)).toBe(false);
    });
  }

  it('codebuddy: a plain pattern is an UNANCHORED regex (Edit selects NotebookEdit)', () => {
    expect(matchesMatcher('Edit', 'NotebookEdit', 'codebuddy')).toBe(true);
    expect(matchesMatcher('Read|Glob', 'ReadMcpResource', 'codebuddy')).toBe(true);
    expect(matchesMatcher('Read|Glob', 'Bash', 'codebuddy')).toBe(false);
  });

  it('claude: a word-and-pipe pattern is a list of exact names', () => {
    expect(matchesMatcher('Edit', 'NotebookEdit', 'claude')).toBe(false);
    expect(matchesMatcher('Read|Glob', 'Glob', 'claude')).toBe(true);
    expect(matchesMatcher('Read|Glob', 'ReadMcpResource', 'claude')).toBe(false);
    expect(matchesMatcher('mcp__.*', 'mcp__openviking__read', 'claude')).toBe(true);
  });

  it('is case-sensitive like the host', () => {
    expect(matchesMatcher('^Read$', 'read', 'codebuddy')).toBe(false);
  });
});

describe('matcherQuery (the value CodeBuddy matches per event)', () => {
  it('reads the host fields', () => {
    expect(matcherQuery('PreToolUse', { tool_name: 'Read' })).toBe('Read');
    expect(matcherQuery('PostToolUse', { tool_name: 'Bash' })).toBe('Bash');
    expect(matcherQuery('SessionStart', { source: 'resume' })).toBe('resume');
    expect(matcherQuery('SessionEnd', { reason: 'clear' })).toBe('clear');
    expect(matcherQuery('PreCompact', { trigger: 'auto' })).toBe('auto');
    expect(matcherQuery('Notification', { notification_type: 'auth_success' })).toBe('auth_success');
  });

  it('has no value for other events, empty or non-string fields', () => {
    expect(matcherQuery('Stop', { tool_name: 'Read' })).toBeUndefined();
    expect(matcherQuery('UserPromptSubmit', { prompt: 'x' })).toBeUndefined();
    expect(matcherQuery('PreToolUse', { tool_name: '' })).toBeUndefined();
    expect(matcherQuery('PreToolUse', { tool_name: 3 })).toBeUndefined();
    expect(matcherQuery('constructor', {})).toBeUndefined();
  });
});
