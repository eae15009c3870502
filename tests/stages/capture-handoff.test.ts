/**
 * How the capture stage hands its work on (DESIGN D11), in process against
 * the OpenViking test server: in an ordinary hook process it starts one
 * worker whose job is the session's OpenViking id and nothing else (whoever
 * holds the writer lock drains the whole inbox); in a process already off
 * the host's clock (`hook.cjs detached`: `StageDeps.offHostClock`) it starts
 * nothing and drains the inbox itself after its answer, with the
 * configuration it loaded once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchHook } from '../../src/hook/dispatch.js';
import { routeFor } from '../../src/hook/routes.js';
import { runWorker } from '../../src/capture/worker.js';
import { socketHttpTransport } from '../../src/openviking/socketHttp.js';
import type { Logger } from '../../src/protocol/stage.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';
import { createWorld } from '../capture/support/world.js';
import type { CaptureWorld } from '../capture/support/world.js';

let world: CaptureWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function depsFor(w: CaptureWorld, offHostClock: boolean, configured: { count: number }) {
  const log: Logger = { debug: () => undefined, warn: () => undefined, configure: () => void configured.count++ };
  return createTestDeps({
    http: socketHttpTransport,
    env: { OPENVIKING_URL: w.server.url },
    homeDir: w.home,
    cwd: w.workspace,
    now: Date.now,
    log,
    offHostClock,
  });
}

describe('capture hand-off', () => {
  it('a hook process hands the worker the session id only', async () => {
    world = await createWorld();
    const w = world;
    w.appendTurn('question 1', 'answer 1');
    const deps = depsFor(w, false, { count: 0 });
    expect(
      await dispatchHook(JSON.stringify(w.p.stop('answer 1')), {
        routeFor,
        createDeps: () => deps,
        elapsedMs: () => 0,
      }),
    ).toBe('');
    expect(deps.spawned).toEqual([{ args: ['worker', 'capture'], stdin: JSON.stringify({ ovSessionId: w.ovId }) }]);
    // The job is all the worker needs.
    expect(await runWorker(['capture'], deps.spawned[0]?.stdin ?? '', deps)).toBe(0);
    expect(w.storedTexts()).toEqual(['question 1', 'answer 1']);
  });

  it('off the host clock it spawns nothing and drains after its answer, loading the configuration once', async () => {
    world = await createWorld();
    const w = world;
    w.appendTurn('question 1', 'answer 1');
    const configured = { count: 0 };
    const deps = depsFor(w, true, configured);
    expect(
      await dispatchHook(JSON.stringify(w.p.stop('answer 1')), {
        routeFor,
        createDeps: () => deps,
        elapsedMs: () => 0,
      }),
    ).toBe('');
    expect(deps.spawned).toEqual([]);
    await deps.settled();
    expect(w.storedTexts()).toEqual(['question 1', 'answer 1']);
    expect(configured.count).toBe(1);
  });
});
