/**
 * Scenario 1 — `--plugin-dir` + `-p`, the plugin's main loop through the real
 * CLI: the profile and a recalled memory reach the first model request inside
 * our `<openviking-context>` blocks; a scripted `Read` of a `viking://` URI
 * comes back to the model as a tool error that names `mcp__openviking__read`;
 * and the turn lands in OpenViking exactly once.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults } from './support/chat-types.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { countMessages, mainSessionOf, SEED } from './support/openviking.js';
import { blocksInPrompt, hostSessionIdOf } from './support/observe.js';
import { afterToolResult, callTool, firstMatching, onPrompt } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const PROMPT = `${SEED.recallPrompt} (E2E-ONE)`;
const ANSWER = 'E2E-ONE-ANSWER use helm upgrade';

let world: E2eWorld;
let run: CliRun;

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld(
    'recall',
    firstMatching([
      onPrompt('E2E-ONE', callTool('Read', { file_path: SEED.profileUri })),
      afterToolResult({ text: ANSWER }),
    ]),
  );
  run = await runPrompt(world.sandbox, PROMPT, { plugin: world.repoPlugin, env: world.pluginEnv });
});

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 1: --plugin-dir, -p', () => {
  it('the CLI finishes normally and answers', () => {
    expectNormalExit(run);
    expect(run.stdout).toContain(ANSWER);
  });

  it('the profile and the recalled memory reach the first model request', () => {
    const first = world.model.calls('conversation')[0];
    const blocks = blocksInPrompt(first).join('\n');
    expect(blocks, world.evidence()).toContain(SEED.profileMarker);
    expect(blocks, world.evidence()).toContain(SEED.recallMarker);
  });

  it('a Read of a viking:// URI comes back as a tool error naming mcp__openviking__read', () => {
    const afterTool = world.model.calls('conversation')[1];
    expect(afterTool, world.evidence()).toBeDefined();
    const result = toolResults(afterTool!)[0]?.text ?? '';
    expect(result).toMatch(/^Error:/);
    expect(result).toContain('mcp__openviking__read');
    expect(result).not.toContain(SEED.profileMarker);
  });

  it('the turn lands in OpenViking exactly once', async () => {
    const sessionId = hostSessionIdOf(world.model.calls('conversation')[0]);
    expect(sessionId).not.toBe('');
    const probes = {
      prompt: () => countMessages(mainSessionOf(world.ov, sessionId), 'user', 'E2E-ONE'),
      answer: () => countMessages(mainSessionOf(world.ov, sessionId), 'assistant', ANSWER),
    };
    expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
  });
});
