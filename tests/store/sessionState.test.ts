import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquire } from '../../src/store/lock.js';
import { sessionLockFile, sessionStateFile, storeLayout } from '../../src/store/paths.js';
import {
  deleteSessionState,
  loadSessionState,
  saveSessionState,
  updateSessionState,
} from '../../src/store/sessionState.js';
import type { StateValidator } from '../../src/store/sessionState.js';
import { runTogether, useSandbox } from './fixtures/processes.js';

const box = useSandbox();

interface Cursor {
  lastTurn: number;
  ids: string[];
}

const validateCursor: StateValidator<Cursor> = (fields) =>
  typeof fields.lastTurn === 'number' && Array.isArray(fields.ids)
    ? { lastTurn: fields.lastTurn, ids: fields.ids as string[] }
    : undefined;

const lockOptions = { now: () => Date.now(), timeoutMs: 1000, staleMs: 30_000 };

function pathsFor(sessionId: string) {
  const layout = storeLayout(box.dir);
  return { file: sessionStateFile(layout, sessionId), lock: sessionLockFile(layout, sessionId) };
}

describe('load / save', () => {
  it('round-trips through {version:1, ...fields} with mode 0600', async () => {
    const { file } = pathsFor('s1');
    expect(await saveSessionState(file, { lastTurn: 3, ids: ['a'] })).toEqual({ ok: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, lastTurn: 3, ids: ['a'] });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadSessionState(file, validateCursor)).toEqual({
      status: 'found',
      state: { lastTurn: 3, ids: ['a'] },
    });
  });

  it('reads a missing file as absent without a warning', async () => {
    expect(await loadSessionState(pathsFor('none').file, validateCursor)).toEqual({ status: 'absent' });
  });

  it.each([
    ['a future version', JSON.stringify({ version: 2, lastTurn: 1, ids: [] }), /version 2/],
    ['no version', JSON.stringify({ lastTurn: 1, ids: [] }), /version undefined/],
    ['corrupt JSON', '{"version":1,', /corrupt/],
    ['a non-object', '[1,2]', /not an object/],
    ['fields the validator rejects', JSON.stringify({ version: 1, lastTurn: 'x' }), /failed validation/],
  ])('reads %s as absent with a warning', async (_label, content, warning) => {
    const { file } = pathsFor('bad');
    await saveSessionState(file, {});
    await writeFile(file, content);
    const loaded = await loadSessionState(file, validateCursor);
    expect(loaded.status).toBe('absent');
    expect(loaded.status === 'absent' && loaded.warning).toMatch(warning);
  });

  it('survives a throwing validator', async () => {
    const { file } = pathsFor('s');
    await saveSessionState(file, { lastTurn: 1, ids: [] });
    const loaded = await loadSessionState(file, () => {
      throw new Error('bug');
    });
    expect(loaded).toMatchObject({ status: 'absent', warning: expect.stringMatching(/validator threw/) });
  });

  it('reports a failed save instead of throwing', async () => {
    const blocker = join(box.dir, 'blocker');
    await writeFile(blocker, '');
    const result = await saveSessionState(join(blocker, 'state.json'), { lastTurn: 1 });
    expect(result.ok).toBe(false);
  });

  it('deletes, and deleting twice is fine', async () => {
    const { file } = pathsFor('gone');
    await saveSessionState(file, { lastTurn: 1, ids: [] });
    expect(await deleteSessionState(file)).toEqual({ ok: true });
    expect(await deleteSessionState(file)).toEqual({ ok: true });
    expect(await loadSessionState(file, validateCursor)).toEqual({ status: 'absent' });
  });
});

describe('updateSessionState', () => {
  it('creates, then mutates the stored state', async () => {
    const paths = pathsFor('u1');
    const first = await updateSessionState(paths, { validate: validateCursor, lock: lockOptions }, (current) => {
      expect(current).toBeUndefined();
      return { lastTurn: 1, ids: ['t1'] };
    });
    expect(first).toEqual({ ok: true, state: { lastTurn: 1, ids: ['t1'] }, changed: true });
    const second = await updateSessionState(paths, { validate: validateCursor, lock: lockOptions }, (current) =>
      current ? { lastTurn: current.lastTurn + 1, ids: [...current.ids, 't2'] } : undefined,
    );
    expect(second).toMatchObject({ ok: true, state: { lastTurn: 2, ids: ['t1', 't2'] } });
  });

  it('writes nothing when mutate returns undefined', async () => {
    const paths = pathsFor('u2');
    const result = await updateSessionState(paths, { validate: validateCursor, lock: lockOptions }, () => undefined);
    expect(result).toEqual({ ok: true, state: undefined, changed: false });
    await expect(stat(paths.file)).rejects.toThrow();
  });

  it('starts fresh over a future-version file and passes the warning on', async () => {
    const paths = pathsFor('u3');
    await saveSessionState(paths.file, {});
    await writeFile(paths.file, JSON.stringify({ version: 9 }));
    const result = await updateSessionState(paths, { validate: validateCursor, lock: lockOptions }, (current) => ({
      lastTurn: current ? -1 : 0,
      ids: [],
    }));
    expect(result).toMatchObject({ ok: true, state: { lastTurn: 0 }, warning: expect.stringMatching(/version 9/) });
  });

  it('skips with reason "timeout" while another holder keeps the lock', async () => {
    const paths = pathsFor('u4');
    const held = await acquire(paths.lock, lockOptions);
    let called = false;
    const result = await updateSessionState(
      paths,
      { validate: validateCursor, lock: { ...lockOptions, timeoutMs: 100 } },
      () => {
        called = true;
        return { lastTurn: 1, ids: [] };
      },
    );
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(called).toBe(false);
    if (held.ok) await held.handle.release();
  });

  it('turns an exception in mutate into reason "error" and writes nothing', async () => {
    const paths = pathsFor('u5');
    await saveSessionState(paths.file, { lastTurn: 7, ids: [] });
    const result = await updateSessionState(paths, { validate: validateCursor, lock: lockOptions }, () => {
      throw new Error('stage bug');
    });
    expect(result).toEqual({ ok: false, reason: 'error', message: 'stage bug' });
    expect(await loadSessionState(paths.file, validateCursor)).toMatchObject({ state: { lastTurn: 7 } });
  });

  it('loses no update when two processes update the same session concurrently', async () => {
    const paths = pathsFor('shared');
    const reports = await runTogether<{ failures: number }>('state-counter', [paths.file, paths.lock, 30], 2, box.dir);
    expect(reports).toEqual([{ failures: 0 }, { failures: 0 }]);
    expect(JSON.parse(await readFile(paths.file, 'utf8'))).toEqual({ version: 1, count: 60 });
  }, 20_000); // two child processes
});
