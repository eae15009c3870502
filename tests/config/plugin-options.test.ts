/**
 * Plugin options (userConfig) reach every process (DESIGN D21, issue 15
 * item 1): hooks read `CODEBUDDY_PLUGIN_OPTION_*` / `CLAUDE_PLUGIN_OPTION_*`,
 * the MCP proxy `PLUGIN_OPT_*` (the names CodeBuddy 2.117 gives each, DESIGN
 * F18), and a process the host did not start (doctor from a shell) reads
 * them where the CLI stores them: `pluginConfigs` in settings.json,
 * `pluginSecrets` in credentials.json. The proxy and doctor run as real
 * processes / in-process against the OpenViking test server in api_key mode.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { checkOf, parseReport, runDoctorInProcess } from '../doctor/support.js';
import { connectThroughProxy, proxyUnderTest } from '../mcp/support/harness.js';

const USER_KEY = 'k-alice-user';
const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'ov-options-'));
  homes.push(home);
  return home;
}

/** Stores options exactly as CodeBuddy's PluginOptionsStorage does (`saveNonSensitiveOptions` / `saveSensitiveOptions`). */
function storeOptions(configDir: string, installId: string, options: { server_url?: string; api_key?: string }): void {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const { api_key: apiKey, ...plain } = options;
  writeFileSync(
    join(configDir, 'settings.json'),
    JSON.stringify(
      { enabledPlugins: { [installId]: true }, pluginConfigs: { [installId]: { options: plain } } },
      null,
      2,
    ),
  );
  if (apiKey !== undefined)
    writeFileSync(
      join(configDir, 'credentials.json'),
      JSON.stringify({ pluginSecrets: { [installId]: { api_key: apiKey } } }, null, 2),
      { mode: 0o600 },
    );
}

describe('option variables of every host process', () => {
  it('the MCP server spelling PLUGIN_OPT_<KEY> and the Claude spelling CLAUDE_PLUGIN_OPTION_<KEY> are read', () => {
    const proxy = loadPluginConfig({
      env: { PLUGIN_OPT_SERVER_URL: 'http://proxy-opt:1933', PLUGIN_OPT_API_KEY: 'k-opt' },
      homeDir: freshHome(),
    });
    expect(proxy.credentials).toMatchObject({ baseUrl: 'http://proxy-opt:1933', apiKey: 'k-opt' });
    expect(proxy.credentials.sources).toMatchObject({ baseUrl: 'userConfig:server_url', apiKey: 'userConfig:api_key' });
    const claude = loadPluginConfig({
      env: { CLAUDE_PLUGIN_OPTION_SERVER_URL: 'http://claude-opt:1933' },
      homeDir: freshHome(),
    });
    expect(claude.credentials.baseUrl).toBe('http://claude-opt:1933');
  });

  it('an unsubstituted ${PLUGIN_OPT:key} placeholder counts as unset', () => {
    const config = loadPluginConfig({
      env: { PLUGIN_OPT_SERVER_URL: '${PLUGIN_OPT:server_url}', CODEBUDDY_PLUGIN_ROOT: '/p' },
      homeDir: freshHome(),
    });
    expect(config.credentials.sources.baseUrl).toBe('default');
  });
});

