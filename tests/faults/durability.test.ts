/**
 * Nothing queued is given up, every captured turn ends inside a commit, and
 * nothing acknowledged is sent twice (issue 14 items 2, 3 and 6), through
 * the host simulator, the private plugin copy and real detached workers:
 *
 * - an outage across several session starts (a start while the server is
 *   away must not use up a queued write's attempts);
 * - a dead letter put back by hand (`hook.mjs requeue-dead`);
 * - a commit replayed from the queue with more turns queued behind it (the
 *   turns after it must still end in a commit), as a SessionEnd during the
 *   outage and as the sessions X, Y and Z;
 * - a batch a slow server stores after the worker gave up waiting for it
 *   (it must not be sent again when the queue is replayed), or after a
 *   start hook's replay was cut by its deadline;
 * - a transcript rewound in place, rewritten, or replaced after 600 captured
 *   exchanges (nothing of it may be sent again).
 *
 * Each case prints its ledger line and asserts lost = 0, duplicated = 0,
 * uncommitted = 0 (where the sessions end) and every hook inside its timeout.
 *
 * @module
 */
import { readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { waitFor } from '../store/fixtures/processes.js';
import { runProcess } from '../support/spawn-hook.js';
import { usePrivatePlugin } from './support/plugin.js';
import { createFaultWorld } from './support/world.js';
import type { FaultSession, FaultWorld } from './support/world.js';

const plugin = usePrivatePlugin();

const BATCH = { path: /\/messages\/batch$/ };

async function inWorld(env: Record<string, string>, work: (world: FaultWorld) => Promise<void>): Promise<void> {
  const world = await createFaultWorld(plugin.root, env);
  try {
    await work(world);
  } finally {
    await world.close();
  }
}

/** One turn of `s`: the transcript grows, Stop fires, its worker finishes. */
async function turn(world: FaultWorld, s: FaultSession, label: string): Promise<void> {
  s.transcript.append();
  await world.fire(`${s.tag} Stop (${label})`, 'Stop', s.p.stop('done'));
  await world.settle();
}

async function end(world: FaultWorld, s: FaultSession, label: string): Promise<void> {
  await world.fire(`${s.tag} SessionEnd (${label})`, 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
  await world.settle();
}

/** A new session of the workspace starts (its start replays the queue and may commit idle sessions). */
async function otherSessionStarts(world: FaultWorld, tag: string): Promise<void> {
  await world.fire(`${tag} SessionStart`, 'SessionStart', world.session(tag).p.sessionStart('startup'));
  await world.settle();
}

describe('durability across outages, replays and rewinds', () => {
  it('outage across several session starts: a turn queued while down arrives after three starts still down', async () => {
    await inWorld({}, async (world) => {
      const s = world.session('outage');
      await world.fire('outage SessionStart', 'SessionStart', s.p.sessionStart('startup'));
      await world.server.stop();
      await turn(world, s, 'server down');
      for (let start = 1; start <= 3; start++) await otherSessionStarts(world, `outage-start${start}`);
      await world.server.start();
      await otherSessionStarts(world, 'outage-start4');
      expect(world.server.sessions().flatMap((session) => session.allMessages)).toHaveLength(2);
      await end(world, s, 'server back');
      await expectExactlyOnceWithinDeadlines(world, 'outage across several session starts', [s], [], {
        committed: true,
      });
    });
  }, 90_000);

  it('a dead letter goes back by hand: `hook.mjs requeue-dead` sends a refused turn once the server takes it', async () => {
    await inWorld({}, async (world) => {
      const s = world.session('requeue');
      world.server.faults.errorBurst({ status: 403, count: 1, match: BATCH, code: 'PERMISSION_DENIED' });
      await turn(world, s, 'refused');
      expect(world.server.sessions().flatMap((session) => session.allMessages)).toHaveLength(0);
      // Asynchronously: the test server answers from this very process.
      const run = await runProcess(process.execPath, [join(plugin.root, 'scripts', 'hook.mjs'), 'requeue-dead'], {
        env: { ...world.sim.env },
        cwd: world.workspace,
        timeoutMs: 30_000,
      });
      console.log(`[faults] requeue-dead said: ${run.stdout.trim()}`);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toMatch(/replayed 1 now/);
      expect(run.stdout).toMatch(/requeued 1 dead letter/);
      await end(world, s, 'after the requeue');
      await expectExactlyOnceWithinDeadlines(world, 'dead letter requeued by hand', [s], [], { committed: true });
    });
  }, 90_000);

  it('replayed commit then more turns (a SessionEnd during the outage): every turn ends inside a commit', async () => {
    await inWorld({}, async (world) => {
      const s = world.session('endcommit');
      await world.fire('endcommit SessionStart', 'SessionStart', s.p.sessionStart('startup'));
      await world.server.stop();
      await turn(world, s, 'turn 1, down');
      await end(world, s, 'down: the commit waits in the queue');
      await turn(world, s, 'turn 2 after a resume, down');
      await world.server.start();
      await end(world, s, 'server back');
      await expectExactlyOnceWithinDeadlines(world, 'replayed commit then more turns (SessionEnd)', [s], [], {
        committed: true,
      });
    });
  }, 90_000);

  it('a batch the server stores after the worker gave up on it (slower than the request timeout) is not sent again', async () => {
    await inWorld({}, async (world) => {
      const s = world.session('late');
      world.server.faults.latency(2_500, BATCH); // the request timeout is 1 s; the count check is fast
      await turn(world, s, 'answer later than the timeout');
      world.server.faults.clear();
      await waitFor(() => world.server.sessions().flatMap((session) => session.allMessages).length === 2, 10_000); // it landed late
      await turn(world, s, 'next turn replays the queue');
      await end(world, s, 'end');
      await expectExactlyOnceWithinDeadlines(world, 'batch stored after the worker gave up on it', [s], [], {
        committed: true,
      });
    });
  }, 90_000);

  it('a queued batch whose replay the start hook cut at its deadline is not sent again before it can have landed', async () => {
    await inWorld({ OPENVIKING_PENDING_REPLAY_BUDGET_MS: '500' }, async (world) => {
      const s = world.session('cut');
      await world.fire('cut SessionStart', 'SessionStart', s.p.sessionStart('startup'));
      await world.server.stop();
      await turn(world, s, 'server down');
      await world.server.start();
      world.server.faults.latency(1_500, BATCH); // past the start's 500 ms replay budget, inside twice the 1 s request timeout
      await world.fire('cut-start SessionStart', 'SessionStart', world.session('cut-start').p.sessionStart('startup'));
      world.server.faults.clear();
      await turn(world, s, 'right after the start'); // its worker finds the cut batch before the server stored it
      await new Promise((resolve) => setTimeout(resolve, 1_600)); // the cut request has landed by now, if it was going to
      await end(world, s, 'end');
      await expectExactlyOnceWithinDeadlines(world, 'queued batch cut by the start deadline', [s], [], {
        committed: true,
      });
    });
  }, 90_000);

  it("replayed commit then more turns (the issue's sessions X, Y, Z): every turn ends inside a commit", async () => {
    // Idle threshold 0: a start may commit every other session of the workspace, as before liveness checks.
    await inWorld({ OPENVIKING_STALE_COMMIT_IDLE_MS: '0' }, async (world) => {
      const x = world.session('xyz-x');
      await world.fire('X SessionStart', 'SessionStart', x.p.sessionStart('startup'));
      await world.server.stop();
      await turn(world, x, 'turn 1, down');
      await otherSessionStarts(world, 'xyz-y');
      await turn(world, x, 'turn 2, down');
      await world.server.start();
      await otherSessionStarts(world, 'xyz-z');
      await expectExactlyOnceWithinDeadlines(world, 'replayed commit then more turns (sessions X, Y, Z)', [x], [], {
        committed: true,
      });
    });
  }, 90_000);
});

/** The first `lines` lines of the transcript, as text. */
function firstLines(s: FaultSession, lines: number): string {
  return `${readFileSync(s.transcript.path, 'utf8').split('\n').slice(0, lines).join('\n')}\n`;
}

/** Each way the host (or the user) can cut a transcript back to its first 1,000 lines. */
const REWINDS: Record<string, (s: FaultSession) => void> = {
  'cut back in place (head -n 1000)': (s) => truncateSync(s.transcript.path, Buffer.byteLength(firstLines(s, 1000))),
  'rewritten in place, records re-serialized': (s) => {
    const lines = firstLines(s, 1000).trimEnd().split('\n');
    const reserialized = lines.map((line) =>
      JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line) as object).reverse())),
    );
    writeFileSync(s.transcript.path, `${reserialized.join('\n')}\n`);
  },
  'replaced by a new file (rename over it)': (s) => {
    writeFileSync(`${s.transcript.path}.new`, firstLines(s, 1000), { mode: 0o600 });
    renameSync(`${s.transcript.path}.new`, s.transcript.path);
  },
};

describe('a transcript rewound after 600 captured exchanges', () => {
  for (const [how, rewind] of Object.entries(REWINDS)) {
    it(`${how}, then one new exchange: only the new one is sent`, async () => {
      await inWorld({}, async (world) => {
        const s = world.session('rewind');
        s.transcript.append(600);
        await world.fire('rewind Stop (600 exchanges)', 'Stop', s.p.stop('done'));
        await world.settle();
        expect(world.server.sessions().flatMap((session) => session.allMessages)).toHaveLength(1200);
        rewind(s);
        await turn(world, s, 'after the rewind');
        await end(world, s, 'end');
        const adds = world.server.sessions().flatMap((session) => session.allMessages).length;
        console.log(`[faults] rewind (${how}): ${adds} messages added in all (1,202 expected)`);
        await expectExactlyOnceWithinDeadlines(world, `rewind: ${how}`, [s], [], { committed: true });
        expect(adds).toBe(1202);
      });
    }, 120_000);
  }
});
