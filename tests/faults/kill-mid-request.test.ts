/**
 * A capture worker SIGKILLed while its batch is still being processed by
 * the server. OpenViking (like any server) finishes a request whose client
 * went away, so the batch lands AFTER the kill. The next worker finds the
 * dead one's inflight record (src/capture/inflight.ts); if it asks the
 * server's count before the batch landed and concludes "not stored", it:
 * - resends the batch, which then is stored twice (found by worker-kill:
 *   `turns duplicated = 2`, seed 1, under load);
 * - or, killed itself before its own send went out, leaves an inflight
 *   record holding the stale count, so the next worker takes the dead
 *   worker's late batch for its own and acknowledges turns never sent
 *   (found by worker-kill on 13646d2 under load: `turns lost: kill#42, #43`).
 *
 * The dead worker's request gets 3 s of server latency (inside the 4 s
 * request timeout: a live worker would have had its answer), and the next
 * worker starts right after the kill, so it asks while the batch is held.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../store/fixtures/processes.js';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { usePrivatePlugin } from './support/plugin.js';
import { exitOf, stopThenSpawnWorker } from './support/worker.js';
import { createFaultWorld, FAST_KNOBS } from './support/world.js';
import type { FaultSession, FaultWorld } from './support/world.js';

const plugin = usePrivatePlugin({ testSeams: true });

const BATCH = { path: /\/messages\/batch$/ };
const LATENCY_MS = 3_000;

interface Killed {
  at: number;
  /** Resolves once the server is done with the dead worker's batch (stored it). */
  landed(): Promise<void>;
}

/** Starts a worker for the turns written so far and SIGKILLs it once its batch reached the server (and is held there). */
async function killWhileServerHoldsBatch(
  world: FaultWorld,
  s: FaultSession,
  env: Record<string, string>,
): Promise<Killed> {
  const batchesBefore = world.server.requests(BATCH).length;
  world.server.faults.latency(LATENCY_MS, BATCH);
  const a = await stopThenSpawnWorker(world, s, plugin.root, env);
  await waitFor(() => world.server.requests(BATCH).length > batchesBefore, 20_000, 5);
  a.kill('SIGKILL');
  expect(await exitOf(a)).toBe('SIGKILL');
  world.server.faults.clear(); // the held request keeps its latency; later ones are fast
  const held = (world.server.requests(BATCH)[batchesBefore] as { seq: number }).seq;
  const landed = async (): Promise<void> => {
    // The fault mark is set when the latency ends; the handler stores right after it.
    await waitFor(
      () => world.server.requests(BATCH).some((request) => request.seq === held && request.fault === 'latency'),
      20_000,
      10,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  return { at: Date.now(), landed };
}

/** How the next worker's first look compared with the late store (printed: the case only bites when it looked first). */
function describeRace(world: FaultWorld, s: FaultSession, killedAt: number): string {
  const looked = world.server
    .requests({ method: 'GET', path: new RegExp(`/sessions/${s.ovId}$`) })
    .find((request) => request.startedAt >= killedAt);
  return looked === undefined
    ? 'the next worker never asked'
    : `the next worker asked ${looked.startedAt - killedAt} ms after the kill (the batch landed ~${LATENCY_MS} ms after it reached the server)`;
}

describe('a worker killed while the server still holds its batch', () => {
  it('the next worker does not resend it before it can have landed (no duplicate)', async () => {
    const world = await createFaultWorld(plugin.root);
    try {
      const s = world.session('late');
      const env = { ...world.sim.env, ...FAST_KNOBS, OPENVIKING_TIMEOUT_MS: '4000' };
      s.transcript.append(1);
      const killed = await killWhileServerHoldsBatch(world, s, env);
      const b = await stopThenSpawnWorker(world, s, plugin.root, env);
      expect(await exitOf(b)).toBeNull();
      await killed.landed();
      console.log(`[faults] kill mid-request (duplicate case): ${describeRace(world, s, killed.at)}`);
      await world.fire('late SessionEnd', 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
      await expectExactlyOnceWithinDeadlines(
        world,
        'worker killed while the server held its batch, next worker at once',
        [s],
      );
    } finally {
      await world.close();
    }
  }, 90_000);

  it('a second kill before the next send cannot make the late batch stand for the next one (no loss)', async () => {
    const world = await createFaultWorld(plugin.root);
    try {
      const s = world.session('stale');
      const env = { ...world.sim.env, ...FAST_KNOBS, OPENVIKING_TIMEOUT_MS: '4000' };
      s.transcript.append(1);
      const killed = await killWhileServerHoldsBatch(world, s, env);
      s.transcript.append(1);
      const b = await stopThenSpawnWorker(world, s, plugin.root, { ...env, OPENVIKING_TEST_CRASH_AT: 'before-send' });
      expect(await exitOf(b), 'the next worker died at its own send').toBe('SIGKILL');
      await killed.landed();
      console.log(`[faults] kill mid-request (loss case): ${describeRace(world, s, killed.at)}`);
      await world.recover([s]);
      await expectExactlyOnceWithinDeadlines(
        world,
        'worker killed while the server held its batch, next one killed before its send',
        [s],
      );
    } finally {
      await world.close();
    }
  }, 90_000);
});
