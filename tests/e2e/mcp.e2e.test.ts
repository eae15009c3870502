/**
 * Scenario 5 — the MCP proxy inside the real CLI. With
 * `CODEBUDDY_DEFER_TOOL_LOADING=0` the model's tool list holds OpenViking's
 * tools as `mcp__openviking__*`; a scripted `mcp__openviking__read` travels
 * CLI → stdio proxy → the test server's `/mcp`, and its result comes back to
 * the model.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults } from './support/chat-types.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { SEED } from './support/openviking.js';
import { afterToolResult, callTool, firstMatching, onPrompt } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

/** Tools of the server's MCP surface (openviking-api.md §4.1) the model must be offered. */
const EXPECTED_TOOLS = ['find', 'search', 'read', 'list', 'remember', 'grep', 'glob'].map(
  (tool) => `mcp__openviking__${tool}`,
);

let world: E2eWorld;
let run: CliRun;

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld(
    'mcp',
    firstMatching([
      onPrompt('E2E-MCP', callTool('mcp__openviking__read', { uris: SEED.profileUri })),
      afterToolResult({ text: 'E2E-MCP-ANSWER read it' }),
    ]),
  );
  run = await runPrompt(world.sandbox, 'E2E-MCP read my profile through the memory tools', {
    plugin: world.repoPlugin,
    env: { ...world.pluginEnv, CODEBUDDY_DEFER_TOOL_LOADING: '0' },
  });
});

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 5: MCP tools through the proxy', () => {
  it('the CLI finishes normally', () => {
    expectNormalExit(run);
  });

  it('the model is offered the OpenViking tools as mcp__openviking__*', () => {
    const tools = world.model.calls('conversation')[0]?.toolNames ?? [];
    expect(tools, world.evidence()).toEqual(expect.arrayContaining(EXPECTED_TOOLS));
  });

  it('a scripted mcp__openviking__read reaches the server and its result reaches the model', () => {
    const toolCalls = world.ov
      .requests({ method: 'POST', path: '/mcp' })
      .filter((request) => (request.body as { method?: string } | undefined)?.method === 'tools/call');
    expect(
      toolCalls.map((request) => (request.body as { params?: { name?: string } }).params?.name),
      world.evidence(),
    ).toEqual(['read']);
    const afterTool = world.model.calls('conversation')[1];
    const result = (afterTool ? toolResults(afterTool)[0]?.text : undefined) ?? '';
    expect(result, world.evidence()).toContain(SEED.profileMarker);
  });
});
