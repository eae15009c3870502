/**
 * A batch that lands late, long after its writer gave up on the answer.
 *
 * OpenViking has no idempotency key, so a writer whose request went
 * unanswered can only judge "not stored" by time (capture/inflight.ts
 * `settlesAt`): three request timeouts after the write-ahead record and two
 * after it gave up. Each case stores the batch inside that bound and past
 * an earlier one, which resent it:
 * - the send leaves late: the writer saves its record (`startedAt`), then
 *   stalls 2.5 s before it connects (a slow save, a descheduled process);
 *   the server holds the batch 3 s. Judged at `startedAt + 2 × timeout`
 *   alone, the batch was resent at +4 s and landed at +5.5 s (a clean-clone
 *   CI run of 4953f41: the seeded soak stored three turns twice);
 * - the server acts late: it reads or runs the request well after the
 *   client gave up (a starved server process, a busy proxy on the way; a
 *   clean-clone CI run of f878509: the soak's request was acted on after
 *   the client's give-up plus one timeout and stored again at the resend).
 *   The server holds the batch 5 s against a 2 s timeout: one timeout past
 *   the give-up, the batch was resent at +4 s and landed at +5 s.
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

interface LateBatch {
  label: string;
  /** How long the server holds the batch before it stores it. */
  latencyMs: number;
  /** How long the first writer stalls between its write-ahead record and the send (0: none). */
  stallMs: number;
}

/** The first writer sends one turn and gives up on it; the next writer runs while the server still holds it. */
async function lateBatchStoredOnce(late: LateBatch): Promise<void> {
  const world = await createFaultWorld(plugin.root);
  try {
    const s = world.session('late-send');
    const env = { ...world.sim.env, ...FAST_KNOBS, OPENVIKING_TIMEOUT_MS: String(TIMEOUT_MS) };
    s.transcript.append(1);
    world.server.faults.latency(late.latencyMs, BATCH);
    const stall: Record<string, string> =
      late.stallMs > 0 ? { OPENVIKING_TEST_STALL_AT: `before-send:${late.stallMs}` } : {};
    const a = await stopThenSpawnWorker(world, s, plugin.root, { ...env, ...stall });
    await waitFor(() => world.server.requests(BATCH).length > 0, 20_000, 5);
    world.server.faults.clear(); // the held request keeps its latency
    expect(await exitOf(a), 'the first writer gave up on its answer and ended').toBeNull();
    const held = world.server.requests(BATCH)[0];
    expect(held?.handledAt, 'the next writer runs while the server still holds the batch').toBeUndefined();
    s.transcript.append(1);
    const b = await stopThenSpawnWorker(world, s, plugin.root, env);
    expect(await exitOf(b)).toBeNull();
    await world.fire('late-send SessionEnd', 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
    // The ledger is read once the held batch is stored: a resend's duplicate shows only then.
    await waitFor(() => world.server.requests(BATCH)[0]?.handledAt !== undefined, 20_000, 5);
    await expectExactlyOnceWithinDeadlines(world, late.label, [s]);
  } finally {
    await world.close();
  }
}

describe('a batch stored long after its writer gave up', () => {
  it('sent 2.5 s after its record and held 3 s: the next writer waits it out (no duplicate)', async () => {
    await lateBatchStoredOnce({
      label: 'a batch sent 2.5 s after its record, held 3 s',
      latencyMs: 3_000,
      stallMs: 2_500,
    });
  }, 90_000);

  it('held 5 s against a 2 s timeout, past one timeout after the give-up: the next writer waits it out (no duplicate)', async () => {
    await lateBatchStoredOnce({ label: 'a batch held 5 s, 3 s past the give-up', latencyMs: 5_000, stallMs: 0 });
  }, 90_000);
});
