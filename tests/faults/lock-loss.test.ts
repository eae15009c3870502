/**
 * A capture worker that lost its lock must not write again (issue 14 item
 * 5). Real processes: worker A is SIGSTOPped in the middle of its first
 * batch of three; its heartbeat is then made five minutes old (what a
 * suspended laptop leaves on disk), so worker B reclaims the lock, settles
 * A's batch by the server's count and sends the rest. When A resumes it
 * learns its batch's answer and must stop there: before the fix it went on
 * and sent batches 2 and 3 a second time.
 *
 * @module
 */
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureLockPath } from '../../src/session/locks.js';
import { resolveDataDir } from '../../src/store/paths.js';
import { waitFor } from '../store/fixtures/processes.js';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { usePrivatePlugin } from './support/plugin.js';
import { exitOf, stopThenSpawnWorker } from './support/worker.js';
import { createFaultWorld, FAST_KNOBS } from './support/world.js';

const plugin = usePrivatePlugin();

const BATCH = { path: /\/messages\/batch$/ };

describe('a capture worker that lost its lock', () => {
  it('stopped mid-send past the stale time, then resumed: it sends nothing more (lock loss)', async () => {
    const world = await createFaultWorld(plugin.root);
    try {
      const s = world.session('lockloss');
      // A long per-request timeout: A's answer must be waiting for it when it resumes.
      const env = { ...world.sim.env, ...FAST_KNOBS, OPENVIKING_TIMEOUT_MS: '30000' };
      s.transcript.append(150); // 300 messages: three batches
      world.server.faults.latency(1_500, BATCH);
      const a = await stopThenSpawnWorker(world, s, plugin.root, env);
      await waitFor(() => world.server.requests(BATCH).length >= 1, 20_000, 5); // worker A's first batch
      a.kill('SIGSTOP');
      await waitFor(() => world.server.requests(BATCH).every((request) => request.status !== 0), 10_000); // the server answered it
      world.server.faults.clear();

      const lock = captureLockPath(resolveDataDir(env, world.home), s.ovId);
      const owner = readdirSync(lock).find((name) => name.endsWith('.owner'));
      expect(owner, 'A holds the capture lock').toBeDefined();
      const suspended = (Date.now() - 10 * 60_000) / 1000;
      utimesSync(join(lock, owner as string), suspended, suspended);

      const b = await stopThenSpawnWorker(world, s, plugin.root, env);
      expect(await exitOf(b)).toBeNull();
      const afterB = world.server.requests(BATCH).length;
      a.kill('SIGCONT');
      expect(await exitOf(a)).toBeNull();
      console.log(
        `[faults] lock loss: batches sent by A before its stop 1, by B ${afterB - 1}, by A after it resumed ${world.server.requests(BATCH).length - afterB}`,
      );
      await world.fire('lockloss SessionEnd', 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
      await expectExactlyOnceWithinDeadlines(
        world,
        'lock loss (worker SIGSTOPped past the stale time, then resumed)',
        [s],
        [],
        { committed: true },
      );
      expect(world.server.requests(BATCH).length, 'no batch after the resume').toBe(afterB);
    } finally {
      await world.close();
    }
  }, 90_000);
});
