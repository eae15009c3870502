/**
 * README sentences about doctor and the data directory, each checked
 * against what the code does (issue 24 item 8). Each quotes the sentence;
 * on 8e37669 the README listed neither the resident nor the commit-policy
 * check, named four files for hand-registered hooks (not CLAUDE_CONFIG_DIR
 * nor `<config dir>/.mcp.json`), promised `****abcd` for every key, and its
 * data-directory layout had no `resident/` or `notices/`.
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';
import { maskSecret } from '../../src/doctor/mask.js';
import { until } from '../capture/support/world.js';
import { pluginProcesses, stopResidents } from '../support/detached.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { checkOf, freshHome, parseReport, runDoctorInProcess } from './support.js';

const README_TEXT = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
/** The README section under the heading `title` (any level), up to the next heading of its level or above, on one line. */
function section(title: string): string {
  const lines = README_TEXT.split('\n');
  const start = lines.findIndex((line) => /^#{2,} /.test(line) && line.replace(/^#+ /, '') === title);
  if (start === -1) throw new Error(`the README has no section "${title}"`);
  const level = (lines[start] ?? '').indexOf(' ');
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines
    .slice(start, end === -1 ? undefined : end)
    .join(' ')
    .replace(/\s+/g, ' ');
}

let server: OvTestServer;
beforeAll(async () => void (server = await startOvServer()));
afterAll(() => server.close());

describe('Doctor', () => {
  // README: "reports, each with PASS / WARN / FAIL / INFO and the fix, in this order: the configuration (…); the project …; … the resident helper …; `hooks/hooks.json`; and OpenViking hooks or an `openviking` MCP server registered by hand"
  it('lists its checks in the order the README gives, the resident and the commit policy included', async () => {
    const report = parseReport(await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url }, freshHome()));
    expect(report.checks.map((check) => check.id)).toEqual([
      'config',
      'project',
      'server',
      'identity',
      'mcp',
      'data-dir',
      'queue',
      'activity',
      'commit-policy',
      'resident',
      'hooks',
      'duplicates',
    ]);
    const doctor = section('Doctor');
    const order = [
      'the configuration',
      'the project of the current directory',
      '`/health`',
      'the identity',
      'the MCP endpoint',
      'the data directory',
      'pending and dead writes',
      'the last recall and capture',
      'commit policy',
      'the resident helper',
      '`hooks/hooks.json`',
      'registered by hand',
    ];
    const at = order.map((phrase) => doctor.indexOf(phrase));
    expect(
      at.every((index) => index >= 0),
      JSON.stringify(order.filter((_, i) => at[i] === -1)),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  // README: "hooks in `<CODEBUDDY_CONFIG_DIR or ~/.codebuddy>/settings.json` and `<CLAUDE_CONFIG_DIR or ~/.claude>/settings.json`, MCP servers in `~/.codebuddy.json`, `<CODEBUDDY_CONFIG_DIR or ~/.codebuddy>/.mcp.json` and `~/.claude.json`"
  it('finds hand-registered hooks and MCP servers in exactly the files the README names', async () => {
    const home = freshHome();
    const claudeDir = join(home, 'claude-elsewhere');
    mkdirSync(claudeDir);
    mkdirSync(join(home, '.codebuddy'));
    const hook = {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node /opt/openviking/scripts/hook.mjs' }] }] },
    };
    const mcp = { mcpServers: { openviking: { command: 'node', args: ['x'] } } };
    writeFileSync(join(claudeDir, 'settings.json'), JSON.stringify(hook));
    writeFileSync(join(home, '.codebuddy', 'settings.json'), JSON.stringify(hook));
    for (const file of ['.codebuddy.json', '.claude.json', join('.codebuddy', '.mcp.json')])
      writeFileSync(join(home, file), JSON.stringify(mcp));
    const report = parseReport(
      await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url, CLAUDE_CONFIG_DIR: claudeDir }, home),
    );
    const lines = checkOf(report, 'duplicates').lines.join('\n');
    for (const file of [
      join(claudeDir, 'settings.json'),
      join(home, '.codebuddy', 'settings.json'),
      join(home, '.codebuddy.json'),
      join(home, '.claude.json'),
      join(home, '.codebuddy', '.mcp.json'),
    ])
      expect(lines).toContain(`${file}:`);
    for (const named of [
      '`<CODEBUDDY_CONFIG_DIR or ~/.codebuddy>/settings.json`',
      '`<CLAUDE_CONFIG_DIR or ~/.claude>/settings.json`',
      '`~/.codebuddy.json`',
      '`<CODEBUDDY_CONFIG_DIR or ~/.codebuddy>/.mcp.json`',
      '`~/.claude.json`',
    ]) {
      expect(section('Doctor')).toContain(named);
    }
  });

  // README: "the configuration (the files read, where every value came from, every value also set elsewhere and why it was not used, …
  // an unknown `plugin.codebuddy` field with the nearest knob's name, a key kept from another server" (on 8e37669 a misspelt field left
  // doctor at "settings: all defaults", PASS, and nothing said which other values were found).
  it("shows which values were also set and why they were not used, and names an unknown field's nearest knob", async () => {
    const home = freshHome();
    mkdirSync(join(home, '.openviking'));
    writeFileSync(
      join(home, '.openviking', 'ovcli.conf'),
      JSON.stringify({
        url: 'https://elsewhere.example',
        api_key: 'k-cli-0123456789',
        plugin: { codebuddy: { recalLimit: 8 } },
      }),
    );
    writeFileSync(
      join(home, '.openviking', 'ov.conf'),
      JSON.stringify({ codebuddy: { apiKey: 'k-local-0123456789' } }),
    );
    const report = parseReport(
      await runDoctorInProcess(
        { json: true },
        { OPENVIKING_URL: server.url, OPENVIKING_API_KEY: 'k-env-0123456789' },
        home,
      ),
    );
    const config = checkOf(report, 'config');
    const text = config.lines.join('\n');
    expect(config.status).toBe('warn');
    expect(text).toContain('server URL: ' + server.url + '  (env:OPENVIKING_URL)');
    expect(text).toContain(
      'also set: server URL in file:~/.openviking/ovcli.conf#url, not used: env:OPENVIKING_URL comes first',
    );
    expect(text).toContain(
      'also set: API key in file:~/.openviking/ovcli.conf#api_key, not used: env:OPENVIKING_API_KEY comes first',
    );
    expect(text).toContain('plugin.codebuddy.recalLimit is not a setting; did you mean recallLimit?');
    expect(text).not.toMatch(/k-(cli|local|env)-0123456789/);
  });

  // README: "keys are masked as `****` plus their last four characters, or as `****` alone when shorter than 12 characters"
  it('masks keys as the README says', () => {
    expect(maskSecret('uk-alice-7f3c9d2e41ab')).toBe('****41ab');
    expect(maskSecret('short-key')).toBe('****');
    expect(section('Doctor')).toContain(
      'keys are masked as `****` plus their last four characters, or as `****` alone when shorter than 12 characters',
    );
  });
});

