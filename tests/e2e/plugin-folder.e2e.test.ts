/**
 * Scenario 11 — a session started in the plugin's own folder (issue 30 item
 * 1, DESIGN D34). A user who clones the repository and runs `codebuddy
 * --plugin-dir "$PWD"` there makes the repository the session's project, so
 * CodeBuddy reads every MCP file a project may hold at its root
 * (`.mcp.json`, `mcp.json`: project scope, which outranks a plugin's
 * servers, F23). On 4953f41 the repository's own `.mcp.json` was read so: a
 * project server `openviking` that needs approval and cannot start
 * (`${CLAUDE_PLUGIN_ROOT}` is not filled in for a project), in place of the
 * plugin's; the model got none of the tools the injected blocks name.
 *
 * Here the working folder is a copy of every tracked file of this checkout
 * (what a clone holds, built bundles included) and the plugin is that same
 * folder: the model's tool list holds `mcp__openviking__*`, and a scripted
 * `mcp__openviking__read` reaches the server.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults } from './support/chat-types.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { SEED } from './support/openviking.js';
import { copyTrackedFiles } from './support/repo.js';
import { afterToolResult, callTool, firstMatching, onPrompt } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const EXPECTED_TOOLS = ['search', 'read', 'remember'].map((tool) => `mcp__openviking__${tool}`);

let world: E2eWorld;
let run: CliRun;

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld(
    'plugin-folder',
    firstMatching([
      onPrompt('E2E-FOLDER', callTool('mcp__openviking__read', { uris: SEED.profileUri })),
      afterToolResult({ text: 'E2E-FOLDER-ANSWER read it' }),
    ]),
  );
  const pluginFolder = world.sandbox.workspace;
  copyTrackedFiles(pluginFolder);
  run = await runPrompt(world.sandbox, 'E2E-FOLDER read my profile through the memory tools', {
    plugin: { kind: 'plugin-dir', dir: pluginFolder },
    env: { ...world.pluginEnv, CODEBUDDY_DEFER_TOOL_LOADING: '0' },
  });
}, 120_000);

afterAll(async () => {
  await world?.dispose();
});

describe("scenario 11: a session in the plugin's own folder", () => {
  it('the CLI finishes normally', () => {
    expectNormalExit(run);
  });

  it("the model is offered the plugin's OpenViking tools", () => {
    const tools = world.model.calls('conversation')[0]?.toolNames ?? [];
    expect(tools, `${world.evidence()}\n\ncli log:\n${world.sandbox.cliLogs().slice(-4000)}`).toEqual(
      expect.arrayContaining(EXPECTED_TOOLS),
    );
  });

  it('a scripted mcp__openviking__read reaches the server and its result reaches the model', () => {
    const afterTool = world.model.calls('conversation')[1];
    const result = (afterTool ? toolResults(afterTool)[0]?.text : undefined) ?? '';
    expect(result, world.evidence()).toContain(SEED.profileMarker);
  });
});
