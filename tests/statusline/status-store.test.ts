import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  latestMark,
  MAX_STATUS_SESSIONS,
  readStatus,
  recordActivity,
  recordServerStatus,
  SERVER_STATUS_REFRESH_MS,
  statusFile,
  serverKeyOf,
} from '../../src/store/status.js';

/** The server every recorded observation here is of. */
const SERVER_URL = 'http://127.0.0.1:9';

const sandbox = () => join(mkdtempSync(join(tmpdir(), 'ov-status-')), 'data');

describe('status snapshot', () => {
  it('reads as empty before anything was recorded', async () => {
    expect(await readStatus(sandbox())).toEqual({ recall: {}, capture: {} });
  });

  it('keeps server state, recall and capture apart, privately', async () => {
    const dir = sandbox();
    await recordServerStatus(dir, { up: false, at: 1_000, detail: 'NETWORK' }, SERVER_URL);
    await recordActivity(dir, 'recall', 's1', { at: 2_000, count: 3 });
    await recordActivity(dir, 'capture', 's1', { at: 2_500, count: 8 });
    expect(await readStatus(dir)).toEqual({
      server: { up: false, at: 1_000, detail: 'NETWORK', server: serverKeyOf(SERVER_URL) },
      recall: { s1: { at: 2_000, count: 3 } },
      capture: { s1: { at: 2_500, count: 8 } },
    });
    expect(statSync(statusFile(dir, 'recall')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'status')).mode & 0o777).toBe(0o700);
  });

  it("a start's learned report is its own file, read back only once there is one (DESIGN D36)", async () => {
    const dir = sandbox();
    await recordActivity(dir, 'learned', 's1', { at: 3_000, count: 4 });
    expect(await readStatus(dir)).toEqual({ recall: {}, capture: {}, learned: { s1: { at: 3_000, count: 4 } } });
  });

  it('rewrites an unchanged server state at most once per refresh interval, a change at once', async () => {
    const dir = sandbox();
    await recordServerStatus(dir, { up: true, at: 10_000 }, SERVER_URL);
    await recordServerStatus(dir, { up: true, at: 10_000 + SERVER_STATUS_REFRESH_MS - 1 }, SERVER_URL);
    expect((await readStatus(dir)).server).toMatchObject({ up: true, at: 10_000 });
    await recordServerStatus(dir, { up: true, at: 10_000 + SERVER_STATUS_REFRESH_MS }, SERVER_URL);
    expect((await readStatus(dir)).server).toMatchObject({ up: true, at: 10_000 + SERVER_STATUS_REFRESH_MS });
    await recordServerStatus(dir, { up: false, at: 10_001 + SERVER_STATUS_REFRESH_MS, detail: 'TIMEOUT' }, SERVER_URL);
    expect((await readStatus(dir)).server).toEqual({
      up: false,
      at: 10_001 + SERVER_STATUS_REFRESH_MS,
      detail: 'TIMEOUT',
      server: serverKeyOf(SERVER_URL),
    });
    await recordServerStatus(dir, { up: false, at: 10_002 + SERVER_STATUS_REFRESH_MS, detail: 'HTTP 503' }, SERVER_URL);
    expect((await readStatus(dir)).server?.detail).toBe('HTTP 503');
    // A clock that went back is not "fresh": the observation is written.
    await recordServerStatus(dir, { up: false, at: 5_000, detail: 'HTTP 503' }, SERVER_URL);
    expect((await readStatus(dir)).server?.at).toBe(5_000);
  });

  it('replaces a session mark and keeps only the newest sessions', async () => {
    const dir = sandbox();
    for (let i = 0; i < MAX_STATUS_SESSIONS + 5; i += 1)
      await recordActivity(dir, 'recall', `s${i}`, { at: 1_000 + i, count: i });
    await recordActivity(dir, 'recall', 's3', { at: 9_999, count: 1 });
    const { recall } = await readStatus(dir);
    expect(Object.keys(recall)).toHaveLength(MAX_STATUS_SESSIONS);
    expect(recall['s3']).toEqual({ at: 9_999, count: 1 });
    expect(recall['s0']).toBeUndefined();
    expect(latestMark(recall)).toEqual({ sessionId: 's3', mark: { at: 9_999, count: 1 } });
  });

  it('keeps which process answered a recall, and drops a value that names none (it is read back from disk)', async () => {
    const dir = sandbox();
    await recordActivity(dir, 'recall', 'by-resident', { at: 1, count: 2, by: 'resident' });
    await recordActivity(dir, 'recall', 'by-hook', { at: 2, count: 0, by: 'hook' });
    await recordActivity(dir, 'recall', 'unsaid', { at: 3, count: 1 });
    const marks = JSON.parse(readFileSync(statusFile(dir, 'recall'), 'utf8')) as Record<string, object>;
    marks['forged'] = { at: 4, count: 1, by: '\u001b[31mroot' };
    writeFileSync(statusFile(dir, 'recall'), JSON.stringify(marks));
    expect((await readStatus(dir)).recall).toEqual({
      'by-resident': { at: 1, count: 2, by: 'resident' },
      'by-hook': { at: 2, count: 0, by: 'hook' },
      unsaid: { at: 3, count: 1 },
      forged: { at: 4, count: 1 },
    });
  });

  it('ignores corrupt files and malformed entries instead of throwing', async () => {
    const dir = sandbox();
    mkdirSync(join(dir, 'status'), { recursive: true });
    writeFileSync(statusFile(dir, 'server'), '{not json');
    writeFileSync(
      statusFile(dir, 'capture'),
      JSON.stringify({ good: { at: 5, count: 2 }, bad: { at: 'x' }, worse: 7 }),
    );
    expect(await readStatus(dir)).toEqual({ recall: {}, capture: { good: { at: 5, count: 2 } } });
  });

  it('never throws when the data dir cannot be written', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ov-status-')), 'a-file');
    writeFileSync(file, 'x');
    await expect(recordServerStatus(file, { up: true, at: 1 }, SERVER_URL)).resolves.toBeUndefined();
    await expect(recordActivity(file, 'capture', 's', { at: 1, count: 1 })).resolves.toBeUndefined();
  });
});
