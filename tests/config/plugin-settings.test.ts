/**
 * The settings a guard deny reads alone (src/config/pluginSettings.ts: the
 * variables and one ovcli.conf, no credentials, D38) are the settings of the
 * whole configuration, wherever they come from: the environment, ovcli.conf
 * where the variables put it, ov.conf taken as ovcli.conf by the
 * back-compat rule, a `plugin.codebuddy` that is not an object (its warning
 * too), and nothing at all.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';
import { loadPluginSettings } from '../../src/config/pluginSettings.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'ov-plugin-settings-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const path = join(home, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
  return path;
}

const OFF = { plugin: { codebuddy: { mcpEnabled: false, mcpServer: 'corp-ov', debug: true } } };

const CASES: Array<{ name: string; files: Record<string, unknown>; env: Record<string, string> }> = [
  { name: 'nothing configured', files: {}, env: {} },
  { name: 'the environment', files: {}, env: { OPENVIKING_MCP_ENABLED: 'off', OPENVIKING_MCP_SERVER: ' mine ' } },
  { name: 'ovcli.conf under ~/.openviking', files: { '.openviking/ovcli.conf': OFF }, env: {} },
  {
    name: 'the environment over ovcli.conf',
    files: { '.openviking/ovcli.conf': OFF },
    env: { OPENVIKING_MCP_SERVER: 'env-server' },
  },
  {
    name: 'ovcli.conf where OPENVIKING_CLI_CONFIG_FILE says',
    files: { 'elsewhere/cli.json': OFF, '.openviking/ovcli.conf': { plugin: { codebuddy: { mcpServer: 'unread' } } } },
    env: { OPENVIKING_CLI_CONFIG_FILE: '~/elsewhere/cli.json' },
  },
  {
    name: 'OPENVIKING_CONFIG_FILE alone naming an ovcli.conf (back-compat)',
    files: { 'conf/client.json': { url: 'http://127.0.0.1:1', ...OFF } },
    env: { OPENVIKING_CONFIG_FILE: '~/conf/client.json' },
  },
  {
    name: 'OPENVIKING_CONFIG_FILE naming a server ov.conf',
    files: { 'conf/ov.json': { server: { port: 1 }, ...OFF }, '.openviking/ovcli.conf': OFF },
    env: { OPENVIKING_CONFIG_FILE: '~/conf/ov.json' },
  },
  {
    name: 'plugin.codebuddy not an object',
    files: { '.openviking/ovcli.conf': { plugin: { codebuddy: 'off' } } },
    env: {},
  },
  { name: 'an ovcli.conf that is not JSON', files: { '.openviking/ovcli.conf': undefined }, env: {} },
];

describe('the settings alone', () => {
  it.each(CASES)('are the whole configuration’s: $name', ({ files, env }) => {
    for (const [name, value] of Object.entries(files)) {
      if (value === undefined) writeFileSync(write(name, {}), '{ not json');
      else write(name, value);
    }
    const whole = loadPluginConfig({ env, homeDir: home });
    const alone = loadPluginSettings({ env, homeDir: home });
    expect(alone.settings).toEqual(whole.settings);
    expect(alone.sources).toEqual(whole.settingSources);
    for (const warning of alone.warnings) expect(whole.warnings).toContain(warning);
  });

  it('name the user’s own server from ovcli.conf (what a deny reads)', () => {
    write('.openviking/ovcli.conf', OFF);
    const { settings } = loadPluginSettings({ env: {}, homeDir: home });
    expect(settings).toMatchObject({ mcpEnabled: false, mcpServer: 'corp-ov', debug: true });
  });
});
