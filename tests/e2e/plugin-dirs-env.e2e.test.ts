/**
 * Scenario 3 — the plugin loaded through `CODEBUDDY_PLUGIN_DIRS` instead of
 * `--plugin-dir` (how a wrapper script or a team setup would enable it): the
 * hooks see the same plugin root, the profile reaches the model, and the turn
 * is captured once.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { countMessages, mainSessionOf, SEED } from './support/openviking.js';
import { blocksInPrompt, hostSessionIdOf } from './support/observe.js';
import { REPO_ROOT } from './support/repo.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const ANSWER = 'E2E-THREE-ANSWER fine';

let world: E2eWorld;
let run: CliRun;

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld('plugin-dirs', () => ({ text: ANSWER }));
  run = await runPrompt(world.sandbox, 'E2E-THREE what do you know about me?', {
    plugin: { kind: 'env-dirs', dirs: [REPO_ROOT] },
    env: world.pluginEnv,
  });
});

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 3: CODEBUDDY_PLUGIN_DIRS', () => {
  it('the CLI finishes normally', () => {
    expectNormalExit(run);
    expect(run.stdout).toContain(ANSWER);
  });

  it('the profile reaches the first model request', () => {
    expect(blocksInPrompt(world.model.calls('conversation')[0]).join('\n'), world.evidence()).toContain(
      SEED.profileMarker,
    );
  });

  it('the turn is captured exactly once', async () => {
    const sessionId = hostSessionIdOf(world.model.calls('conversation')[0]);
    const probes = {
      prompt: () => countMessages(mainSessionOf(world.ov, sessionId), 'user', 'E2E-THREE'),
      answer: () => countMessages(mainSessionOf(world.ov, sessionId), 'assistant', ANSWER),
    };
    expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
  });
});
