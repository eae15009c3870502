/**
 * A fish user on the real CLI (issue 15 §3, DESIGN D23): CodeBuddy runs
 * every hook command with the user's `$SHELL -c` when that file exists, fish
 * included, after rewriting `${CLAUDE_PLUGIN_ROOT}` in the text. With
 * `SHELL=/usr/bin/fish` every hook must still fire: the CLI log shows fish
 * spawning them, the profile and the recalled memory reach the model, a
 * `Read` of a `viking://` URI is denied by the guard (prefilter and node
 * under fish), and the turn is captured exactly once (Stop's detacher).
 * The earlier `${CODEBUDDY_PLUGIN_ROOT:-…}` form was a fish syntax error:
 * every hook failed and none of this happened.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults } from './support/chat-types.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { countMessages, mainSessionOf, SEED } from './support/openviking.js';
import { blocksInPrompt, hostSessionIdOf } from './support/observe.js';
import { afterToolResult, callTool, firstMatching, onPrompt } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const FISH = '/usr/bin/fish';
const PROMPT = `${SEED.recallPrompt} (E2E-FISH)`;
const ANSWER = 'E2E-FISH-ANSWER swims';

let world: E2eWorld;
let run: CliRun;

beforeAll(async () => {
  if (!existsSync(FISH)) throw new Error(`${FISH} is missing: apt-get install -y fish (.ci/run installs it)`);
  requirePluginBuild();
  world = await createWorld(
    'fish',
    firstMatching([
      onPrompt('E2E-FISH', callTool('Read', { file_path: SEED.profileUri })),
      afterToolResult({ text: ANSWER }),
    ]),
  );
  run = await runPrompt(world.sandbox, PROMPT, { plugin: world.repoPlugin, env: { ...world.pluginEnv, SHELL: FISH } });
});

afterAll(async () => {
  await world?.dispose();
});

describe('SHELL=/usr/bin/fish on the real CLI', () => {
  it('the CLI finishes normally and answers', () => {
    expectNormalExit(run);
    expect(run.stdout).toContain(ANSWER);
  });

  it('the CLI ran the plugin hooks with fish', () => {
    const spawns = world.sandbox.cliLogs().match(/\[HookExecutor\] spawn [^\n]*/g) ?? [];
    const ours = spawns.filter((line) => /scripts\/hook\.cjs|hooks\/(guard-prefilter|detach)\.sh/.test(line));
    expect(ours.length, world.evidence()).toBeGreaterThanOrEqual(3);
    for (const line of ours) expect(line).toContain(`shell=${FISH}`);
  });

  it('the profile and the recalled memory reach the first model request', () => {
    const blocks = blocksInPrompt(world.model.calls('conversation')[0]).join('\n');
    expect(blocks, world.evidence()).toContain(SEED.profileMarker);
    expect(blocks, world.evidence()).toContain(SEED.recallMarker);
  });

  it('a Read of a viking:// URI is denied with a reason naming mcp__openviking__read', () => {
    const result = toolResults(world.model.calls('conversation')[1]!)[0]?.text ?? '';
    expect(result, world.evidence()).toMatch(/^Error:/);
    expect(result).toContain('mcp__openviking__read');
    expect(result).not.toContain(SEED.profileMarker);
  });

  it('the turn is captured exactly once', async () => {
    const sessionId = hostSessionIdOf(world.model.calls('conversation')[0]);
    expect(sessionId).not.toBe('');
    const probes = {
      prompt: () => countMessages(mainSessionOf(world.ov, sessionId), 'user', 'E2E-FISH'),
      answer: () => countMessages(mainSessionOf(world.ov, sessionId), 'assistant', ANSWER),
    };
    expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
  });
});
