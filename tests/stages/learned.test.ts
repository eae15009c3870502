/**
 * What each session taught, through the host simulator and the BUILT
 * bundle against the test server (DESIGN D36): a session's commit is noted
 * with its task; the next session start of the workspace asks about that
 * one task and says in one line (the envelope's `systemMessage`) how many
 * memories it produced; the start after says nothing and asks nothing; a
 * task still pending is said once it completes; a failed extraction is said
 * too; the prompt path never asks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPayloads } from '../support/host-sim/index.js';
import { createWorld, endedSession, type CaptureWorld } from '../capture/support/world.js';
import { join } from 'node:path';
import { stopResidents } from '../support/detached.js';

let world: CaptureWorld | undefined;
afterEach(async () => {
  if (world !== undefined) await stopResidents(world.home);
  await world?.close();
  world = undefined;
});

const TASKS = /^\/api\/v1\/tasks\//;

/** A new session's start: its user lines, and the task requests it made. */
async function start(w: CaptureWorld): Promise<{ lines: string[]; taskRequests: number }> {
  w.server.clearRequests();
  const p = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
  const result = await w.sim.fire('SessionStart', p.sessionStart('startup'));
  expect(result.timedOut).toBe(false);
  return {
    lines: result.merged.systemMessages,
    taskRequests: w.server.requests({ method: 'GET', path: TASKS }).length,
  };
}

describe('the next session start says what the last session taught', () => {
  it('reported once: one task request, one line; the start after asks nothing and says nothing', async () => {
    world = await createWorld({ server: { extractOnCommit: true } });
    await endedSession(world, 'we chose sqlite for the cache');
    expect(world.server.extraction.tasks().map((task) => task.status)).toEqual(['completed']);
    const first = await start(world);
    expect(first.taskRequests).toBe(1);
    expect(first.lines).toEqual(['OpenViking learned 1 memory from your last session in this project.']);
    const second = await start(world);
    expect(second).toEqual({ lines: [], taskRequests: 0 });
  });

  it('a task still pending: nothing said, asked again at the next start, said once completed', async () => {
    world = await createWorld({ server: { extractOnCommit: true } });
    world.server.extraction.hold = true;
    await endedSession(world, 'the deploy uses blue green');
    expect(await start(world)).toEqual({ lines: [], taskRequests: 1 });
    expect(await start(world)).toEqual({ lines: [], taskRequests: 1 });
    world.server.extraction.release();
    expect(await start(world)).toEqual({
      lines: ['OpenViking learned 1 memory from your last session in this project.'],
      taskRequests: 1,
    });
    expect(await start(world)).toEqual({ lines: [], taskRequests: 0 });
  });

  it('a failed extraction is said, with the server’s reason', async () => {
    world = await createWorld({ server: { extractOnCommit: true } });
    world.server.extraction.failNext('VLM_FAILED: upstream model unavailable');
    await endedSession(world, 'prefers tabs');
    const said = await start(world);
    expect(said.lines).toEqual([
      'OpenViking could not extract memories from your last session in this project (the server said: VLM_FAILED: upstream model unavailable); /openviking:learned lists it.',
    ]);
  });

  it('no commit yet: the start makes no task request', async () => {
    world = await createWorld({ server: { extractOnCommit: true } });
    expect(await start(world)).toEqual({ lines: [], taskRequests: 0 });
  });

  it('the prompt path makes no request for it, even with a task pending', async () => {
    world = await createWorld({ server: { extractOnCommit: true } });
    world.server.extraction.hold = true;
    await endedSession(world, 'the linker flags');
    const w = world;
    const p = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
    // In the hook process, then through a resident helper (the first prompt starts it, the second is its own).
    for (const resident of ['off', 'on', 'on']) {
      w.server.clearRequests();
      const prompt = await w.sim.fire('UserPromptSubmit', p.userPromptSubmit('which linker flags do we use'), {
        env: { OPENVIKING_RESIDENT: resident },
      });
      expect(prompt.timedOut).toBe(false);
      const paths = w.server.requests().map((request) => `${request.method} ${request.path}`);
      expect(paths.length, `resident ${resident}`).toBeGreaterThan(0);
      expect(
        paths.filter((path) => !path.startsWith('POST /api/v1/search/')),
        `resident ${resident}`,
      ).toEqual([]);
    }
  });
});
