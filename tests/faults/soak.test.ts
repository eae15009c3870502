/**
 * The seeded soak of issue 14 item 2: ten sessions of one workspace take
 * turns at once while the server goes down and comes back, answers 503,
 * 429 and retryable 409 bursts and slows past the request timeout, at
 * random; other sessions start in between (each start replays the queue).
 * Then the faults stop, every session gets one more Stop, a start replays
 * what waits, and every session ends (SessionEnd commits it).
 *
 * With the default settings nothing may be lost (before the fix, starts
 * during an outage used up a queued turn's three attempts and dead-lettered
 * it), duplicated, or left outside a commit. The seed is printed;
 * `FUZZ_SEED=<n>` replays the same schedule, `SOAK_SESSIONS` and
 * `SOAK_TURNS` change its size (default 10 × 20 = 400 messages, the measurement: 23–28 s here under load).
 *
 * @module
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng, fuzzSeed } from '../fuzz/support/rng.js';
import type { Rng } from '../fuzz/support/rng.js';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { settledLedger } from './support/ledger.js';
import { usePrivatePlugin } from './support/plugin.js';
import { createFaultWorld } from './support/world.js';
import type { FaultSession, FaultWorld } from './support/world.js';

const SEED = fuzzSeed(process.env, new Date());
const SESSIONS = Number(process.env.SOAK_SESSIONS) || 10;
const TURNS = Number(process.env.SOAK_TURNS) || 20;

const plugin = usePrivatePlugin();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the faults hit: writes, the count check, commits, or everything. */
const TARGETS = [{ path: /\/messages\/batch$/ }, { path: /\/sessions\/[^/]+$/ }, { path: /\/commit$/ }, {}] as const;

type FaultKind = 'down' | '503' | '429' | '409' | 'slow';

/** Injects a random fault every 100–400 ms until `stopped()`; returns how many of each. */
async function chaos(world: FaultWorld, rng: Rng, stopped: () => boolean): Promise<Record<FaultKind, number>> {
  const counts: Record<FaultKind, number> = { down: 0, '503': 0, '429': 0, '409': 0, slow: 0 };
  const { server } = world;
  while (!stopped()) {
    await sleep(rng.int(100, 400));
    const kind = rng.pick<FaultKind>(['down', '503', '429', '409', 'slow']);
    counts[kind]++;
    const match = rng.pick(TARGETS);
    if (kind === 'down') {
      await server.stop();
      await sleep(rng.int(200, 1_500));
      await server.start();
    } else if (kind === 'slow') {
      server.faults.latency(rng.int(300, 1_600), match); // past the 1 s request timeout at times
      await sleep(rng.int(300, 1_200));
      server.faults.clear();
    } else {
      server.faults.errorBurst({
        status: Number(kind),
        count: rng.int(1, 6),
        match,
        ...(kind === '409' ? { retryable: true } : {}),
      });
    }
  }
  server.faults.clear();
  if (!server.running) await server.start();
  return counts;
}

/** One session's turns, with other sessions starting in between. */
async function runSession(world: FaultWorld, s: FaultSession, rng: Rng, starts: { count: number }): Promise<void> {
  await world.fire(`${s.tag} SessionStart`, 'SessionStart', s.p.sessionStart('startup'));
  for (let turn = 1; turn <= TURNS; turn++) {
    if (rng.chance(0.12)) {
      const other = world.session(`${s.tag}-start${turn}`);
      starts.count++;
      await world.fire(`${other.tag} SessionStart`, 'SessionStart', other.p.sessionStart('startup'));
    }
    s.transcript.append();
    await world.fire(`${s.tag} Stop ${turn}`, 'Stop', s.p.stop('done'));
    await sleep(rng.int(20, 250));
  }
}

/** Faults over: a Stop each, a start that replays the queue, then each session ends; until all is in (3 rounds at most). */
async function finish(world: FaultWorld, sessions: readonly FaultSession[]): Promise<number> {
  for (let round = 1; ; round++) {
    await world.settle(30_000);
    for (const s of sessions) await world.fire(`${s.tag} Stop (final, round ${round})`, 'Stop', s.p.stop('done'));
    await world.settle(30_000);
    await world.fire(
      `replay start (round ${round})`,
      'SessionStart',
      world.session(`soak-final${round}`).p.sessionStart('startup'),
    );
    await world.settle(30_000);
    for (const s of sessions)
      await world.fire(`${s.tag} SessionEnd (round ${round})`, 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
    const report = await settledLedger(
      world.server,
      sessions.flatMap((s) => s.expected()),
      { timeoutMs: 2_000 },
    );
    if ((report.lost.length === 0 && report.uncommitted.length === 0) || round === 3) return round;
  }
}

function deadLetterCount(world: FaultWorld): number {
  try {
    return readdirSync(join(world.home, '.codebuddy', 'openviking', 'queue', 'dead')).length;
  } catch {
    return 0;
  }
}

describe('seeded soak: concurrent sessions against a failing server', () => {
  it(`${SESSIONS} sessions × ${TURNS} turns, outages, 503/429/409 and slowness at random: lost 0, duplicated 0, uncommitted 0`, async () => {
    console.log(`[faults] soak seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run tests/faults/soak.test.ts)`);
    const started = performance.now();
    const world = await createFaultWorld(plugin.root);
    try {
      const rng = createRng(SEED);
      const sessions = Array.from({ length: SESSIONS }, (_, index) => world.session(`soak${index}`));
      const starts = { count: 0 };
      let running = true;
      const faults = chaos(world, rng.fork(1_000), () => !running);
      await Promise.all(sessions.map((s, index) => runSession(world, s, rng.fork(index), starts)));
      running = false;
      const injected = await faults;
      const rounds = await finish(world, sessions);
      const dead = deadLetterCount(world);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `[faults] soak seed ${SEED}: ${SESSIONS}×${TURNS} turns (${SESSIONS * TURNS * 2} messages), ${starts.count} extra session starts, faults ${JSON.stringify(injected)}, dead letters ${dead}, recovery rounds ${rounds}, ${seconds} s`,
      );
      await expectExactlyOnceWithinDeadlines(world, `soak (seed ${SEED})`, sessions, [], { committed: true });
      expect(dead, 'dead letters with the default settings').toBe(0);
    } finally {
      await world.close();
    }
  }, 180_000);
});
