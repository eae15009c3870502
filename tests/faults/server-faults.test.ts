/**
 * Server trouble during whole sessions, through the host simulator and
 * real detached workers: down for a whole session then back, 500/503
 * bursts, 429, 409 with `retryable`, a server that accepts and never
 * answers, and one slower than the hook timeouts. Each case prints its
 * ledger line and asserts: turns lost = 0, turns duplicated = 0, every hook
 * inside its timeout. (tests/capture covers the single-send faults: a
 * reset after storing, a kill mid-send, a short outage between turns.)
 *
 * @module
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { copyBuiltPlugin } from './support/plugin.js';
import type { PrivatePlugin } from './support/plugin.js';
import { createFaultWorld } from './support/world.js';
import type { FaultSession, FaultWorld } from './support/world.js';

let plugin: PrivatePlugin;
beforeAll(async () => {
  plugin = await copyBuiltPlugin();
});
afterAll(async () => {
  await plugin?.dispose();
});

const BATCH = { path: /\/messages\/batch$/ };
const TURNS = 3;

/** A session as the host runs it: start, then per turn a prompt, the transcript growing, Stop; then end. */
async function runSession(world: FaultWorld, s: FaultSession, turns = TURNS): Promise<void> {
  await world.fire(`${s.tag} SessionStart`, 'SessionStart', s.p.sessionStart('startup'));
  for (let turn = 1; turn <= turns; turn++) {
    await world.fire(
      `${s.tag} prompt ${turn}`,
      'UserPromptSubmit',
      s.p.userPromptSubmit(`which editor do I use, turn ${turn}?`, turn),
    );
    s.transcript.append();
    await world.fire(`${s.tag} Stop ${turn}`, 'Stop', s.p.stop('done'));
    await world.settle();
  }
  await world.fire(`${s.tag} SessionEnd`, 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
}

async function withWorld(label: string, work: (world: FaultWorld) => Promise<FaultSession[]>): Promise<void> {
  const world = await createFaultWorld(plugin.root);
  try {
    const sessions = await work(world);
    await world.recover(sessions);
    await expectExactlyOnceWithinDeadlines(world, label, sessions);
  } finally {
    await world.close();
  }
}

describe('server faults across a whole session', () => {
  it('down for a whole session, then back: the next session start delivers everything once', async () => {
    await withWorld('server down for a whole session', async (world) => {
      const s = world.session('down');
      await world.server.stop();
      await runSession(world, s);
      await world.settle();
      await world.server.start();
      await world.fire('down SessionStart after the outage', 'SessionStart', s.p.sessionStart('resume'));
      return [s];
    });
  }, 90_000);

  for (const status of [500, 503] as const) {
    it(`${status} bursts on every other write`, async () => {
      await withWorld(`${status} bursts`, async (world) => {
        const s = world.session(`e${status}`);
        world.server.faults.errorBurst({ status, count: 2, match: BATCH });
        world.server.faults.errorBurst({ status, count: 1, match: { path: /\/sessions\// } });
        await runSession(world, s);
        return [s];
      });
    }, 90_000);
  }

  it('429 on writes and on recall', async () => {
    await withWorld('429 rate limited', async (world) => {
      const s = world.session('e429');
      world.server.faults.errorBurst({ status: 429, count: 3, match: BATCH });
      world.server.faults.errorBurst({ status: 429, count: 2, match: { path: /\/search\// } });
      await runSession(world, s);
      return [s];
    });
  }, 90_000);

  it('409 with retryable: true (a path lock) on writes', async () => {
    await withWorld('409 retryable', async (world) => {
      const s = world.session('e409');
      world.server.faults.errorBurst({ status: 409, count: 3, match: BATCH, retryable: true });
      await runSession(world, s);
      return [s];
    });
  }, 90_000);

  it('accepts the connection and never answers (writes, reads and recall)', async () => {
    await withWorld('server hangs', async (world) => {
      const s = world.session('hang');
      world.server.faults.hang({ path: /\/(messages\/batch|search\/|sessions\/[^/]+$)/ }, 6);
      await runSession(world, s);
      return [s];
    });
  }, 90_000);

  it('slower than every hook timeout (11 s per request)', async () => {
    await withWorld('server slower than the hook timeout', async (world) => {
      const s = world.session('slow');
      world.server.faults.latency(11_000);
      await runSession(world, s, 2);
      // Requests the workers gave up on still complete at the server (its handler runs after the delay);
      // wait until the last one has, so the ledger judges the plugin, not a request still in the air.
      const lastStarted = Math.max(0, ...world.server.requests().map((request) => request.startedAt));
      world.server.faults.clear();
      while (Date.now() < lastStarted + 11_500) await new Promise((resolve) => setTimeout(resolve, 100));
      return [s];
    });
  }, 120_000);
});
