import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'ov-load-'));
  mkdirSync(join(home, '.openviking'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('loadPluginConfig', () => {
  it('combines credentials, settings and all warnings', () => {
    writeFileSync(
      join(home, '.openviking', 'ovcli.conf'),
      JSON.stringify({
        url: 'http://cli:1933',
        api_key: 'k',
        plugin: { codebuddy: { recallLimit: 3, commitKeepRecentCount: 'many' } },
      }),
    );
    writeFileSync(join(home, '.openviking', 'ov.conf'), '{oops');
    const config = loadPluginConfig({ env: { OPENVIKING_DEBUG: '1' }, homeDir: home });
    expect(config.credentials).toMatchObject({ baseUrl: 'http://cli:1933', apiKey: 'k' });
    expect(config.settings.recallLimit).toBe(3);
    expect(config.settings.debug).toBe(true);
    expect(config.settingSources?.recallLimit).toBe('file:~/.openviking/ovcli.conf#plugin.codebuddy.recallLimit');
    expect(config.settingSources?.debug).toBe('env:OPENVIKING_DEBUG');
    expect(config.warnings).toHaveLength(2);
    expect(config.warnings[0]).toMatch(/^~\/\.openviking\/ov\.conf is not valid JSON/);
    expect(config.warnings[1]).toMatch(/plugin\.codebuddy\.commitKeepRecentCount: expected a number/);
  });

  it('warns when plugin.codebuddy is not an object', () => {
    writeFileSync(join(home, '.openviking', 'ovcli.conf'), JSON.stringify({ plugin: { codebuddy: 'on' } }));
    const config = loadPluginConfig({ env: {}, homeDir: home });
    expect(config.warnings).toEqual(['~/.openviking/ovcli.conf: plugin.codebuddy should be an object; ignoring it']);
  });

  it('never throws: a reader that throws something odd yields a warning, not a crash', () => {
    const config = loadPluginConfig({
      env: {},
      homeDir: home,
      readFile: () => {
        throw new Error('EACCES: permission denied');
      },
    });
    expect(config.credentials.baseUrl).toBe('http://127.0.0.1:1933');
    // ovcli.conf, ov.conf, and (outside a host-started process) the CLI's settings.json and credentials.json.
    expect(config.warnings).toHaveLength(4);
    expect(config.warnings.every((warning) => warning.includes('permission denied'))).toBe(true);
  });

  it('falls back to defaults when resolution itself fails', () => {
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error('env exploded');
        },
      },
    );
    const config = loadPluginConfig({ env, homeDir: home });
    expect(config.credentials.baseUrl).toBe('http://127.0.0.1:1933');
    expect(config.settings.recallLimit).toBe(10);
    expect(config.warnings).toEqual(['configuration could not be loaded (env exploded); using defaults']);
  });

  it('is fast: well under 20 ms per load with two files', () => {
    writeFileSync(join(home, '.openviking', 'ovcli.conf'), JSON.stringify({ url: 'http://cli:1933', api_key: 'k' }));
    writeFileSync(join(home, '.openviking', 'ov.conf'), JSON.stringify({ server: { port: 1933 } }));
    loadPluginConfig({ env: {}, homeDir: home });
    const started = performance.now();
    for (let i = 0; i < 50; i += 1) loadPluginConfig({ env: {}, homeDir: home });
    expect((performance.now() - started) / 50).toBeLessThan(20);
  });
});
