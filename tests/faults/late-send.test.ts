/**
 * A batch that leaves late. The writer saves its write-ahead record (the
 * inflight `startedAt`), and only then connects and sends; on a loaded
 * machine a slow save or a descheduled process puts the request on the wire
 * long after `startedAt`. If the next writer judged "not stored" at
 * `startedAt + 2 × timeout` alone, a server still holding the batch would
 * store it after the resend: a duplicate (a clean-clone CI run of 4953f41:
 * the seeded soak stored three turns twice). The worker here stalls 2.5 s
 * at the send (test seam), the server holds the batch 3 s, the request
 * timeout is 2 s: the old rule resent at +4 s, the batch landed at +5.5 s.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../store/fixtures/processes.js';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { usePrivatePlugin } from './support/plugin.js';
import { exitOf, stopThenSpawnWorker } from './support/worker.js';
import { createFaultWorld, FAST_KNOBS } from './support/world.js';

const plugin = usePrivatePlugin({ testSeams: true });

const BATCH = { path: /\/messages\/batch$/ };
const TIMEOUT_MS = 2_000;
const STALL_MS = 2_500;
const LATENCY_MS = 3_000;

describe('a batch sent well after its write-ahead record', () => {
  it('the next writer waits a timeout past the give-up before it resends (no duplicate)', async () => {
    const world = await createFaultWorld(plugin.root);
    try {
      const s = world.session('late-send');
      const env = { ...world.sim.env, ...FAST_KNOBS, OPENVIKING_TIMEOUT_MS: String(TIMEOUT_MS) };
      s.transcript.append(1);
      world.server.faults.latency(LATENCY_MS, BATCH);
      const a = await stopThenSpawnWorker(world, s, plugin.root, {
        ...env,
        OPENVIKING_TEST_STALL_AT: `before-send:${STALL_MS}`,
      });
      await waitFor(() => world.server.requests(BATCH).length > 0, 20_000, 5);
      world.server.faults.clear(); // the held request keeps its latency
      expect(await exitOf(a), 'the first writer gave up on its answer and ended').toBeNull();
      const held = world.server.requests(BATCH)[0];
      expect(held?.handledAt, 'the next writer runs while the server still holds the batch').toBeUndefined();
      s.transcript.append(1);
      const b = await stopThenSpawnWorker(world, s, plugin.root, env);
      expect(await exitOf(b)).toBeNull();
      await world.fire('late-send SessionEnd', 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
      await expectExactlyOnceWithinDeadlines(world, 'a batch sent 2.5 s after its record, held 3 s', [s]);
    } finally {
      await world.close();
    }
  }, 90_000);
});
