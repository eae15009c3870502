/**
 * Issue 14 item 4: a new session must not commit sessions that are still
 * live. Two sessions of one workspace take turns; a third session starts and
 * must commit neither; once one of them has been idle past
 * `OPENVIKING_STALE_COMMIT_IDLE_MS` (the other still taking turns) the next
 * start commits that one, once, and a later start does not commit it again.
 * Prints the fault-suite line plus the commit counts.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedCommits, commitRequests } from './support/commits.js';
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

/** Short enough for a test, long enough that a turn taken meanwhile keeps a session live on a loaded machine. */
const IDLE_MS = 5_000;

async function turn(world: FaultWorld, s: FaultSession, n: number): Promise<void> {
  await world.fire(`${s.tag} prompt ${n}`, 'UserPromptSubmit', s.p.userPromptSubmit(`remember fact ${n}`, n));
  s.transcript.append();
  await world.fire(`${s.tag} Stop ${n}`, 'Stop', s.p.stop('done'));
  await world.settle();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('two live sessions plus a third start', () => {
  it('a third start commits neither live session; an idle one is committed once', async () => {
    // The test server's idle scanner is off (as on a default server), so the client-side rule is what commits;
    // the policy carries no idle timeout (0.5.2 takes none under 300 s, and the client waits for the server's).
    const world = await createFaultWorld(plugin.root, {
      OPENVIKING_STALE_COMMIT_IDLE_MS: String(IDLE_MS),
      OPENVIKING_SERVER_COMMIT_IDLE_SECONDS: '0',
    });
    try {
      const a = world.session('liveA');
      const b = world.session('liveB');
      for (const s of [a, b]) await world.fire(`${s.tag} SessionStart`, 'SessionStart', s.p.sessionStart('startup'));
      await turn(world, a, 1);
      await turn(world, b, 1);
      await turn(world, a, 2);

      const c = world.session('third');
      await world.fire('third SessionStart', 'SessionStart', c.p.sessionStart('startup'));
      await world.settle();
      const liveCut = commitRequests(world.server, a.ovId) + commitRequests(world.server, b.ovId);
      expect(liveCut, 'commits of live sessions after a third start').toBe(0);

      // A goes quiet; B keeps taking turns until A has been idle long enough.
      const quietSince = Date.now();
      let n = 2;
      while (Date.now() - quietSince < IDLE_MS + 500) {
        await turn(world, b, n++);
        await sleep(1_000);
      }
      // Each later start comes right after one of B's turns, so B's last turn is moments old whatever the
      // machine's load (a loaded machine once took longer than IDLE_MS over one turn and a start's settle).
      await turn(world, b, n++);
      const d = world.session('fourth');
      await world.fire('fourth SessionStart', 'SessionStart', d.p.sessionStart('startup'));
      await world.settle();
      await turn(world, b, n++);
      const e = world.session('fifth');
      await world.fire('fifth SessionStart', 'SessionStart', e.p.sessionStart('startup'));
      await world.settle();
      const idleCommits = acceptedCommits(world.server, a.ovId);
      const liveCommits = commitRequests(world.server, b.ovId);
      console.log(
        `[faults] two live sessions plus a third start: live sessions committed = ${liveCut}, idle session committed ${idleCommits} time(s), live one ${liveCommits}`,
      );
      expect(idleCommits, 'the idle session is committed exactly once').toBe(1);
      expect(commitRequests(world.server, a.ovId), 'no second commit request for the idle session').toBe(1);
      expect(liveCommits, 'the session still taking turns is never committed by another start').toBe(0);

      // B ends the way the TUI ends it: everything is archived in the end.
      await world.fire('liveB SessionEnd', 'SessionEnd', b.p.sessionEnd('prompt_input_exit'));
      await world.settle();
      await expectExactlyOnceWithinDeadlines(world, 'two live sessions plus a third start', [a, b], [], {
        committed: true,
      });
    } finally {
      await world.close();
    }
  }, 120_000);
});
