/**
 * The capture stage through the host simulator and the BUILT bundle: Stop
 * hands the turn to a detached worker, and the test server ends up with each
 * turn exactly once, in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWorld, until, workersIdle } from '../capture/support/world.js';
import type { CaptureWorld } from '../capture/support/world.js';

let world: CaptureWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('Stop capture', () => {
  it('lands a 5-turn session exactly once, in order', async () => {
    world = await createWorld();
    const w = world;
    const expected: string[] = [];
    for (let turn = 1; turn <= 5; turn++) {
      w.appendTurn(`question ${turn}`, `answer ${turn}`);
      expected.push(`question ${turn}`, `answer ${turn}`);
      const stop = await w.sim.fire('Stop', w.p.stop(`answer ${turn}`));
      expect(stop.timedOut).toBe(false);
      expect(stop.outputs[0]?.stdout ?? '').toBe('');
      await until(() => w.storedTexts().length >= turn * 2, 15_000, `turn ${turn}`);
    }
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(expected);
  });
});
