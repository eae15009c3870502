/**
 * Scenario 7 — a server that answers searches after 30 s. On CodeBuddy a
 * UserPromptSubmit hook past its timeout DROPS the user's prompt (codebuddy-host
 * README §3), so the plugin must give up on recall in time: the prompt still
 * reaches the model well inside the UserPromptSubmit hook timeout, and no hook
 * is killed by the host.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserQuery } from './support/chat-types.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { hookTimeoutLines, shippedHookTimeoutMs } from './support/cli-log.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const SEARCH_LATENCY_MS = 30_000;

let world: E2eWorld;
let run: CliRun;

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld('slow', () => ({ text: 'E2E-SLOW-ANSWER still here' }));
  world.ov.faults.latency(SEARCH_LATENCY_MS, { path: /\/api\/v1\/search\// });
  run = await runPrompt(world.sandbox, 'E2E-SLOW how do I deploy the kestrel staging cluster?', {
    plugin: world.repoPlugin,
    env: world.pluginEnv,
  });
});

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 7: a slow server', () => {
  it('the prompt still reaches the model and the answer comes back', () => {
    expectNormalExit(run);
    expect(run.stdout).not.toMatch(/hook error|timed out/i);
    const prompts = world.model.calls('conversation').map(lastUserQuery);
    expect(
      prompts.some((prompt) => prompt.includes('E2E-SLOW')),
      world.evidence(),
    ).toBe(true);
    expect(run.stdout).toContain('E2E-SLOW-ANSWER');
  });

  it('recall was attempted, and the prompt went on well inside the hook timeout', () => {
    const search = world.ov.requests({ path: /\/api\/v1\/search\// })[0];
    expect(search, world.evidence()).toBeDefined();
    const modelCall = world.model.calls('conversation')[0];
    expect(modelCall).toBeDefined();
    const waitedMs = modelCall!.at - search!.startedAt;
    expect(waitedMs).toBeLessThan(shippedHookTimeoutMs('UserPromptSubmit'));
    expect(hookTimeoutLines(world.sandbox.cliLogs())).toEqual([]);
  });
});
