/**
 * `node scripts/hook.mjs import` SIGKILLed at seeded random points, again
 * and again, then run to its end (DESIGN D35 on D12, D18): every turn of
 * every session of both hosts is on the server exactly once, and in a
 * commit. The kill points are drawn uniformly over one calibrated import of
 * the same history, and the server adds seeded latency to batch writes and
 * commits; each kill falls after the run's first write, so kills land
 * inside sends, between a send and its saved state, around commits and in
 * the ledger's writes. The seed is printed;
 * `FUZZ_SEED=<n>` replays the schedule.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng, fuzzSeed } from '../fuzz/support/rng.js';
import { copyBuiltPlugin, type PrivatePlugin } from './support/plugin.js';
import { describeLedger, settledLedger } from './support/ledger.js';
import {
  claudeTurn,
  codebuddyTurn,
  createImportWorld,
  type ImportWorld,
  type WrittenSession,
} from '../import/support/world.js';

const TRIALS = 20;
const SEED = fuzzSeed(process.env, new Date());

let plugin: PrivatePlugin;
beforeAll(async () => {
  plugin = await copyBuiltPlugin();
});
afterAll(async () => {
  await plugin?.dispose();
});

/** The import's history as it grows: sessions of both hosts, and the markers of every turn written. */
class History {
  readonly markers: string[] = [];
  private readonly sessions: Array<{ session: WrittenSession; host: 'codebuddy' | 'claude'; turns: number }> = [];
  constructor(
    private readonly world: ImportWorld,
    private readonly tag: string,
  ) {}

  /** A new session of `turns` turns, CodeBuddy and Claude Code in turn. */
  addSession(turns: number): void {
    const index = this.sessions.length;
    const host = index % 2 === 0 ? 'codebuddy' : 'claude';
    const pairs = Array.from({ length: turns }, (_, turn) => this.turn(index, turn));
    const session = host === 'codebuddy' ? this.world.codebuddy({ turns: pairs }) : this.world.claude({ turns: pairs });
    this.sessions.push({ session, host, turns });
  }

  /** `turns` more turns appended to session `index` (a session resumed after it was imported). */
  grow(index: number, turns: number): void {
    const entry = this.sessions[index % this.sessions.length];
    if (entry === undefined) return;
    const records = Array.from({ length: turns }, (_, k) => {
      const [user, assistant] = this.turn(index % this.sessions.length, entry.turns + k);
      return (entry.host === 'codebuddy' ? codebuddyTurn : claudeTurn)(
        entry.session.sessionId,
        this.world.workspace,
        user,
        assistant,
      );
    }).flat();
    entry.turns += turns;
    this.world.appendRaw(
      entry.session,
      records.map((record) => JSON.stringify(record)),
    );
  }

  get count(): number {
    return this.sessions.length;
  }

  private turn(session: number, turn: number): [string, string] {
    const marker = `${this.tag}-s${session}t${turn}`;
    this.markers.push(`${marker}/user`, `${marker}/assistant`);
    return [`${marker}/user`, `${marker}/assistant`];
  }
}

/**
 * Runs an import of `world` (the private plugin copy) and SIGKILLs it `ms`
 * after its first write reached the server (never, when undefined): its
 * start (node, the judging of every transcript) is not where the sends are.
 * `writeMs`: from the first write to the exit, when it was not killed.
 */
async function killedAfter(
  world: ImportWorld,
  ms: number | undefined,
): Promise<{ killed: boolean; wrote: boolean; writeMs: number }> {
  const before = world.server.requests({ method: 'POST' }).length;
  const child = world.spawnImport([], plugin.root);
  let firstWriteAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const poll = setInterval(() => {
    if (firstWriteAt !== undefined || world.server.requests({ method: 'POST' }).length === before) return;
    firstWriteAt = performance.now();
    if (ms !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), ms);
  }, 2);
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
  clearInterval(poll);
  clearTimeout(timer);
  const wrote = world.server.requests({ method: 'POST' }).length > before;
  return { killed: signal === 'SIGKILL', wrote, writeMs: performance.now() - (firstWriteAt ?? performance.now()) };
}

describe('import SIGKILLed at random points', () => {
  it(`${TRIALS} seeded kills, then a run to the end: every turn exactly once, every one committed`, async () => {
    console.log(
      `[faults] import-kill seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run tests/faults/import-kill.test.ts)`,
    );
    const calibrationWorld = await createImportWorld();
    let calibration: number;
    try {
      const start = new History(calibrationWorld, 'cal');
      for (let session = 0; session < 4; session++) start.addSession(4);
      calibrationWorld.server.faults.latency(20, { path: /\/messages\/batch$|\/commit$/ });
      calibration = (await killedAfter(calibrationWorld, undefined)).writeMs;
    } finally {
      await calibrationWorld.close();
    }
    const world = await createImportWorld();
    try {
      const grown = new History(world, 'kill');
      for (let session = 0; session < 4; session++) grown.addSession(3 + (session % 3));
      const rng = createRng(SEED);
      let killed = 0;
      let killedMidWork = 0;
      for (let trial = 0; trial < TRIALS; trial++) {
        const t = rng.fork(trial);
        if (t.chance(0.5)) grown.addSession(t.int(2, 5));
        grown.grow(t.int(0, grown.count - 1), t.int(1, 2));
        world.server.faults.clear();
        world.server.faults.latency(t.int(0, 40), { path: /\/messages\/batch$|\/commit$/ });
        // A trial has less to write than the calibrated whole import (one or two sessions new or grown): its kills fall early.
        const run = await killedAfter(world, Math.floor(t.next() * calibration * 0.5));
        if (run.killed) killed += 1;
        if (run.killed && run.wrote) killedMidWork += 1;
      }
      const expected = grown.markers;
      world.server.faults.clear();
      const last = await world.run([], {}, plugin.root);
      expect(last.exitCode, last.stdout + last.stderr).toBe(0);
      const report = await settledLedger(world.server, expected, { timeoutMs: 3_000 });
      console.log(
        `${describeLedger(`import killed ×${killed}, ${killedMidWork} after it had written (seed ${SEED})`, report, 0, 0)}; calibration ${calibration.toFixed(0)} ms`,
      );
      expect(killed, 'most trials really killed an import').toBeGreaterThanOrEqual(TRIALS / 2);
      expect(killedMidWork, 'kills among its writes').toBeGreaterThanOrEqual(TRIALS / 2);
      expect(report.lost).toEqual([]);
      expect(report.duplicated).toEqual([]);
      expect(report.uncommitted).toEqual([]);
      for (const session of world.server.sessions()) expect(session.messages, session.sessionId).toEqual([]);
      const again = await world.run([], {}, plugin.root);
      expect(again.stdout).toMatch(/nothing new to import/);
    } finally {
      await world.close();
    }
  }, 240_000);
});
