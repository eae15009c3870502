/**
 * Configuration files and variables are user-writable, sometimes shared or
 * generated; a hostile or broken one must be rejected cleanly: no throw, no
 * prototype pollution, every setting inside its knob's bounds, and a
 * warning naming the problem (never the secret). tests/config covers the
 * ordinary precedence and malformed-file cases.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KNOB_TABLE } from '../../src/config/knobs/index.js';
import { loadPluginConfig } from '../../src/config/load.js';
import type { PluginConfig } from '../../src/config/types.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function homeWith(files: Record<string, string | Buffer>): string {
  const home = mkdtempSync(join(tmpdir(), 'ov-sec-cfg-'));
  homes.push(home);
  mkdirSync(join(home, '.openviking'), { mode: 0o700 });
  for (const [name, text] of Object.entries(files))
    writeFileSync(join(home, '.openviking', name), text, { mode: 0o600 });
  return home;
}

function load(home: string, env: Record<string, string> = {}): PluginConfig {
  const config = loadPluginConfig({ env, homeDir: home });
  // Loading can never have polluted the prototypes.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).enabled).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>).apiKey).toBeUndefined();
  return config;
}

function expectSettingsInBounds(config: PluginConfig): void {
  for (const [name, knob] of Object.entries(KNOB_TABLE) as Array<
    [string, { type: string; min?: number; max?: number }]
  >) {
    const value = (config.settings as unknown as Record<string, unknown>)[name];
    if (knob.type === 'int' || knob.type === 'float') {
      expect(typeof value, name).toBe('number');
      expect(Number.isFinite(value), name).toBe(true);
      if (knob.min !== undefined) expect(value as number, name).toBeGreaterThanOrEqual(knob.min);
      if (knob.max !== undefined) expect(value as number, name).toBeLessThanOrEqual(knob.max);
    }
    if (knob.type === 'bool') expect(typeof value, name).toBe('boolean');
  }
  expect(typeof config.credentials.baseUrl).toBe('string');
}

const POLLUTING = JSON.stringify({
  url: 'http://127.0.0.1:1933',
  __proto__: { polluted: true, enabled: false },
  constructor: { prototype: { polluted: true } },
  plugin: { codebuddy: { __proto__: { enabled: false, polluted: true }, constructor: { prototype: { apiKey: 'x' } } } },
}).replace('"url"', '"__proto__":{"polluted":true},"url"');

const HOSTILE_FILES: Array<[string, string | Buffer]> = [
  ['prototype-pollution keys', POLLUTING],
  ['huge file (3 MB)', JSON.stringify({ url: 'http://127.0.0.1:1', api_key: 'k'.repeat(3 * 1024 * 1024) })],
  [
    'wrong types everywhere',
    JSON.stringify({
      url: 42,
      api_key: { nested: true },
      account: ['a'],
      user: null,
      plugin: {
        codebuddy: {
          recallLimit: '1e999',
          autoRecall: 'yes please',
          promptDeadlineMs: -5,
          timeoutMs: 1e308,
          bypassPatterns: 7,
          debugLogPath: { a: 1 },
        },
      },
    }),
  ],
  ['plugin.codebuddy is an array', JSON.stringify({ plugin: { codebuddy: [1, 2, 3] } })],
  ['deep nesting', `{"plugin":{"codebuddy":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}}`],
  ['not JSON', 'url = http://evil\n[[[['],
  ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0x80])],
  ['NaN and Infinity spelled out', '{"plugin":{"codebuddy":{"recallLimit":NaN,"scoreThreshold":Infinity}}}'],
  [
    'out-of-range numbers',
    JSON.stringify({
      plugin: {
        codebuddy: {
          recallLimit: 1e9,
          scoreThreshold: -3,
          promptDeadlineMs: 1e12,
          commitKeepRecentCount: -1,
          pendingTtlDays: 0,
        },
      },
    }),
  ],
  ['a URL that is not http', JSON.stringify({ url: 'file:///etc/passwd', api_key: 'k' })],
];

describe('hostile configuration is rejected cleanly', () => {
  for (const [label, text] of HOSTILE_FILES) {
    it(`ovcli.conf: ${label}`, () => {
      const config = load(homeWith({ 'ovcli.conf': text }));
      expectSettingsInBounds(config);
    });
    it(`ov.conf: ${label}`, () => {
      expectSettingsInBounds(load(homeWith({ 'ov.conf': text })));
    });
  }

  it('hostile environment values: huge, non-numeric, negative, prototype names', () => {
    const env: Record<string, string> = {
      OPENVIKING_URL: `http://127.0.0.1:1/${'a'.repeat(100_000)}`,
      OPENVIKING_API_KEY: 'sk-env-secret-value',
      OPENVIKING_RECALL_LIMIT: 'NaN',
      OPENVIKING_SCORE_THRESHOLD: '-Infinity',
      OPENVIKING_PROMPT_DEADLINE_MS: '99999999999999999999',
      OPENVIKING_TIMEOUT_MS: '-1',
      OPENVIKING_DEBUG: 'maybe',
      OPENVIKING_BYPASS_SESSION_PATTERNS: '**,'.repeat(10_000),
      __proto__: 'x',
      constructor: 'y',
    };
    const config = load(homeWith({}), env);
    expectSettingsInBounds(config);
    for (const warning of config.warnings) expect(warning).not.toContain('sk-env-secret-value');
  });

  it('warnings about a file never quote its API key', () => {
    const config = load(
      homeWith({
        'ovcli.conf': JSON.stringify({
          api_key: 'sk-file-secret-value',
          plugin: { codebuddy: { recallLimit: 'many' } },
        }),
      }),
    );
    expect(config.warnings.length).toBeGreaterThan(0);
    for (const warning of config.warnings) expect(warning).not.toContain('sk-file-secret-value');
  });
});
