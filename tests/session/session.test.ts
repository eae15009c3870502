/**
 * Session vocabulary: id derivation, bypass globs, workspace identity, and
 * which earlier sessions the start stage hands to capture's commit-stale.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { ListedEntry } from '../../src/capture/commitIndex.js';
import { staleCandidates } from '../../src/profile/housekeeping.js';
import {
  globToRegExp,
  isBypassed,
  ovSessionId,
  ovSubagentSessionId,
  resolveWorkspace,
} from '../../src/session/index.js';
import { bypassMatch } from '../../src/session/bypass.js';

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
  // README: "its id or working directory matches `OPENVIKING_BYPASS_SESSION_PATTERNS`, e.g. `/home/me/secret-work/**`" (failed on 8e37669 for the folder itself).
  it('the README example /home/me/secret-work/** bypasses the folder itself and everything below it, like gitignore', () => {
    const readme = settings(['/home/me/secret-work/**']);
    expect(isBypassed(readme, 's', '/home/me/secret-work')).toBe(true);
    expect(isBypassed(readme, 's', '/home/me/secret-work/app/src')).toBe(true);
    expect(isBypassed(readme, 's', '/home/me/secret-work2')).toBe(false);
    expect(isBypassed(readme, 's', '/home/me')).toBe(false);
    expect(globToRegExp('**/secret').test('/a/b/secret')).toBe(true);
    expect(globToRegExp('**/secret').test('secret')).toBe(true);
    expect(globToRegExp('a/**/b').test('a/b')).toBe(true);
    expect(globToRegExp('a/**/b').test('a/x/y/b')).toBe(true);
    expect(globToRegExp('a**b').test('a/x/b')).toBe(true);
    expect(bypassMatch(readme, 's', '/home/me/secret-work')).toEqual({
      by: 'pattern',
      pattern: '/home/me/secret-work/**',
      subject: 'folder',
    });
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
  const entry = (id: string, fields: Partial<ListedEntry> = {}): ListedEntry => ({
    ovSessionId: id,
    hostSessionId: id.slice(3),
    workspace: '/ws',
    markedAt: 0,
    ...fields,
  });
  const IDLE_MS = 30 * 60_000;
  const NOW = 10 * IDLE_MS;
  it('keeps other idle sessions of this workspace, never a live one, the current one or its sub-agents', () => {
    const entries = [
      entry('cb-old'),
      entry('cb-just-idle', { markedAt: NOW - IDLE_MS }),
      entry('cb-live', { markedAt: NOW - IDLE_MS + 1 }),
      entry('cb-elsewhere', { workspace: '/other' }),
      entry('cb-now'),
      entry('cb-now__subagent-a1'),
    ];
    expect(staleCandidates(entries, '/ws', 'cb-now', IDLE_MS, NOW).map((s) => s.ovSessionId)).toEqual([
      'cb-old',
      'cb-just-idle',
    ]);
    // The host's session id spares the same sessions as the OpenViking one (the start hook passes the host's).
    expect(staleCandidates(entries, '/ws', 'now', IDLE_MS, NOW).map((s) => s.ovSessionId)).toEqual([
      'cb-old',
      'cb-just-idle',
    ]);
    expect(staleCandidates(entries, '/ws', ' ', IDLE_MS, NOW).map((s) => s.ovSessionId)).toEqual([
      'cb-old',
      'cb-just-idle',
      'cb-now',
      'cb-now__subagent-a1',
    ]);
  });
  it('waits for the idle timeout of the server policy a session carries when it is longer', () => {
    const withPolicy = entry('cb-policy', { markedAt: NOW - IDLE_MS, serverIdleSeconds: 3600 });
    expect(staleCandidates([withPolicy], '/ws', 'cb-now', IDLE_MS, NOW)).toEqual([]);
    expect(
      staleCandidates([withPolicy], '/ws', 'cb-now', IDLE_MS, NOW - IDLE_MS + 3_600_000).map((s) => s.ovSessionId),
    ).toEqual(['cb-policy']);
    expect(
      staleCandidates([{ ...withPolicy, serverIdleSeconds: 60 }], '/ws', 'cb-now', IDLE_MS, NOW).map(
        (s) => s.ovSessionId,
      ),
    ).toEqual(['cb-policy']);
  });
});
