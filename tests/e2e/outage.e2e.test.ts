/**
 * Scenario 6 — OpenViking down for a whole CLI session, up for the next one.
 * The first session must still finish normally (no hook waits out its
 * timeout) and its prompt must reach the model; after the second session,
 * both sessions' turns are in OpenViking exactly once: nothing lost while the
 * server was away, nothing duplicated by the replay.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserQuery } from './support/chat-types.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { hookSpawnLines, hookTimeoutLines } from './support/cli-log.js';
import { countMessages, mainSessionOf } from './support/openviking.js';
import { hostSessionIdOf } from './support/observe.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

let world: E2eWorld;
let down: CliRun;
let downLog: string;
let up: CliRun;

function sessionOfPrompt(marker: string): string {
  return hostSessionIdOf(world.model.calls('conversation').find((call) => lastUserQuery(call).includes(marker)));
}

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld('outage', (call) => ({
    text: `ANSWER-${/E2E-OUT-\d/.exec(lastUserQuery(call))?.[0] ?? 'other'}`,
  }));
  await world.ov.stop();
  down = await runPrompt(world.sandbox, 'E2E-OUT-1 the server is away', {
    plugin: world.repoPlugin,
    env: world.pluginEnv,
  });
  downLog = world.sandbox.cliLogs();
  await world.ov.start();
  up = await runPrompt(world.sandbox, 'E2E-OUT-2 the server is back', {
    plugin: world.repoPlugin,
    env: world.pluginEnv,
  });
});

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 6: server down for one session, up for the next', () => {
  it('the session without a server finishes normally and its prompt reaches the model', () => {
    expectNormalExit(down);
    expect(down.stdout).toContain('ANSWER-E2E-OUT-1');
  });

  it('no hook waited out its timeout while the server was down', () => {
    // Wall time is too noisy on a loaded machine (6-20 s per CLI start); the host logs every hook it kills.
    expect(hookSpawnLines(downLog).length).toBeGreaterThan(0);
    expect(hookTimeoutLines(downLog)).toEqual([]);
    expect(down.durationMs, `down ${down.durationMs} ms, up ${up.durationMs} ms`).toBeLessThan(60_000);
  });

  it('after the server is back, both sessions are in OpenViking exactly once', async () => {
    const first = sessionOfPrompt('E2E-OUT-1');
    const second = sessionOfPrompt('E2E-OUT-2');
    expect(first).not.toBe(second);
    const probes = {
      'session 1 prompt': () => countMessages(mainSessionOf(world.ov, first), 'user', 'E2E-OUT-1'),
      'session 1 answer': () => countMessages(mainSessionOf(world.ov, first), 'assistant', 'ANSWER-E2E-OUT-1'),
      'session 2 prompt': () => countMessages(mainSessionOf(world.ov, second), 'user', 'E2E-OUT-2'),
      'session 2 answer': () => countMessages(mainSessionOf(world.ov, second), 'assistant', 'ANSWER-E2E-OUT-2'),
    };
    expect(await settledCounts(probes, 30_000), world.evidence()).toEqual(onceEach(probes));
  });
});
