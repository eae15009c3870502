/**
 * The configuration's files, owned once (src/config/configFiles.ts, D37):
 * the files a load reads are the files every watcher looks at, the
 * variables' files included and a file created later counted; a watch
 * loads again when, and only when, one of them changed.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configurationFiles, createConfigWatch, credentialFilePaths } from '../../src/config/configFiles.js';
import { loadPluginConfig } from '../../src/config/load.js';
import type { PluginConfig } from '../../src/config/types.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'ov-config-files-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ovcli = () => join(home, '.openviking', 'ovcli.conf');
function write(path: string, value: unknown, mtimeSeconds?: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
  if (mtimeSeconds !== undefined) utimesSync(path, mtimeSeconds, mtimeSeconds);
}

describe('where the configuration lives', () => {
  it('ovcli.conf and ov.conf under ~/.openviking, or where the variables say (`~` and relative paths from home)', () => {
    expect(credentialFilePaths({}, home)).toEqual({
      cli: join(home, '.openviking', 'ovcli.conf'),
      ov: join(home, '.openviking', 'ov.conf'),
    });
    expect(
      credentialFilePaths({ OPENVIKING_CLI_CONFIG_FILE: '~/cli.json', OPENVIKING_CONFIG_FILE: ' conf/ov.json ' }, home),
    ).toEqual({ cli: join(home, 'cli.json'), ov: join(home, 'conf', 'ov.json') });
  });

  it('every file a load read is one of the configuration files, and so are those not there yet', () => {
    const dir = join(home, '.codebuddy');
    write(join(dir, 'settings.json'), {
      pluginConfigs: { 'openviking@inline': { options: { server_url: 'http://stored:1933' } } },
    });
    write(ovcli(), { api_key: 'k' });
    const config = loadPluginConfig({ env: {}, homeDir: home, readStoredOptions: true });
    expect(config.credentials.files.length).toBeGreaterThan(1);
    const files = configurationFiles({}, home, config.credentials);
    for (const file of config.credentials.files) expect(files).toContain(file);
    expect(files).toContain(join(home, '.openviking', 'ov.conf'));
  });
});

describe('a watch of the configuration', () => {
  const watchOf = (loads: PluginConfig[]) =>
    createConfigWatch({
      load: () => {
        const config = loadPluginConfig({ env: {}, homeDir: home });
        loads.push(config);
        return config;
      },
      env: {},
      homeDir: home,
      warn: () => undefined,
    });

  it('loads again only when a file changed: edited, created or removed', () => {
    const loads: PluginConfig[] = [];
    write(ovcli(), { plugin: { codebuddy: { recallLimit: 3 } } }, 1_000);
    const watch = watchOf(loads);
    expect(watch.refresh()).toBe(false);
    expect(loads).toHaveLength(1);
    write(ovcli(), { plugin: { codebuddy: { recallLimit: 4 } } }, 2_000);
    expect(watch.refresh()).toBe(true);
    expect(watch.current().settings.recallLimit).toBe(4);
    write(join(home, '.openviking', 'ov.conf'), { server: { port: 1944 } });
    expect(watch.refresh()).toBe(true);
    expect(watch.current().credentials.baseUrl).toBe('http://127.0.0.1:1944');
    rmSync(ovcli());
    expect(watch.refresh()).toBe(true);
    expect(watch.current().settings.recallLimit).toBe(10);
    expect(watch.refresh()).toBe(false);
    expect(loads).toHaveLength(4);
  });
});
