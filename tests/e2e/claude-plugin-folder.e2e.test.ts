/**
 * Claude Code scenario C10 — a session started in the plugin's own folder
 * (issue 30 item 1, DESIGN D34), each pinned version: the working folder is
 * a copy of every tracked file of this checkout and the plugin is loaded
 * from it. Claude Code reads `<folder>/.mcp.json` as a project file; on
 * 4953f41 the repository's own one was read so, a second `openviking`
 * server that waits for approval and names a variable a project server
 * never gets (FC26: started, it fails with `Cannot find module
 * '<folder>/${CLAUDE_PLUGIN_ROOT}/…'`). Here the folder holds no project MCP file, the plugin's
 * server (declared by the manifest, FC25) answers a ToolSearch and a read.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClaude } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import { createClaudeWorld, forEachClaudeVersion, type ClaudeWorld } from './support/claude-world.js';
import { expectNormalExit } from './support/expect-run.js';
import { SEED } from './support/openviking.js';
import { copyTrackedFiles } from './support/repo.js';
import { afterToolResultOf, callTool, firstMatching, onPrompt } from './support/script.js';

const MCP_READ = 'mcp__plugin_openviking_openviking__read';
const ANSWER = 'E2E-CC-FOLDER-ANSWER read it';

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let run: CliRun;

  beforeAll(async () => {
    world = await createClaudeWorld(
      version,
      'plugin-folder',
      firstMatching([
        onPrompt('E2E-CC-FOLDER', callTool('ToolSearch', { query: `select:${MCP_READ}`, max_results: 5 })),
        afterToolResultOf('ToolSearch', callTool(MCP_READ, { uris: SEED.profileUri })),
        afterToolResultOf(MCP_READ, { text: ANSWER }),
      ]),
    );
    copyTrackedFiles(world.sandbox.workspace);
    run = await runClaude(world.sandbox, 'E2E-CC-FOLDER read my profile through the memory tools', {
      pluginDirs: [world.sandbox.workspace],
      env: world.pluginEnv,
      allowedTools: ['ToolSearch', MCP_READ],
    });
  });

  afterAll(async () => {
    await world?.dispose();
  });

  describe("Claude Code scenario C10: a session in the plugin's own folder", () => {
    it('the CLI finishes normally and answers', () => {
      expectNormalExit(run);
      expect(run.stdout, world.evidence()).toContain(ANSWER);
    });

    it("the plugin's server answers the read", () => {
      const results = world.model
        .calls('conversation')
        .flatMap((call) => call.messages)
        .filter((message) => message.role === 'tool')
        .map((message) => String(message.content ?? ''));
      expect(results.join('\n'), world.evidence()).toContain(SEED.profileMarker);
    });

    it('no project-scope openviking server is started from the folder', () => {
      // On 4953f41: `MCP server "openviking": Starting connection …`, then `Cannot find module
      // '<folder>/${CLAUDE_PLUGIN_ROOT}/servers/mcp-proxy.mjs'` (FC26), beside `plugin:openviking:openviking`.
      const log = world.sandbox.debugLogs();
      const projectServer = log.split('\n').filter((line) => /MCP server \\?"openviking\\?"/.test(line));
      expect(projectServer, log.slice(-4000)).toEqual([]);
    });
  });
});
