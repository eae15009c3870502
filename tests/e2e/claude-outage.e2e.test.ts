/**
 * Claude Code scenario 3 — OpenViking down for a whole Claude Code session, up
 * for the next one. The first session must still finish normally (no hook
 * waits out its timeout: Claude Code's debug log names every hook it times
 * out or cancels) and its prompt must reach the model; after the second
 * session both sessions' turns are in OpenViking exactly once.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserQuery } from './support/chat-types.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { runClaude } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import {
  claudeSessionIdOf,
  createClaudeWorld,
  forEachClaudeVersion,
  type ClaudeWorld,
} from './support/claude-world.js';
import { expectNormalExit } from './support/expect-run.js';
import { countMessages, mainSessionOf } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let down: CliRun;
  let downLog: string;
  let up: CliRun;

  function sessionOfPrompt(marker: string): string {
    return claudeSessionIdOf(world.model.calls('conversation').find((call) => lastUserQuery(call).includes(marker)));
  }

  /** Debug-log lines of the plugin's hooks that finished, and of any hook Claude Code timed out or cancelled. */
  function hookLines(log: string): { finished: string[]; stalled: string[] } {
    const lines = log.split('\n');
    return {
      finished: lines.filter((line) => /\(plugin openviking@[^)]*\) finished with status/.test(line)),
      stalled: lines.filter((line) => /hook/i.test(line) && /timed out|cancelled/i.test(line)),
    };
  }

  beforeAll(async () => {
    world = await createClaudeWorld(version, 'outage', (call) => ({
      text: `ANSWER-${/E2E-CC-OUT-\d/.exec(lastUserQuery(call))?.[0] ?? 'other'}`,
    }));
    await world.ov.stop();
    down = await runClaude(world.sandbox, 'E2E-CC-OUT-1 the server is away', {
      pluginDirs: [REPO_ROOT],
      env: world.pluginEnv,
    });
    downLog = world.sandbox.debugLogs();
    await world.ov.start();
    up = await runClaude(world.sandbox, 'E2E-CC-OUT-2 the server is back', {
      pluginDirs: [REPO_ROOT],
      env: world.pluginEnv,
    });
  });

  afterAll(async () => {
    await world?.dispose();
  });

  describe('Claude Code scenario 3: server down for one session, up for the next', () => {
    it('the session without a server finishes normally and its prompt reaches the model', () => {
      expectNormalExit(down);
      expect(down.stdout, world.evidence()).toContain('ANSWER-E2E-CC-OUT-1');
      expectNormalExit(up);
    });

    it('no hook waited out its timeout while the server was down', () => {
      const { finished, stalled } = hookLines(downLog);
      expect(finished.length, 'plugin hooks that finished').toBeGreaterThan(0);
      expect(stalled).toEqual([]);
      expect(down.durationMs, `down ${down.durationMs} ms, up ${up.durationMs} ms`).toBeLessThan(60_000);
    });

    it('after the server is back, both sessions are in OpenViking exactly once', async () => {
      const first = sessionOfPrompt('E2E-CC-OUT-1');
      const second = sessionOfPrompt('E2E-CC-OUT-2');
      expect(first).not.toBe(second);
      const probes = {
        'session 1 prompt': () => countMessages(mainSessionOf(world.ov, first), 'user', 'E2E-CC-OUT-1'),
        'session 1 answer': () => countMessages(mainSessionOf(world.ov, first), 'assistant', 'ANSWER-E2E-CC-OUT-1'),
        'session 2 prompt': () => countMessages(mainSessionOf(world.ov, second), 'user', 'E2E-CC-OUT-2'),
        'session 2 answer': () => countMessages(mainSessionOf(world.ov, second), 'assistant', 'ANSWER-E2E-CC-OUT-2'),
      };
      expect(await settledCounts(probes, 30_000), world.evidence()).toEqual(onceEach(probes));
    });
  });
});
