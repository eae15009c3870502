import { mkdir, readdir, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tryLock } from '../../src/store/lock.js';
import { enqueue, queuePaths, queueStats, replay } from '../../src/store/queue.js';
import { requeueDeadLetters } from '../../src/store/queueDead.js';
import type { DeadLetter, QueueEntry, ReplayOptions, ReplayVerdict } from '../../src/store/queue.js';
import { runTogether, useSandbox } from './fixtures/processes.js';

const box = useSandbox();
let queueDir: string;
beforeEach(() => {
  queueDir = join(box.dir, 'queue');
});

const T0 = Date.now();
const DAY = 86_400_000;
const enqueueOptions = { now: () => Date.now(), lockTimeoutMs: 1000 };

function add(sessionId: string, text: string, createdAt = T0, seq = 0) {
  return enqueue(
    queueDir,
    { type: 'addMessages', sessionId, payload: { messages: [{ role: 'user', text }] }, createdAt, seq },
    enqueueOptions,
  );
}

/** An execute that records `<session>:<text>` and answers from `decide`. */
function recorder(decide: (label: string, entry: QueueEntry) => ReplayVerdict = () => 'done') {
  const calls: string[] = [];
  const execute = async (entry: QueueEntry): Promise<ReplayVerdict> => {
    const payload = entry.payload as { messages?: { text: string }[] };
    const label = `${entry.sessionId}:${payload.messages?.[0]?.text ?? entry.type}`;
    calls.push(label);
    return decide(label, entry);
  };
  return { calls, execute };
}

function replayOptions(execute: ReplayOptions['execute'], over: Partial<ReplayOptions> = {}): ReplayOptions {
  return { execute, now: () => Date.now(), budgetMs: 10_000, limit: 50, maxAttempts: 3, ttlMs: 7 * DAY, ...over };
}

const pendingNames = async () => (await readdir(queuePaths(queueDir).pendingDir).catch(() => [] as string[])).sort();
async function deadLetters(): Promise<DeadLetter[]> {
  const dir = queuePaths(queueDir).deadDir;
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  return Promise.all(names.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as DeadLetter));
}

describe('enqueue', () => {
  it('writes one private, sortable file holding the entry and no URL', async () => {
    const result = await add('cc-1', 'hello', T0, 7);
    expect(result).toMatchObject({ ok: true, deduped: false });
    const [name] = await pendingNames();
    expect(name).toMatch(new RegExp(`^0*${T0}-000007-[0-9a-f]{32}\\.json$`));
    const file = join(queuePaths(queueDir).pendingDir, name as string);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(queuePaths(queueDir).pendingDir)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(file, 'utf8')) as QueueEntry;
    expect(stored).toMatchObject({ type: 'addMessages', sessionId: 'cc-1', createdAt: T0, seq: 7, attempts: 0 });
    expect(stored.dedupKey).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(stored).sort()).toEqual([
      'attempts',
      'createdAt',
      'dedupKey',
      'payload',
      'seq',
      'sessionId',
      'type',
    ]);
  });

  it('collapses the same write (whatever its key order or time), but not other sessions, types or payloads', async () => {
    const payload = { messages: [{ role: 'user', text: 'x' }], meta: { a: 1, b: 2 } };
    const reordered = { meta: { b: 2, a: 1 }, messages: [{ text: 'x', role: 'user' }] };
    const first = await enqueue(
      queueDir,
      { type: 'addMessages', sessionId: 's', payload, createdAt: T0 },
      enqueueOptions,
    );
    const again = await enqueue(
      queueDir,
      { type: 'addMessages', sessionId: 's', payload: reordered, createdAt: T0 + 5 },
      enqueueOptions,
    );
    expect(again).toEqual({ ok: true, deduped: true, file: first.ok ? first.file : '' });
    expect(
      (await enqueue(queueDir, { type: 'addMessages', sessionId: 't', payload, createdAt: T0 }, enqueueOptions)).ok,
    ).toBe(true);
    expect(
      (await enqueue(queueDir, { type: 'commit', sessionId: 's', payload, createdAt: T0 }, enqueueOptions)).ok,
    ).toBe(true);
    expect(await add('s', 'y')).toMatchObject({ deduped: false });
    expect(await pendingNames()).toHaveLength(4);
  });

  it('also collapses into a copy a replayer has claimed', async () => {
    await add('s', 'x');
    const [name] = await pendingNames();
    const dir = queuePaths(queueDir).pendingDir;
    await rename(join(dir, name as string), join(dir, (name as string).replace(/\.json$/, '.processing')));
    expect(await add('s', 'x', T0 + 100)).toMatchObject({ ok: true, deduped: true });
  });

  it('refuses bad input instead of throwing', async () => {
    expect(await add('s', 'x', T0, -1)).toMatchObject({ ok: false });
    expect(await add('s', 'x', T0, 1_000_000)).toMatchObject({ ok: false });
    expect(await add('s', 'x', Number.NaN)).toMatchObject({ ok: false });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(
      await enqueue(queueDir, { type: 'commit', sessionId: 's', payload: cyclic, createdAt: T0 }, enqueueOptions),
    ).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not JSON/),
    });
  });

  it('dedupes across three processes enqueueing the same 15 writes at once', async () => {
    const reports = await runTogether<{ deduped: number; failed: number }>('enqueue', [queueDir, 15], 3, box.dir);
    expect(reports.reduce((sum, r) => sum + r.failed, 0)).toBe(0);
    expect(reports.reduce((sum, r) => sum + r.deduped, 0)).toBe(30);
    expect((await pendingNames()).filter((n) => n.endsWith('.json'))).toHaveLength(15);
  }, 20_000); // three child processes
});

