/**
 * Scenario 8 — plugin options only, on the real CLI 2.117 (issue 15 items 1
 * and 5, DESIGN D21). The server wants a user key; the plugin's options are
 * stored the way the CLI stores them (`pluginConfigs["openviking@inline"]`
 * in settings.json for server_url, `pluginSecrets` in credentials.json for
 * the sensitive api_key) and no `OPENVIKING_*` variable names a server or
 * key. Then recall reaches the model (hooks get the options as
 * `CODEBUDDY_PLUGIN_OPTION_*`) and an MCP search through the model returns
 * a memory (the proxy gets them as `PLUGIN_OPT_*`); the CLI never logs the
 * deprecated "decision" field. A second session with the server stopped
 * still finishes normally: the start's one-line notice for the user is
 * produced and stays out of the model's request.
 *
 * @module
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, lastUserText } from './support/chat-types.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { hookTimeoutLines } from './support/cli-log.js';
import { startFakeModel, type FakeModel } from './support/fake-model.js';
import { blocksInPrompt } from './support/observe.js';
import { REPO_ROOT } from './support/repo.js';
import { createCliSandbox, type CliSandbox } from './support/sandbox.js';
import { afterToolResult, callTool, firstMatching, onPrompt } from './support/script.js';
import { requirePluginBuild } from './support/world.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';

const USER_KEY = 'k-e2e-options-user';
const MARKER = 'OPTIONS-RECALL-MARKER-OSPREY';
const INSTALL_ID = 'openviking@inline';

let model: FakeModel;
let ov: OvTestServer;
let sandbox: CliSandbox;
let up: CliRun;
let down: CliRun;
let downLog: string;

/** The CLI's environment: no OPENVIKING_* server or key, only the debug log. */
function env(): Record<string, string> {
  return {
    OPENVIKING_DEBUG: '1',
    OPENVIKING_DEBUG_LOG: join(sandbox.root, 'openviking-debug.log'),
    CODEBUDDY_DEFER_TOOL_LOADING: '0',
  };
}

function evidence(): string {
  return [
    `model calls: ${model.calls().length}`,
    `openviking requests:\n${ov
      .requests()
      .map((r) => `${r.method} ${r.path} → ${r.status} key=${String(r.headers['x-api-key'] ?? '')}`)
      .join('\n')}`,
    `cli log (tail):\n${sandbox.cliLogs().slice(-3000)}`,
  ].join('\n\n');
}

beforeAll(async () => {
  requirePluginBuild();
  model = await startFakeModel({
    script: firstMatching([
      onPrompt('E2E-OPT-1', callTool('mcp__openviking__search', { query: 'osprey release checklist' })),
      afterToolResult({ text: 'E2E-OPT-1-ANSWER done' }),
      onPrompt('E2E-OPT-2', { text: 'E2E-OPT-2-ANSWER still here' }),
    ]),
  });
  ov = await startOvServer({
    auth: {
      mode: 'api_key',
      rootKey: 'root-e2e-options',
      keys: { [USER_KEY]: { account: 'default', user: 'default', role: 'user' } },
    },
    seed: {
      files: {
        'memories/entities/default/osprey-release.md': {
          content: `The osprey release checklist lives in docs/osprey/RELEASE.md (${MARKER}).`,
          abstract: `osprey release checklist (${MARKER})`,
        },
      },
    },
  });
  sandbox = createCliSandbox({ modelUrl: model.chatUrl, label: 'options' });
  mkdirSync(sandbox.configDir, { recursive: true });
  writeFileSync(
    join(sandbox.configDir, 'settings.json'),
    JSON.stringify({ pluginConfigs: { [INSTALL_ID]: { options: { server_url: ov.url } } } }, null, 2),
  );
  writeFileSync(
    join(sandbox.configDir, 'credentials.json'),
    JSON.stringify({ pluginSecrets: { [INSTALL_ID]: { api_key: USER_KEY } } }, null, 2),
    { mode: 0o600 },
  );

  up = await runPrompt(sandbox, 'E2E-OPT-1 where is the osprey release checklist?', {
    plugin: { kind: 'plugin-dir', dir: REPO_ROOT },
    env: env(),
  });
  await ov.stop();
  down = await runPrompt(sandbox, 'E2E-OPT-2 the osprey server is away now', {
    plugin: { kind: 'plugin-dir', dir: REPO_ROOT },
    env: env(),
  });
  downLog = sandbox.cliLogs();
}, 240_000);

afterAll(async () => {
  sandbox?.dispose();
  await Promise.all([model?.close(), ov?.close()]);
});

describe('scenario 8: plugin options stored by the CLI, no OPENVIKING_* env', () => {
  it('the CLI finishes normally and answers', () => {
    expectNormalExit(up);
    expect(up.stdout).toContain('E2E-OPT-1-ANSWER');
  });

  it('recall reaches the first model request (hooks read the options)', () => {
    const first = model.calls('conversation')[0];
    expect(blocksInPrompt(first).join('\n'), evidence()).toContain(MARKER);
  });

  it('an MCP search through the model returns the memory (the proxy reads the options)', () => {
    const afterTool = model.calls('conversation').find((call) => toolResults(call).length > 0);
    expect(toolResults(afterTool!)[0]?.text ?? '', evidence()).toContain(MARKER);
    const mcpCalls = ov.requests({ method: 'POST', path: '/mcp' });
    expect(mcpCalls.length, evidence()).toBeGreaterThan(0);
    expect(
      mcpCalls.every(
        (request) =>
          request.headers['x-api-key'] === USER_KEY || request.headers.authorization === `Bearer ${USER_KEY}`,
      ),
    ).toBe(true);
  });

  it('the CLI does not log the deprecated "decision" field for our answers', () => {
    expect(sandbox.cliLogs()).not.toContain('deprecated "decision"');
  });
});

describe('scenario 8b: the server stops; the memory-off notice does not disturb the session', () => {
  it('the session finishes normally, its prompt reaches the model, no hook timed out', () => {
    expectNormalExit(down);
    expect(down.stdout).toContain('E2E-OPT-2-ANSWER');
    expect(hookTimeoutLines(downLog)).toEqual([]);
  });

  it('the start produced its notice once, and the notice is not in the model request', () => {
    const marks = readdirSync(join(sandbox.configDir, 'openviking', 'notices')).filter((name) =>
      name.endsWith('.notified'),
    );
    expect(marks, evidence()).toHaveLength(1);
    const call = model.calls('conversation').find((candidate) => lastUserText(candidate).includes('E2E-OPT-2'));
    expect(call).toBeDefined();
    expect(JSON.stringify(call!.messages)).not.toContain('OpenViking memory is off');
  });
});