describe('Plugin options', () => {
  // Issue 30 item 5: on 4953f41 the README said the options were "under `pluginConfigs` in `settings.json`", leaving
  // out the `.options` level the CLI reads (F18; tests/e2e/plugin-options writes them so on the real 2.117): an
  // option edited by hand from it did nothing.
  it("the README's example, written where it says, is the option the plugin reads", () => {
    const text = section('Plugin options');
    expect(text).toContain('`pluginConfigs["openviking@<marketplace>"].options`');
    const raw = README_TEXT.slice(README_TEXT.indexOf('### Plugin options'));
    const example = /```json\n([\s\S]*?)```/.exec(raw)?.[1] ?? '';
    const home = freshHome();
    mkdirSync(join(home, '.codebuddy'));
    writeFileSync(join(home, '.codebuddy', 'settings.json'), example);
    const config = loadPluginConfig({ env: { HOME: home }, homeDir: home, readStoredOptions: true });
    expect(config.credentials.baseUrl).toBe('https://openviking.example.com');
    expect(config.credentials.sources.baseUrl).toBe(
      'file:~/.codebuddy/settings.json#pluginConfigs.openviking@openviking-codebuddy.options.server_url',
    );
  });
});

describe('Layout', () => {
  // README: "`capture/` (…), `sessions/` (…), `queue/` (…), `status/` (…), `cache/` (…), `locks/`, `resident/` (…) and `notices/` (…)"
  it("every directory a session leaves in the data directory is in the README's layout", async () => {
    const home = freshHome();
    const workspace = join(home, 'ws');
    mkdirSync(workspace);
    const sim = createHostSim({
      pluginRoot: REPO_ROOT,
      home,
      workspace,
      resident: true,
      env: { OPENVIKING_URL: server.url, OPENVIKING_TIMEOUT_MS: '3000' },
    });
    const p = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
    try {
      await server.stop();
      await sim.fire('SessionStart', p.sessionStart('startup')); // the memory-off notice: notices/
      await server.start();
      await sim.fire(
        'SessionStart',
        createPayloads({ workspace, configDir: join(home, '.codebuddy') }).sessionStart('startup'),
      );
      await sim.fire('UserPromptSubmit', p.userPromptSubmit('which editor do I prefer'));
      await sim.fire('Stop', p.stop('ok'));
      await until(
        () => pluginProcesses(home).every((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('resident')),
        20_000,
        'the Stop capture',
      );
    } finally {
      await stopResidents(home);
    }
    const dirs = readdirSync(join(home, '.codebuddy', 'openviking'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(dirs).toEqual(expect.arrayContaining(['resident', 'notices', 'status', 'sessions']));
    const layout = section('The data directory');
    for (const dir of dirs) expect(layout, dir).toContain(`\`${dir}/\``);
  });
});
