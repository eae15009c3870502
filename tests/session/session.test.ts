/**
 * Session vocabulary: id derivation, bypass globs, workspace identity, and
 * which earlier sessions the start stage hands to capture's commit-stale.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { emptyCaptureState } from '../../src/capture/state.js';
import type { CaptureState } from '../../src/capture/state.js';
import { staleCandidates } from '../../src/profile/housekeeping.js';
import { globToRegExp, isBypassed, ovSessionId, ovSubagentSessionId, resolveWorkspace } from '../../src/session/index.js';

describe('ids', () => {
  it('prefixes and sanitises', () => {
    expect(ovSessionId('26115fc3-ab/c:d e')).toBe('cb-26115fc3-ab-c-d-e');
    expect(ovSessionId('  ')).toBe('');
    expect(ovSubagentSessionId('s1', 'agent:a1b2')).toBe('cb-s1__subagent-agent-a1b2');
    expect(ovSubagentSessionId('s1', '')).toBe('');
  });
});

describe('bypass', () => {
  const settings = (patterns: string[], bypassSession = false) => ({ bypassSession, bypassPatterns: patterns });
  it('matches * within a segment and ** across segments, whole string only', () => {
    expect(globToRegExp('/tmp/*').test('/tmp/ws')).toBe(true);
    expect(globToRegExp('/tmp/*').test('/tmp/ws/deep')).toBe(false);
    expect(globToRegExp('/tmp/**').test('/tmp/ws/deep')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });
  it('checks the session id and the workspace', () => {
    expect(isBypassed(settings(['scratch-*']), 'scratch-1', '/home/u/p')).toBe(true);
    expect(isBypassed(settings(['/home/u/secret/**']), 's', '/home/u/secret/x')).toBe(true);
    expect(isBypassed(settings(['/home/u/secret/**']), 's', '/home/u/public')).toBe(false);
    expect(isBypassed(settings([], true), 's', '/x')).toBe(true);
    expect(isBypassed(settings(['', ' ']), 's', '/x')).toBe(false);
  });
});

describe('workspace', () => {
  it('input.cwd, else CODEBUDDY_PROJECT_DIR, else CLAUDE_PROJECT_DIR, else the process cwd', () => {
    expect(resolveWorkspace({ cwd: '/a' }, { CODEBUDDY_PROJECT_DIR: '/b' }, '/d')).toBe('/a');
    expect(resolveWorkspace({}, { CODEBUDDY_PROJECT_DIR: '/b', CLAUDE_PROJECT_DIR: '/c' }, '/d')).toBe('/b');
    expect(resolveWorkspace({}, { CLAUDE_PROJECT_DIR: '/c' }, '/d')).toBe('/c');
    expect(resolveWorkspace({ cwd: '' }, {}, '/d')).toBe('/d');
  });
});

describe('stale candidates', () => {
  const state = (id: string, fields: Partial<CaptureState>): CaptureState => ({ ...emptyCaptureState({ ovSessionId: id, hostSessionId: id.slice(3), workspace: '/ws' }), ...fields });
  it('keeps other sessions of this workspace with uncommitted captures, never the current one or its sub-agents', () => {
    const states = [
      state('cb-old', { capturedSinceCommit: 4 }),
      state('cb-captured-after-commit', { lastCaptureAt: 20, lastCommitAt: 10 }),
      state('cb-committed', { lastCaptureAt: 10, lastCommitAt: 20 }),
      state('cb-elsewhere', { capturedSinceCommit: 4, workspace: '/other' }),
      state('cb-now', { capturedSinceCommit: 4 }),
      state('cb-now__subagent-a1', { capturedSinceCommit: 4 }),
    ];
    expect(staleCandidates(states, '/ws', 'cb-now').map((s) => s.ovSessionId)).toEqual(['cb-old', 'cb-captured-after-commit']);
  });
});
