/**
 * The capture worker SIGKILLed at seeded random points, 50 trials in one
 * session, then left to finish: every turn must be on the server exactly
 * once (the write-ahead inflight record and the count check of
 * src/capture/inflight.ts are what make that true).
 *
 * Each trial appends one or two turns, runs the Stop hook's stage in
 * process and starts its worker as a real process of the private plugin
 * copy (support/worker.ts), then kills it. The kill point is seeded: every 5th trial uses the worker's own crash
 * seam (`OPENVIKING_TEST_CRASH_AT=before-send|after-send`), the others a
 * delay drawn uniformly over one calibrated worker run, with the server
 * adding seeded latency to batch writes so kills land inside sends too.
 * The seed is printed; `FUZZ_SEED=<n>` replays the same schedule.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng, fuzzSeed } from '../fuzz/support/rng.js';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { copyBuiltPlugin } from './support/plugin.js';
import type { PrivatePlugin } from './support/plugin.js';
import { exitOf, stopThenSpawnWorker } from './support/worker.js';
import { createFaultWorld, FAST_KNOBS } from './support/world.js';
import type { FaultSession, FaultWorld } from './support/world.js';

const TRIALS = 50;
const SEED = fuzzSeed(process.env, new Date());

let plugin: PrivatePlugin;
beforeAll(async () => {
  plugin = await copyBuiltPlugin(undefined, { testSeams: true });
});
afterAll(async () => {
  await plugin?.dispose();
});

interface WorkerRun {
  ms: number;
  signal: NodeJS.Signals | null;
}

/** Stop's stage in process (posts the request), then its worker as a real process, killed after `killAfterMs` (never when undefined). */
async function stopAndRunWorker(
  world: FaultWorld,
  s: FaultSession,
  env: Record<string, string>,
  killAfterMs?: number,
): Promise<WorkerRun> {
  const child = await stopThenSpawnWorker(world, s, plugin.root, env);
  const started = performance.now();
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const signal = await exitOf(child);
  clearTimeout(timer);
  return { ms: performance.now() - started, signal };
}

describe('capture worker SIGKILLed at random points', () => {
  it(`${TRIALS} seeded kills, then a clean run: every turn exactly once`, async () => {
    console.log(
      `[faults] worker-kill seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run tests/faults/worker-kill.test.ts)`,
    );
    const world = await createFaultWorld(plugin.root);
    try {
      const s = world.session('kill');
      const env = { ...world.sim.env, ...FAST_KNOBS };
      s.transcript.append(2);
      const calibration = await stopAndRunWorker(world, s, env);
      const rng = createRng(SEED);
      const outcomes = { killed: 0, finished: 0, seam: 0 };
      for (let trial = 0; trial < TRIALS; trial++) {
        const t = rng.fork(trial);
        s.transcript.append(t.int(1, 2));
        world.server.faults.clear();
        world.server.faults.latency(t.int(0, 60), { path: /\/messages\/batch$/ });
        if (trial % 5 === 4) {
          const point = t.pick(['before-send', 'after-send']);
          const run = await stopAndRunWorker(world, s, { ...env, OPENVIKING_TEST_CRASH_AT: point });
          outcomes.seam += run.signal === 'SIGKILL' ? 1 : 0;
        } else {
          const run = await stopAndRunWorker(world, s, env, Math.floor(t.next() * calibration.ms * 1.2));
          outcomes[run.signal === 'SIGKILL' ? 'killed' : 'finished'] += 1;
        }
      }
      world.server.faults.clear();
      await world.fire('final Stop through the host', 'Stop', s.p.stop('done'));
      await world.recover([s]);
      console.log(
        `[faults] worker-kill: calibration ${calibration.ms.toFixed(0)} ms; ${outcomes.killed} killed by timer, ${outcomes.finished} finished first, ${outcomes.seam} killed at the crash seam`,
      );
      expect(outcomes.killed + outcomes.seam, 'most trials really killed a worker').toBeGreaterThanOrEqual(TRIALS / 2);
      await expectExactlyOnceWithinDeadlines(world, `worker SIGKILLed ×${TRIALS} (seed ${SEED})`, [s]);
    } finally {
      await world.close();
    }
  }, 180_000);
});