describe('replay', () => {
  it('replays in (createdAt, seq) order and deletes what succeeded', async () => {
    await add('s', 'third', T0 + 2);
    await add('s', 'first', T0, 0);
    await add('s', 'second', T0, 1);
    await add('t', 'zeroth', T0 - 1);
    const { calls, execute } = recorder();
    const summary = await replay(queueDir, replayOptions(execute));
    expect(calls).toEqual(['t:zeroth', 's:first', 's:second', 's:third']);
    expect(summary).toMatchObject({
      replayed: 4,
      retried: 0,
      deadLettered: 0,
      deferred: 0,
      remaining: 0,
      busy: false,
      problems: [],
    });
    expect(await pendingNames()).toEqual([]);
  });

  it('stops a session at its first retryable failure, keeps other sessions going, and resumes in order next run', async () => {
    await add('s', 'a1', T0);
    await add('t', 'b1', T0 + 1);
    await add('s', 'a2', T0 + 2);
    await add('t', 'b2', T0 + 3);
    await add('s', 'a3', T0 + 4);
    const failing = recorder((label) =>
      label === 's:a1'
        ? { verdict: 'retry', error: 'HTTP 503 from http://ov.local:1933/api?key=sk-1 Bearer sk-secret' }
        : 'done',
    );
    const first = await replay(queueDir, replayOptions(failing.execute));
    expect(failing.calls).toEqual(['s:a1', 't:b1', 't:b2']);
    expect(first).toMatchObject({ replayed: 2, retried: 1, deferred: 2, remaining: 3 });
    const dir = queuePaths(queueDir).pendingDir;
    const [oldest] = await pendingNames();
    const kept = JSON.parse(await readFile(join(dir, oldest as string), 'utf8')) as QueueEntry;
    expect(kept).toMatchObject({ sessionId: 's', attempts: 1 });
    expect(kept.lastError).toBe('HTTP 503 from <url> Bearer <redacted>');
    const healthy = recorder();
    await replay(queueDir, replayOptions(healthy.execute));
    expect(healthy.calls).toEqual(['s:a1', 's:a2', 's:a3']);
  });

  it('dead-letters after maxAttempts with the last error and the entry', async () => {
    await add('s', 'doomed');
    await add('s', 'next', T0 + 1);
    const failing = recorder((label) => (label === 's:doomed' ? { verdict: 'retry', error: 'timeout' } : 'done'));
    const first = await replay(queueDir, replayOptions(failing.execute, { maxAttempts: 2 }));
    expect(first).toMatchObject({ retried: 1, deferred: 1, deadLettered: 0 });
    const second = await replay(queueDir, replayOptions(failing.execute, { maxAttempts: 2 }));
    expect(second).toMatchObject({ retried: 0, deadLettered: 1, deferred: 1 }); // the session still waits this run
    const [letter] = await deadLetters();
    expect(letter).toMatchObject({
      reason: 'max-attempts',
      error: 'timeout',
      entry: { attempts: 2, lastError: 'timeout' },
    });
    expect((await replay(queueDir, replayOptions(failing.execute, { maxAttempts: 2 }))).replayed).toBe(1);
    expect(failing.calls).toEqual(['s:doomed', 's:doomed', 's:next']);
  });

  it('dead-letters unsent an entry older than the TTL, or one already at maxAttempts', async () => {
    await add('s', 'ancient', T0 - 8 * DAY);
    await add('s', 'fresh', T0);
    const { calls, execute } = recorder();
    const summary = await replay(queueDir, replayOptions(execute));
    expect(calls).toEqual(['s:fresh']);
    expect(summary).toMatchObject({ deadLettered: 1, replayed: 1 });
    expect(await deadLetters()).toMatchObject([{ reason: 'expired', entry: { createdAt: T0 - 8 * DAY } }]);
    await add('s', 'worn');
    const lowered = await replay(queueDir, replayOptions(execute, { maxAttempts: 0 }));
    expect(lowered.deadLettered).toBe(1);
  });

  it('dead-letters a fatal failure at once and carries on with the session', async () => {
    await add('s', 'bad');
    await add('s', 'good', T0 + 1);
    const { calls, execute } = recorder((label) =>
      label === 's:bad' ? { verdict: 'fatal', error: '400 invalid message' } : 'done',
    );
    const summary = await replay(queueDir, replayOptions(execute));
    expect(calls).toEqual(['s:bad', 's:good']);
    expect(summary).toMatchObject({ deadLettered: 1, replayed: 1, remaining: 0 });
    const [letter] = await deadLetters();
    expect(letter).toMatchObject({ reason: 'fatal', error: '400 invalid message', entry: { sessionId: 's' } });
    expect(letter?.file).toMatch(/\.json$/);
    const bare = recorder(() => 'fatal');
    await add('s', 'bare');
    expect((await replay(queueDir, replayOptions(bare.execute))).deadLettered).toBe(1);
  });

  it('treats a throwing or nonsensical execute as retryable', async () => {
    await add('s', 'x');
    await add('t', 'y');
    const summary = await replay(
      queueDir,
      replayOptions(async (entry) => {
        if (entry.sessionId === 's') throw new Error('socket hang up');
        return 'maybe' as unknown as ReplayVerdict;
      }),
    );
    expect(summary).toMatchObject({ retried: 2, remaining: 2 });
  });

  it('an unanswered write (wait) never uses up attempts, however many runs; a refusal still does', async () => {
    await add('s', 'unanswered');
    await add('t', 'refused', T0 + 1);
    const { execute } = recorder((label) =>
      label === 's:unanswered'
        ? { verdict: 'wait', error: 'NETWORK: ECONNREFUSED' }
        : { verdict: 'retry', error: '400 bad' },
    );
    for (let run = 0; run < 5; run++) await replay(queueDir, replayOptions(execute));
    const waiting = JSON.parse(
      await readFile(join(queuePaths(queueDir).pendingDir, (await pendingNames())[0] as string), 'utf8'),
    ) as QueueEntry;
    expect(waiting).toMatchObject({ sessionId: 's', attempts: 0, lastError: 'NETWORK: ECONNREFUSED' });
    expect(await deadLetters()).toMatchObject([{ reason: 'max-attempts', entry: { sessionId: 't', attempts: 3 } }]);
    const summary = await replay(queueDir, replayOptions(recorder(() => 'wait').execute));
    expect(summary).toMatchObject({ waiting: 1, retried: 0, remaining: 1 });
  });

  it('requeue-dead puts dead letters back in order with fresh attempts and TTL; a corrupt one stays', async () => {
    await add('s', 'old', T0 - 8 * DAY);
    await add('s', 'refused', T0);
    await replay(
      queueDir,
      replayOptions(recorder(() => ({ verdict: 'retry', error: '403' })).execute, { maxAttempts: 1 }),
    );
    await writeFile(
      join(queuePaths(queueDir).deadDir, `${String(T0).padStart(15, '0')}-corrupt.json`),
      '{"reason":"corrupt","raw":"x"}',
    );
    expect(await deadLetters()).toHaveLength(3);
    const back = await requeueDeadLetters(queueDir, enqueueOptions);
    expect(back).toMatchObject({ requeued: 2, alreadyQueued: 0, kept: 1, problems: [] });
    const { calls, execute } = recorder();
    expect(await replay(queueDir, replayOptions(execute))).toMatchObject({ replayed: 2, deadLettered: 0 });
    expect(calls).toEqual(['s:old', 's:refused']);
    expect(await deadLetters()).toHaveLength(1);
  });

  it('haltRun defers everything after the entry', async () => {
    await add('s', 'a', T0);
    await add('t', 'b', T0 + 1);
    await add('u', 'c', T0 + 2);
    const { calls, execute } = recorder(() => ({ verdict: 'retry', error: 'ECONNREFUSED', haltRun: true }));
    const summary = await replay(queueDir, replayOptions(execute));
    expect(calls).toEqual(['s:a']);
    expect(summary).toMatchObject({ retried: 1, deferred: 2, remaining: 3 });
  });

  it('respects the entry limit and the time budget', async () => {
    for (let i = 0; i < 5; i++) await add(`s${i}`, 'm', T0 + i);
    const limited = recorder();
    expect(await replay(queueDir, replayOptions(limited.execute, { limit: 2 }))).toMatchObject({
      replayed: 2,
      deferred: 3,
      remaining: 3,
    });
    let clock = T0;
    const slow = recorder(() => {
      clock += 600;
      return 'done';
    });
    expect(await replay(queueDir, replayOptions(slow.execute, { now: () => clock, budgetMs: 1000 }))).toMatchObject({
      replayed: 2,
      deferred: 1,
    });
  });

  it('dead-letters an unreadable entry with its raw text', async () => {
    await add('s', 'ok');
    const dir = queuePaths(queueDir).pendingDir;
    await writeFile(join(dir, `${String(T0 - 5).padStart(15, '0')}-000000-${'a'.repeat(32)}.json`), '{"type":"addMes');
    await writeFile(join(dir, 'README.txt'), 'foreign files are ignored');
    const { calls, execute } = recorder();
    const summary = await replay(queueDir, replayOptions(execute));
    expect(calls).toEqual(['s:ok']);
    expect(summary).toMatchObject({ deadLettered: 1, replayed: 1 });
    expect(await deadLetters()).toMatchObject([{ reason: 'corrupt', raw: '{"type":"addMes' }]);
  });

  it('returns at once a claim left by a replayer that is gone (claims are made only under the replay lock), in order', async () => {
    await add('s', 'claimed', T0);
    await add('s', 'after', T0 + 1);
    await add('t', 'other', T0 + 2);
    const dir = queuePaths(queueDir).pendingDir;
    const [first] = await pendingNames();
    const claimed = join(dir, (first as string).replace(/\.json$/, '.processing'));
    await rename(join(dir, first as string), claimed); // a start hook claimed it, then exited at its deadline
    await utimes(claimed, new Date(), new Date());
    const { calls, execute } = recorder();
    const run = await replay(queueDir, replayOptions(execute, { claimTtlMs: 60_000 }));
    expect(calls).toEqual(['s:claimed', 's:after', 't:other']);
    expect(run).toMatchObject({ reclaimed: 1, replayed: 3, remaining: 0 });
  });

  it('a replayer whose lock was reclaimed while it sent leaves the entry to the new holder', async () => {
    await add('s', 'slow');
    const { replayLock } = queuePaths(queueDir);
    const summary = await replay(
      queueDir,
      replayOptions(
        async () => {
          // Stopped past the stale time: another replayer reclaims the lock meanwhile.
          const taken = await tryLock(replayLock, { now: () => Date.now() + 10 * 60_000, staleMs: 60_000 });
          if (!taken.ok) throw new Error('the lock was not reclaimed');
          return { verdict: 'retry', error: 'late answer' };
        },
        { claimTtlMs: 60_000 },
      ),
    );
    expect(summary).toMatchObject({ retried: 0, deadLettered: 0, remaining: 1 });
    const [name] = await pendingNames();
    expect(name).toMatch(/\.processing$/); // untouched: the new holder returns and replays it
  });

  it('prefers the rewritten pending copy when a replayer died between rewrite and unlink', async () => {
    await add('s', 'x');
    const dir = queuePaths(queueDir).pendingDir;
    const [name] = await pendingNames();
    const pending = join(dir, name as string);
    const claimed = pending.replace(/\.json$/, '.processing');
    await writeFile(claimed, await readFile(pending));
    await utimes(claimed, (T0 - DAY) / 1000, (T0 - DAY) / 1000);
    const { calls, execute } = recorder();
    expect(await replay(queueDir, replayOptions(execute))).toMatchObject({ reclaimed: 1, replayed: 1, remaining: 0 });
    expect(calls).toEqual(['s:x']);
  });

  it('sweeps temp files left by dead writers', async () => {
    const dir = queuePaths(queueDir).pendingDir;
    await mkdir(dir, { recursive: true });
    const stale = join(dir, 'x.json.123.abc.tmp');
    const young = join(dir, 'y.json.123.abc.tmp');
    await writeFile(stale, '{');
    await writeFile(young, '{');
    await utimes(stale, (T0 - DAY) / 1000, (T0 - DAY) / 1000);
    await replay(queueDir, replayOptions(recorder().execute));
    expect(await pendingNames()).toEqual(['y.json.123.abc.tmp']);
  });

  it('returns busy at once while another replayer runs', async () => {
    await add('s', 'x');
    const other = await tryLock(queuePaths(queueDir).replayLock, { now: () => Date.now(), staleMs: 60_000 });
    const { calls, execute } = recorder();
    expect(await replay(queueDir, replayOptions(execute))).toMatchObject({ busy: true, replayed: 0, remaining: 1 });
    expect(calls).toEqual([]);
    if (other.ok) await other.handle.release();
    expect((await replay(queueDir, replayOptions(execute))).replayed).toBe(1);
  });

  it('on an empty or missing queue does nothing', async () => {
    expect(await replay(queueDir, replayOptions(recorder().execute))).toMatchObject({
      replayed: 0,
      remaining: 0,
      problems: [],
    });
  });
});

describe('queueStats', () => {
  it('counts pending, claimed and dead entries with the oldest ages', async () => {
    expect(await queueStats(queueDir, T0)).toEqual({
      pending: { count: 0 },
      claimed: { count: 0 },
      dead: { count: 0 },
    });
    await add('s', 'old', T0 - 5000);
    await add('s', 'new', T0 - 1000);
    await add('t', 'doomed', T0 - 9 * DAY);
    // Expires 'doomed' (dead at T0), retries 'old' once, defers 'new'.
    await replay(
      queueDir,
      replayOptions(async () => 'retry', { now: () => T0, limit: 1 }),
    );
    const dir = queuePaths(queueDir).pendingDir;
    const names = await pendingNames();
    const newest = names[names.length - 1] as string;
    await rename(join(dir, newest), join(dir, newest.replace(/\.json$/, '.processing')));
    const stats = await queueStats(queueDir, T0 + 1000);
    expect(stats).toEqual({
      pending: { count: 1, oldestAgeMs: 6000 },
      claimed: { count: 1, oldestAgeMs: 2000 },
      dead: { count: 1, oldestAgeMs: 1000 },
    });
  });
});
