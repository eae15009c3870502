/**
 * Doctor warns about the plugin's options it would ignore (issue 30 item
 * 5): an option the manifest does not declare, in the host's variables or
 * where CodeBuddy stores them, named with the nearest declared one; a
 * switch option whose value is no switch word. On 4953f41 `server_uri`,
 * `module: "maybe"` and `CODEBUDDY_PLUGIN_OPTION_SERVER_URI` were silent and
 * doctor said "All checks passed". The manifest's `userConfig` is the
 * source of truth, so an option a manifest stops declaring becomes unknown.
 *
 * @module
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { checkOf, freshHome, parseReport, runDoctorInProcess } from './support.js';

let server: OvTestServer;
beforeAll(async () => void (server = await startOvServer()));
afterAll(() => server.close());

function homeWithStored(options: Record<string, unknown>, secrets: Record<string, unknown> = {}): string {
  const home = freshHome();
  mkdirSync(join(home, '.codebuddy'));
  writeFileSync(
    join(home, '.codebuddy', 'settings.json'),
    JSON.stringify({ pluginConfigs: { 'openviking@inline': { options } } }),
  );
  writeFileSync(
    join(home, '.codebuddy', 'credentials.json'),
    JSON.stringify({ pluginSecrets: { 'openviking@inline': secrets } }),
  );
  return home;
}

/** A copy of the plugin whose CodeBuddy manifest also declares the option `name` (a switch knob's field name). */
function rootDeclaring(name: string): string {
  const root = mkdtempSync(join(tmpdir(), 'ov-options-root-'));
  for (const entry of ['.codebuddy-plugin', '.claude-plugin', 'hooks', 'scripts', 'servers'])
    cpSync(join(REPO_ROOT, entry), join(root, entry), { recursive: true });
  const manifestPath = join(root, '.codebuddy-plugin', 'plugin.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { userConfig: Record<string, unknown> };
  manifest.userConfig[name] = { description: `the ${name} switch`, sensitive: false };
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return root;
}

async function configLines(env: Record<string, string>, home: string, pluginRoot = REPO_ROOT) {
  const run = await runDoctorInProcess({ json: false }, { OPENVIKING_URL: server.url, ...env }, home, pluginRoot);
  const config = checkOf(
    parseReport(await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url, ...env }, home, pluginRoot)),
    'config',
  );
  return { text: run.stdout, config };
}

describe('plugin options doctor warns about', () => {
  it('a variable the host would pass for an option the plugin does not have', async () => {
    const { text, config } = await configLines(
      { CODEBUDDY_PLUGIN_OPTION_SERVER_URI: 'https://x.example' },
      freshHome(),
    );
    expect(config.status).toBe('warn');
    expect(config.lines.join('\n')).toMatch(
      /warning: CODEBUDDY_PLUGIN_OPTION_SERVER_URI \(environment\) is not an option of this plugin; did you mean CODEBUDDY_PLUGIN_OPTION_SERVER_URL\? \(its options: server_url, api_key, account, user[^)]*\); it is ignored/,
    );
    expect(text).not.toContain('All checks passed');
  });

  it('a stored option the manifest does not declare, at its place in settings.json (with the .options level)', async () => {
    const { config } = await configLines({}, homeWithStored({ server_uri: 'https://x.example' }, { apikey: 'k' }));
    const lines = config.lines.join('\n');
    expect(lines).toContain(
      'warning: "server_uri" in ~/.codebuddy/settings.json pluginConfigs["openviking@inline"].options is not an option of this plugin; did you mean server_url?',
    );
    expect(lines).toContain(
      'warning: "apikey" in ~/.codebuddy/credentials.json pluginSecrets["openviking@inline"] is not an option of this plugin; did you mean api_key?',
    );
  });

  it('a switch option whose value is no switch word', async () => {
    const { config } = await configLines({}, homeWithStored({ debug: 'maybe' }), rootDeclaring('debug'));
    expect(config.lines).toContain(
      'warning: "debug" in ~/.codebuddy/settings.json pluginConfigs["openviking@inline"].options is "maybe", not a switch value (on, off, true, false, yes, no, 1, 0); it reads as on',
    );
  });

  it('an option the manifest no longer declares (its userConfig is the source of truth: `module` left it, issue 28)', async () => {
    const { config } = await configLines({}, homeWithStored({ module: 'off' }));
    expect(config.lines.join('\n')).toContain(
      'warning: "module" in ~/.codebuddy/settings.json pluginConfigs["openviking@inline"].options is not an option of this plugin',
    );
  });

  it('nothing about declared options with switch words', async () => {
    const { config } = await configLines(
      { CODEBUDDY_PLUGIN_OPTION_DEBUG: 'off' },
      homeWithStored({ user: 'alice' }),
      rootDeclaring('debug'),
    );
    expect(config.lines.join('\n')).not.toMatch(/not an option|not a switch value/);
  });
});
