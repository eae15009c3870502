import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  describeDataDir,
  hostDataDirs,
  resolveDataDir,
  safeFileKey,
  sessionLockFile,
  sessionStateFile,
  storeLayout,
} from '../../src/store/paths.js';

const HOME = '/home/alice';

describe('resolveDataDir', () => {
  it('OPENVIKING_CODEBUDDY_DATA_DIR overrides; the host data variables never choose it (DESIGN D21)', () => {
    const all = {
      CODEBUDDY_PLUGIN_DATA: '/a',
      CLAUDE_PLUGIN_DATA: '/b',
      OPENVIKING_CODEBUDDY_DATA_DIR: '/c',
      CODEBUDDY_CONFIG_DIR: '/d',
    };
    expect(describeDataDir(all, HOME)).toEqual({ dir: '/c', source: 'env:OPENVIKING_CODEBUDDY_DATA_DIR' });
    expect(describeDataDir({ ...all, OPENVIKING_CODEBUDDY_DATA_DIR: undefined }, HOME)).toEqual({
      dir: '/d/openviking',
      source: 'env:CODEBUDDY_CONFIG_DIR',
    });
    expect(resolveDataDir({ CODEBUDDY_PLUGIN_DATA: '/a', CLAUDE_PLUGIN_DATA: '/b' }, HOME)).toBe(
      join(HOME, '.codebuddy', 'openviking'),
    );
    expect(hostDataDirs(all, HOME)).toEqual(['/a', '/b']);
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
    expect(describeDataDir({ CODEBUDDY_CONFIG_DIR: '/cfg' }, HOME)).toEqual({
      dir: '/cfg/openviking',
      source: 'env:CODEBUDDY_CONFIG_DIR',
    });
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
