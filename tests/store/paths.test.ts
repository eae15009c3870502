import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDataDir, resolveDataDir, safeFileKey, sessionLockFile, sessionStateFile, storeLayout } from '../../src/store/paths.js';

const HOME = '/home/alice';

describe('resolveDataDir', () => {
  it('prefers CODEBUDDY_PLUGIN_DATA, then CLAUDE_PLUGIN_DATA, then OPENVIKING_CODEBUDDY_DATA_DIR', () => {
    const all = { CODEBUDDY_PLUGIN_DATA: '/a', CLAUDE_PLUGIN_DATA: '/b', OPENVIKING_CODEBUDDY_DATA_DIR: '/c', CODEBUDDY_CONFIG_DIR: '/d' };
    expect(describeDataDir(all, HOME)).toEqual({ dir: '/a', source: 'env:CODEBUDDY_PLUGIN_DATA' });
    expect(describeDataDir({ ...all, CODEBUDDY_PLUGIN_DATA: undefined }, HOME)).toEqual({ dir: '/b', source: 'env:CLAUDE_PLUGIN_DATA' });
    expect(resolveDataDir({ OPENVIKING_CODEBUDDY_DATA_DIR: '/c', CODEBUDDY_CONFIG_DIR: '/d' }, HOME)).toBe('/c');
  });

  it('skips empty, unsubstituted and relative values', () => {
    const env = {
      CODEBUDDY_PLUGIN_DATA: '${CODEBUDDY_PLUGIN_DATA}',
      CLAUDE_PLUGIN_DATA: '   ',
      OPENVIKING_CODEBUDDY_DATA_DIR: 'relative/dir',
    };
    expect(describeDataDir(env, HOME)).toEqual({ dir: join(HOME, '.codebuddy', 'openviking'), source: 'default' });
  });

  it('expands ~ in user-set paths', () => {
    expect(resolveDataDir({ OPENVIKING_CODEBUDDY_DATA_DIR: '~/ov-data' }, HOME)).toBe(join(HOME, 'ov-data'));
  });

  it('falls back to <CODEBUDDY_CONFIG_DIR>/openviking, else ~/.codebuddy/openviking, never the temp dir', () => {
    expect(describeDataDir({ CODEBUDDY_CONFIG_DIR: '/cfg' }, HOME)).toEqual({ dir: '/cfg/openviking', source: 'env:CODEBUDDY_CONFIG_DIR' });
    const fallback = resolveDataDir({ TMPDIR: tmpdir() }, HOME);
    expect(fallback).toBe(join(HOME, '.codebuddy', 'openviking'));
    expect(fallback.startsWith(tmpdir())).toBe(false);
  });
});

describe('safeFileKey', () => {
  it('keeps a readable prefix and adds a hash', () => {
    expect(safeFileKey('cc-1234')).toMatch(/^cc-1234-[0-9a-f]{16}$/);
  });

  it('gives distinct keys to ids that sanitize alike', () => {
    const ids = ['a/b', 'a_b', 'a\\b', 'a.b', 'A_b', '../a_b'];
    expect(new Set(ids.map(safeFileKey)).size).toBe(ids.length);
  });

  it('never yields separators, dot-names or unbounded length', () => {
    for (const id of ['../../etc/passwd', '..', '.', '', 'x'.repeat(5000), 'ü/日本\u0000', '/abs/path']) {
      const key = safeFileKey(id);
      expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(key.startsWith('.')).toBe(false);
      expect(key.length).toBeLessThanOrEqual(48 + 1 + 16);
    }
  });

  it('is deterministic', () => {
    expect(safeFileKey('session-42')).toBe(safeFileKey('session-42'));
  });
});

describe('storeLayout', () => {
  it('places state, locks, queue and cache under the root', () => {
    const layout = storeLayout('/data');
    expect(layout).toEqual({
      root: '/data',
      sessionsDir: '/data/sessions',
      locksDir: '/data/locks',
      queueDir: '/data/queue',
      cacheDir: '/data/cache',
    });
    const stateFile = sessionStateFile(layout, '../evil');
    expect(stateFile.startsWith(`/data/sessions${sep}`)).toBe(true);
    expect(stateFile.endsWith('.json')).toBe(true);
    expect(sessionLockFile(layout, '../evil', 'worker')).toMatch(/^\/data\/locks\/worker-[A-Za-z0-9_-]+\.lock$/);
    expect(sessionLockFile(layout, 's1')).not.toBe(sessionLockFile(layout, 's1', 'worker'));
  });
});
