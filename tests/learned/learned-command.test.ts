/**
 * `node scripts/hook.mjs learned` (`/openviking:learned`, DESIGN D36)
 * through the BUILT bundle against the test server: per recent session of
 * the folder, the memories a completed extraction wrote (URI and first
 * line, from the server's memory_diff.json, F25), the reason of one that
 * failed, one still being processed; what it listed is not said again by
 * the next session start, and what is still pending is.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPayloads } from '../support/host-sim/index.js';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';
import { createWorld, endedSession, type CaptureWorld } from '../capture/support/world.js';

let world: CaptureWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function learned(
  w: CaptureWorld,
  args: readonly string[] = [],
): Promise<{ stdout: string; code: number | null }> {
  const run = await runProcess(process.execPath, [join(REPO_ROOT, 'scripts', 'hook.mjs'), 'learned', ...args], {
    env: { PATH: process.env.PATH, HOME: w.home, OPENVIKING_URL: w.server.url },
    cwd: w.workspace,
    timeoutMs: 30_000,
  });
  return { stdout: run.stdout, code: run.exitCode };
}

describe('/openviking:learned', () => {
  it('lists what each recent session taught, what failed and what is still being processed', async () => {
    world = await createWorld({ server: { extractOnCommit: true } });
    const w = world;
    const taught = await endedSession(w, 'LEARN-A we deploy with blue green');
    w.server.extraction.failNext('VLM_FAILED: upstream model unavailable');
    const failed = await endedSession(w, 'LEARN-B prefers tabs');
    w.server.extraction.hold = true;
    const pending = await endedSession(w, 'LEARN-C the cache is sqlite');
    const listed = await learned(w);
    expect(listed.code).toBe(0);
    const text = listed.stdout;
    expect(text).toContain(`What OpenViking learned from the recent sessions of ${w.workspace} (newest first):`);
    expect(text.indexOf(pending)).toBeLessThan(text.indexOf(failed));
    expect(text.indexOf(failed)).toBeLessThan(text.indexOf(taught));
    expect(text).toMatch(/still being processed \(pending\)/);
    expect(text).toContain('extraction failed: VLM_FAILED: upstream model unavailable');
    expect(text).toMatch(/1 memory \(events 1\)/);
    expect(text).toMatch(
      new RegExp(
        `viking://user/default/memories/events/${taught}-archive_001\\.md — LEARN-A we deploy with blue green`,
      ),
    );
    expect(text).toContain(`${taught}  (1 commit; 1 memory in all on the server)`);
    // What the listing showed is not said again at the next start; the pending one is, once it completes.
    const p = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
    expect((await w.sim.fire('SessionStart', p.sessionStart())).merged.systemMessages).toEqual([]);
    w.server.extraction.release();
    const q = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
    expect((await w.sim.fire('SessionStart', q.sessionStart())).merged.systemMessages).toEqual([
      'OpenViking learned 1 memory from your last session in this project.',
    ]);
  });

  it('before any commit, and with an argument', async () => {
    world = await createWorld({ server: { extractOnCommit: true } });
    const none = await learned(world);
    expect(none.stdout).toMatch(/^No commit of a session of .* is recorded yet/);
    expect(world.server.requests()).toEqual([]);
    expect((await learned(world, ['--all'])).code).toBe(2);
  });
});