describe('options stored by the CLI, read when the environment has none', () => {
  it('outside a host-started process: settings.json pluginConfigs and credentials.json pluginSecrets, with their sources', () => {
    const home = freshHome();
    storeOptions(join(home, '.codebuddy'), 'openviking@openviking-codebuddy', {
      server_url: 'http://stored:1933',
      api_key: 'k-stored',
    });
    const config = loadPluginConfig({ env: {}, homeDir: home });
    expect(config.credentials).toMatchObject({ baseUrl: 'http://stored:1933', apiKey: 'k-stored' });
    expect(config.credentials.sources).toEqual(
      expect.objectContaining({
        baseUrl: 'file:~/.codebuddy/settings.json#pluginConfigs.openviking@openviking-codebuddy.options.server_url',
        apiKey: 'file:~/.codebuddy/credentials.json#pluginSecrets.openviking@openviking-codebuddy.api_key',
      }),
    );
    expect(config.credentials.files).toEqual(
      expect.arrayContaining([join(home, '.codebuddy', 'settings.json'), join(home, '.codebuddy', 'credentials.json')]),
    );
  });

  it('follows CODEBUDDY_CONFIG_DIR and the --plugin-dir install id (openviking@inline)', () => {
    const home = freshHome();
    const configDir = join(home, 'cfg');
    storeOptions(configDir, 'openviking@inline', { server_url: 'http://inline:1933' });
    expect(loadPluginConfig({ env: { CODEBUDDY_CONFIG_DIR: configDir }, homeDir: home }).credentials.baseUrl).toBe(
      'http://inline:1933',
    );
  });

  it('a hook (plugin root set) trusts its environment and reads no CLI file; the proxy does when asked', () => {
    const home = freshHome();
    storeOptions(join(home, '.codebuddy'), 'openviking@inline', { server_url: 'http://stored:1933' });
    const read: string[] = [];
    const readFile = (path: string) => {
      read.push(path);
      return undefined;
    };
    loadPluginConfig({ env: { CODEBUDDY_PLUGIN_ROOT: '/plugin' }, homeDir: home, readFile });
    expect(read.filter((path) => path.includes('.codebuddy'))).toEqual([]);
    expect(
      loadPluginConfig({ env: { CODEBUDDY_PLUGIN_ROOT: '/plugin' }, homeDir: home, readStoredOptions: true })
        .credentials.baseUrl,
    ).toBe('http://stored:1933');
  });

  it('options in the environment win over the stored ones, and OPENVIKING_* over both', () => {
    const home = freshHome();
    storeOptions(join(home, '.codebuddy'), 'openviking@inline', { server_url: 'http://stored:1933' });
    expect(
      loadPluginConfig({ env: { PLUGIN_OPT_SERVER_URL: 'http://env-opt:1933' }, homeDir: home }).credentials.baseUrl,
    ).toBe('http://env-opt:1933');
    expect(
      loadPluginConfig({ env: { OPENVIKING_URL: 'http://explicit:1933' }, homeDir: home }).credentials.baseUrl,
    ).toBe('http://explicit:1933');
  });
});

describe('real processes against a server that requires a user key', () => {
  let server: OvTestServer;
  beforeAll(async () => {
    server = await startOvServer({
      auth: {
        mode: 'api_key',
        rootKey: 'root-secret',
        keys: { [USER_KEY]: { account: 'default', user: 'alice', role: 'user' } },
      },
      seed: {
        user: 'alice',
        files: {
          'memories/entities/alice/kestrel.md': {
            content: 'Kestrel deploys with helm (OPTIONS-MARKER-5).',
            abstract: 'kestrel deploy (OPTIONS-MARKER-5)',
          },
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('the MCP proxy searches with the options CodeBuddy hands it as PLUGIN_OPT_*', async () => {
    const home = freshHome();
    const proxy = await connectThroughProxy(await proxyUnderTest(), {
      HOME: home,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      CODEBUDDY_PLUGIN_ROOT: '/plugin',
      PLUGIN_OPT_SERVER_URL: server.url,
      PLUGIN_OPT_API_KEY: USER_KEY,
    });
    try {
      const result = await proxy.client.callTool({ name: 'search', arguments: { query: 'kestrel deploy helm' } });
      expect(JSON.stringify(result), proxy.stderr()).toContain('OPTIONS-MARKER-5');
      const calls = server.requests({ method: 'POST', path: '/mcp' });
      expect(calls.length).toBeGreaterThan(0);
      expect(
        calls.every(
          (request) =>
            request.headers['x-api-key'] === USER_KEY || request.headers.authorization === `Bearer ${USER_KEY}`,
        ),
      ).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('doctor from a shell (no option variable) uses the options stored by the CLI and reaches the server', async () => {
    const home = freshHome();
    storeOptions(join(home, '.codebuddy'), 'openviking@inline', { server_url: server.url, api_key: USER_KEY });
    const report = parseReport(await runDoctorInProcess({ json: true }, {}, home));
    expect(checkOf(report, 'server').status).toBe('pass');
    expect(JSON.stringify(checkOf(report, 'config'))).toContain('pluginSecrets.openviking@inline.api_key');
  });
});
