/**
 * Every turn lands exactly once, whatever happens around the send: repeated
 * and racing hook events, a Stop while a worker runs, the server away for
 * several turns, and a worker SIGKILLed mid-send. All through the host
 * simulator, the built bundle and real detached workers; the evidence is
 * the test server's `allMessages` (every message ever stored).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLockPath } from '../../src/session/locks.js';
import { spawnHook } from '../support/spawn-hook.js';
import { captureStateOf, createWorld, until, workersIdle } from './support/world.js';
import type { CaptureWorld } from './support/world.js';

let world: CaptureWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const BATCH = { path: /\/messages\/batch$/ };

function turnTexts(from: number, to: number): string[] {
  const texts: string[] = [];
  for (let turn = from; turn <= to; turn++) texts.push(`question ${turn}`, `answer ${turn}`);
  return texts;
}

async function stopAfterTurn(w: CaptureWorld, turn: number, env?: Record<string, string>): Promise<void> {
  w.appendTurn(`question ${turn}`, `answer ${turn}`);
  const stop = await w.sim.fire('Stop', w.p.stop(`answer ${turn}`), env ? { env } : {});
  expect(stop.timedOut).toBe(false);
}

/** The pid of the worker holding the session's capture lock. */
function lockHolderPid(w: CaptureWorld): number | undefined {
  const lock = captureLockPath(w.dataDir, w.ovId);
  try {
    const owner = readdirSync(lock).find((name) => name.endsWith('.owner'));
    return owner === undefined
      ? undefined
      : (JSON.parse(readFileSync(join(lock, owner), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('exactly once', () => {
  it('a second Stop on an unchanged transcript sends nothing', async () => {
    world = await createWorld();
    const w = world;
    await stopAfterTurn(w, 1);
    await until(() => w.storedTexts().length === 2);
    await workersIdle(w);
    const batches = w.server.requests(BATCH).length;
    await w.sim.fire('Stop', w.p.stop());
    await workersIdle(w);
    expect(w.server.requests(BATCH).length).toBe(batches);
    expect(w.storedTexts()).toEqual(turnTexts(1, 1));
  });

  it('Stop and SessionEnd racing: the turn once, then a full commit', async () => {
    world = await createWorld();
    const w = world;
    w.appendTurn('question 1', 'answer 1');
    await Promise.all([w.sim.fire('Stop', w.p.stop()), w.sim.fire('SessionEnd', w.p.sessionEnd())]);
    await until(() => (w.server.session(w.ovId)?.commits.length ?? 0) > 0, 15_000, 'commit');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 1));
    const session = w.server.session(w.ovId);
    expect(session?.archives[0]?.messages.length).toBe(2);
    expect(session?.commits.every((c) => c.keepRecentCount === 0)).toBe(true);
  });

  it('a Stop while a worker is sending is picked up by that worker', async () => {
    world = await createWorld();
    const w = world;
    w.server.faults.latency(1_500, BATCH);
    await stopAfterTurn(w, 1);
    await until(() => w.server.requests(BATCH).length === 1, 30_000, 'the batch to reach the server');
    expect(lockHolderPid(w)).toBeDefined();
    await stopAfterTurn(w, 2); // its worker finds the lock busy and leaves the request to the running one
    await until(() => w.storedTexts().length === 4, 20_000, 'turn 2 picked up');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 2));
  }, 90_000);

  it('server down for 3 turns, then back: every turn once, in order, at the next capture', async () => {
    world = await createWorld();
    const w = world;
    await stopAfterTurn(w, 1);
    await until(() => w.storedTexts().length === 2);
    await workersIdle(w);
    await w.server.stop();
    for (const turn of [2, 3, 4]) {
      await stopAfterTurn(w, turn);
      await workersIdle(w);
    }
    expect(w.pendingEntries().length).toBe(3);
    await w.server.start();
    await stopAfterTurn(w, 5);
    await until(() => w.storedTexts().length === 10, 20_000, 'backlog and turn 5');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 5));
    expect(w.pendingEntries()).toEqual([]);
    expect(w.deadLetters()).toEqual([]);
  }, 120_000);

  it('server down, then back: a replay worker (as the start stage runs it) delivers the backlog once', async () => {
    world = await createWorld();
    const w = world;
    await w.server.stop();
    for (const turn of [1, 2, 3]) {
      await stopAfterTurn(w, turn);
      await workersIdle(w);
    }
    await w.server.start();
    const run = await spawnHook({ args: ['worker', 'replay'], env: w.sim.env, cwd: w.workspace, timeoutMs: 30_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(w.storedTexts()).toEqual(turnTexts(1, 3));
    expect(w.pendingEntries()).toEqual([]);
  }, 90_000);

  it('a worker SIGKILLed while its batch is at the server: the rerun records it, no duplicate', async () => {
    world = await createWorld();
    const w = world;
    w.server.faults.latency(2_000, BATCH);
    await stopAfterTurn(w, 1);
    await until(() => w.server.requests(BATCH).length === 1, 30_000, 'the batch to reach the server');
    const pid = lockHolderPid(w);
    expect(pid).toBeDefined();
    process.kill(pid as number, 'SIGKILL');
    await until(() => w.storedTexts().length === 2, 10_000, 'the killed batch to land anyway');
    w.server.faults.clear();
    await stopAfterTurn(w, 2);
    await until(() => w.storedTexts().length >= 4, 15_000, 'turn 2');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 2));
  }, 90_000);

  it.each(['before-send', 'after-send'])(
    'a worker killed %s: the rerun sends what is missing, once',
    async (point) => {
      world = await createWorld({ testSeams: true });
      const w = world;
      await stopAfterTurn(w, 1, { OPENVIKING_TEST_CRASH_AT: point });
      await until(
        () => captureStateOf(w)?.inflight !== undefined && !isAlive(lockHolderPid(w)),
        30_000,
        'the worker to crash with its batch in flight',
      );
      expect(w.storedTexts().length).toBe(point === 'after-send' ? 2 : 0);
      await stopAfterTurn(w, 2, { OPENVIKING_TEST_CRASH_AT: '' });
      await until(() => w.storedTexts().length >= 4, 30_000, 'turn 2');
      await workersIdle(w);
      expect(w.storedTexts()).toEqual(turnTexts(1, 2));
      expect(captureStateOf(w)?.inflight).toBeUndefined();
    },
    90_000,
  );

  it('a worker killed between queueing a batch and recording it: queued once, delivered once', async () => {
    world = await createWorld({ testSeams: true });
    const w = world;
    await w.server.stop();
    await stopAfterTurn(w, 1, { OPENVIKING_TEST_CRASH_AT: 'after-enqueue' });
    await until(
      () =>
        w.pendingEntries().length === 1 && captureStateOf(w)?.enqueueIntent !== undefined && !isAlive(lockHolderPid(w)),
      30_000,
      'the crash after enqueue',
    );
    await w.server.start();
    await stopAfterTurn(w, 2, { OPENVIKING_TEST_CRASH_AT: '' });
    await until(() => w.storedTexts().length >= 4 && w.pendingEntries().length === 0, 30_000, 'backlog and turn 2');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 2));
    expect(captureStateOf(w)?.enqueueIntent).toBeUndefined();
  }, 90_000);

  it('a connection reset after the server stored the batch is not resent', async () => {
    world = await createWorld();
    const w = world;
    w.server.faults.resetMidResponse(BATCH, 1);
    await stopAfterTurn(w, 1);
    await until(() => w.storedTexts().length === 2);
    await workersIdle(w);
    await stopAfterTurn(w, 2);
    await until(() => w.storedTexts().length >= 4);
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 2));
    expect(w.pendingEntries()).toEqual([]);
  });

  it('a reset while the server cannot be asked: queued with its inflight record, replay resolves it without resending', async () => {
    let sessionGets = 0;
    // The 2nd GET of the session is the check after the failed batch: make the server unreachable for it.
    world = await createWorld({
      proxyRule: (method, path) =>
        method === 'GET' && /\/sessions\/[^/?]+$/.test(path) && ++sessionGets === 2 ? 'reset' : 'forward',
    });
    const w = world;
    w.server.faults.resetMidResponse(BATCH, 1);
    await stopAfterTurn(w, 1);
    await until(() => w.pendingEntries().length === 1, 30_000, 'the ambiguous batch to be queued');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 1)); // it did land
    expect(captureStateOf(w)?.inflight).toMatchObject({ queued: true });
    await stopAfterTurn(w, 2);
    await until(() => w.storedTexts().length >= 4 && w.pendingEntries().length === 0, 30_000, 'replay and turn 2');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(turnTexts(1, 2));
    expect(w.server.requests(BATCH).length).toBe(2); // the queued batch was never resent
  }, 90_000);
});
