import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { credentialMode } from '../../src/config/credentialMode.js';
import { resolveCredentials } from '../../src/config/credentials.js';
import { readUserConfig } from '../../src/config/pluginOptions.js';
import { readSmallTextFile, MAX_CONFIG_BYTES } from '../../src/config/configFile.js';

let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'ov-cred-'));
  mkdirSync(join(home, '.openviking'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ovcliPath = () => join(home, '.openviking', 'ovcli.conf');
const ovconfPath = () => join(home, '.openviking', 'ov.conf');
const writeJson = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));
const resolve = (env: Record<string, string | undefined> = {}) =>
  resolveCredentials({ env, homeDir: home, readFile: readSmallTextFile });

describe('credential chain: single sources', () => {
  it('defaults to http://127.0.0.1:1933 with no files and no env', () => {
    const { credentials, warnings } = resolve();
    expect(credentials).toEqual({
      baseUrl: 'http://127.0.0.1:1933',
      mcpUrl: 'http://127.0.0.1:1933/mcp',
      sources: { baseUrl: 'default', mcpUrl: 'derived:baseUrl' },
      rootKeyOnly: false,
      files: [],
    });
    expect(warnings).toEqual([]);
  });

  it('reads env credentials, trimming values and trailing slashes', () => {
    const { credentials } = resolve({
      OPENVIKING_URL: ' https://ov.example.com/// ',
      OPENVIKING_API_KEY: 'k-env',
      OPENVIKING_ACCOUNT: 'acme',
      OPENVIKING_USER: 'alice',
      OPENVIKING_PEER_ID: 'laptop',
    });
    expect(credentials).toMatchObject({
      baseUrl: 'https://ov.example.com',
      mcpUrl: 'https://ov.example.com/mcp',
      apiKey: 'k-env',
      account: 'acme',
      user: 'alice',
      peerId: 'laptop',
      sources: {
        baseUrl: 'env:OPENVIKING_URL',
        apiKey: 'env:OPENVIKING_API_KEY',
        account: 'env:OPENVIKING_ACCOUNT',
        user: 'env:OPENVIKING_USER',
        peerId: 'env:OPENVIKING_PEER_ID',
      },
    });
  });

  it('prefers OPENVIKING_BEARER_TOKEN over OPENVIKING_API_KEY and OPENVIKING_URL over OPENVIKING_BASE_URL', () => {
    const { credentials } = resolve({
      OPENVIKING_BEARER_TOKEN: 'bearer',
      OPENVIKING_API_KEY: 'key',
      OPENVIKING_URL: 'http://a:1',
      OPENVIKING_BASE_URL: 'http://b:2',
      OPENVIKING_MCP_URL: 'http://mcp:3/mcp',
    });
    expect(credentials.apiKey).toBe('bearer');
    expect(credentials.baseUrl).toBe('http://a:1');
    expect(credentials.mcpUrl).toBe('http://mcp:3/mcp');
    expect(credentials.sources.mcpUrl).toBe('env:OPENVIKING_MCP_URL');
  });

  it('reads ovcli.conf, including the account_id/user_id/peer_id spellings', () => {
    writeJson(ovcliPath(), {
      url: 'http://cli:1933/',
      api_key: 'k-cli',
      account_id: 'acc',
      user_id: 'usr',
      peer_id: 'p1',
    });
    const { credentials } = resolve();
    expect(credentials).toMatchObject({
      baseUrl: 'http://cli:1933',
      apiKey: 'k-cli',
      account: 'acc',
      user: 'usr',
      peerId: 'p1',
    });
    expect(credentials.sources.apiKey).toBe('file:~/.openviking/ovcli.conf#api_key');
    expect(credentials.sources.account).toBe('file:~/.openviking/ovcli.conf#account_id');
    expect(credentials.files).toEqual([ovcliPath()]);
  });

  it('derives the URL from ov.conf server.host/port, mapping 0.0.0.0 to 127.0.0.1', () => {
    writeJson(ovconfPath(), { server: { host: '0.0.0.0', port: 2000 } });
    const { credentials } = resolve();
    expect(credentials.baseUrl).toBe('http://127.0.0.1:2000');
    expect(credentials.sources.baseUrl).toBe('file:~/.openviking/ov.conf#server.host');
    expect(credentials.files).toEqual([ovconfPath()]);
  });

  it('prefers ov.conf server.url over host/port, and reads the codebuddy section', () => {
    writeJson(ovconfPath(), {
      server: { url: 'http://srv:1/', host: 'ignored', port: 9 },
      codebuddy: { apiKey: 'k-harness', accountId: 'a', userId: 'u', peerId: 'p' },
    });
    const { credentials } = resolve();
    expect(credentials).toMatchObject({
      baseUrl: 'http://srv:1',
      apiKey: 'k-harness',
      account: 'a',
      user: 'u',
      peerId: 'p',
      rootKeyOnly: false,
    });
    expect(credentials.sources.apiKey).toBe('file:~/.openviking/ov.conf#codebuddy.apiKey');
  });

  it('reads the userConfig options CodeBuddy exports (upper-case and as-declared keys)', () => {
    const { credentials } = resolve({
      CODEBUDDY_PLUGIN_OPTION_SERVER_URL: 'http://uc:1933',
      CODEBUDDY_PLUGIN_OPTION_api_key: 'k-uc',
      CODEBUDDY_PLUGIN_OPTION_ACCOUNT: 'uc-acc',
      CODEBUDDY_PLUGIN_OPTION_user: 'uc-user',
    });
    expect(credentials).toMatchObject({
      baseUrl: 'http://uc:1933',
      apiKey: 'k-uc',
      account: 'uc-acc',
      user: 'uc-user',
    });
    expect(credentials.sources).toMatchObject({
      baseUrl: 'userConfig:server_url',
      apiKey: 'userConfig:api_key',
      account: 'userConfig:account',
      user: 'userConfig:user',
    });
  });

  it('treats empty and unexpanded ${user_config.*} options as unset', () => {
    expect(
      readUserConfig({
        CODEBUDDY_PLUGIN_OPTION_SERVER_URL: '',
        CODEBUDDY_PLUGIN_OPTION_API_KEY: '${user_config.api_key}',
        CODEBUDDY_PLUGIN_OPTION_ACCOUNT: '   ',
      }),
    ).toEqual({});
  });
});

// README: "Give the plugin the URL and a user key, in any of these places (first one set wins, field by field)",
// with the one exception it names: "a key, account or user is only used with the server named next to it".
describe('credential chain: precedence', () => {
  it('env > plugin options > ovcli.conf > ov.conf, per field; each skipped value says why', () => {
    writeJson(ovcliPath(), {
      url: 'http://cli:1',
      api_key: 'k-cli',
      account: 'cli-acc',
      user: 'cli-user',
      actor_peer_id: 'cli-peer',
    });
    writeJson(ovconfPath(), { server: { url: 'http://ov:1', root_api_key: 'root' }, codebuddy: { peerId: 'ov-peer' } });
    const { credentials } = resolve({
      OPENVIKING_API_KEY: 'k-env',
      CODEBUDDY_PLUGIN_OPTION_API_KEY: 'k-uc',
      CODEBUDDY_PLUGIN_OPTION_SERVER_URL: 'http://uc:1',
      CODEBUDDY_PLUGIN_OPTION_USER: 'uc-user',
    });
    expect(credentials).toMatchObject({
      apiKey: 'k-env',
      baseUrl: 'http://uc:1',
      user: 'uc-user',
      peerId: 'cli-peer',
      rootKeyOnly: false,
    });
    // ovcli.conf names another server (http://cli:1): its account is not sent to http://uc:1.
    expect(credentials.account).toBeUndefined();
    expect(credentials.files).toEqual([ovcliPath(), ovconfPath()]);
    const why = (source: string) => credentials.skipped?.find((skip) => skip.source === source)?.reason;
    expect(why('file:~/.openviking/ovcli.conf#url')).toBe('userConfig:server_url comes first');
    expect(why('userConfig:api_key')).toBe('env:OPENVIKING_API_KEY comes first');
    expect(why('file:~/.openviking/ovcli.conf#account')).toBe(
      'it belongs to the server http://cli:1 (file:~/.openviking/ovcli.conf#url), not to the one in use, http://uc:1 (userConfig:server_url)',
    );
    expect(why('file:~/.openviking/ov.conf#codebuddy.peerId')).toBe(
      'file:~/.openviking/ovcli.conf#actor_peer_id comes first',
    );
  });

  it('field by field: ov.conf fills what ovcli.conf leaves out when both name the same server (failed on 8e37669: ov.conf was ignored whole)', () => {
    writeJson(ovcliPath(), { url: 'http://localhost:1933' });
    writeJson(ovconfPath(), {
      server: { host: '0.0.0.0', port: 1933 },
      codebuddy: { apiKey: 'k-ov', userId: 'ov-user' },
    });
    const { credentials, warnings } = resolve();
    expect(credentials).toMatchObject({ baseUrl: 'http://localhost:1933', apiKey: 'k-ov', user: 'ov-user' });
    expect(credentials.sources).toMatchObject({
      baseUrl: 'file:~/.openviking/ovcli.conf#url',
      apiKey: 'file:~/.openviking/ov.conf#codebuddy.apiKey',
    });
    expect(warnings).toEqual([]);
  });

  it("a key stays with its server: ov.conf's root key and codebuddy identity never go to the server ovcli.conf names", () => {
    writeJson(ovcliPath(), { url: 'https://remote.example' });
    writeJson(ovconfPath(), { server: { root_api_key: 'root' }, codebuddy: { apiKey: 'k-local', userId: 'ov-user' } });
    const { credentials, warnings } = resolve();
    expect(credentials.baseUrl).toBe('https://remote.example');
    expect(credentials.apiKey).toBeUndefined();
    expect(credentials.user).toBeUndefined();
    expect(credentials.rootKeyOnly).toBe(false);
    expect(warnings).toEqual([]);
    expect(credentials.skipped?.find((skip) => skip.source === 'file:~/.openviking/ov.conf#codebuddy.apiKey')).toEqual({
      field: 'apiKey',
      source: 'file:~/.openviking/ov.conf#codebuddy.apiKey',
      kind: 'other-server',
      reason:
        'it belongs to the server http://127.0.0.1:1933 (default server of ~/.openviking/ov.conf), not to the one in use, https://remote.example (file:~/.openviking/ovcli.conf#url)',
    });
    expect(JSON.stringify(credentials.skipped)).not.toMatch(/k-local|"root"/);
  });

  it("ovcli.conf's key does not follow OPENVIKING_URL to another server; an env key goes anywhere", () => {
    writeJson(ovcliPath(), { url: 'http://cli:1', api_key: 'k-cli' });
    expect(resolve({ OPENVIKING_URL: 'http://other:1' }).credentials.apiKey).toBeUndefined();
    expect(resolve({ OPENVIKING_URL: 'http://cli:1/' }).credentials.apiKey).toBe('k-cli');
    expect(resolve({ OPENVIKING_URL: 'http://other:1', OPENVIKING_API_KEY: 'k-env' }).credentials.apiKey).toBe('k-env');
    writeJson(ovcliPath(), { api_key: 'k-cli' }); // names no server: its key goes with the URL in use
    expect(resolve({ OPENVIKING_URL: 'http://other:1' }).credentials.apiKey).toBe('k-cli');
  });

  it('auto and env modes are the same rule', () => {
    writeJson(ovcliPath(), { url: 'http://127.0.0.1:1933', account: 'acc' });
    writeJson(ovconfPath(), { codebuddy: { apiKey: 'k-ov' } });
    expect(resolve({ OPENVIKING_CREDENTIALS_SOURCE: 'environment' }).credentials).toEqual(resolve().credentials);
  });

  // README: "`OPENVIKING_CREDENTIAL_SOURCE=cli` makes the plugin read ovcli.conf only" (on 8e37669 the URL still came from ov.conf, and env URLs were ignored silently).
  it('cli mode reads ovcli.conf only, for every field, and warns about each value it ignores', () => {
    writeJson(ovcliPath(), { api_key: 'k-cli' });
    writeJson(ovconfPath(), { server: { url: 'http://ov:1' } });
    const { credentials, warnings } = resolve({
      OPENVIKING_CREDENTIAL_SOURCE: 'ovcli',
      OPENVIKING_URL: 'http://env:1',
      OPENVIKING_MCP_URL: 'http://env:1/mcp',
      OPENVIKING_API_KEY: 'k-env',
      CODEBUDDY_PLUGIN_OPTION_API_KEY: 'k-uc',
    });
    expect(credentials).toMatchObject({
      baseUrl: 'http://127.0.0.1:1933',
      mcpUrl: 'http://127.0.0.1:1933/mcp',
      apiKey: 'k-cli',
    });
    for (const source of [
      'env:OPENVIKING_URL',
      'env:OPENVIKING_MCP_URL',
      'env:OPENVIKING_API_KEY',
      'userConfig:api_key',
      'file:~/.openviking/ov.conf#server.url',
    ]) {
      expect(warnings).toContain(`${source}: OPENVIKING_CREDENTIAL_SOURCE=cli reads ovcli.conf only; ignoring it`);
    }
  });

  it('parses the credential-source modes and their alias', () => {
    expect(credentialMode({})).toBe('auto');
    expect(credentialMode({ OPENVIKING_CREDENTIAL_SOURCE: 'ENV' })).toBe('env');
    expect(credentialMode({ OPENVIKING_CREDENTIALS_SOURCE: 'file' })).toBe('cli');
    expect(credentialMode({ OPENVIKING_CREDENTIAL_SOURCE: 'config' })).toBe('cli');
    expect(credentialMode({ OPENVIKING_CREDENTIAL_SOURCE: 'whatever' })).toBe('auto');
    expect(credentialMode({ OPENVIKING_CREDENTIAL_SOURCE: 'cli', OPENVIKING_CREDENTIALS_SOURCE: 'env' })).toBe('cli');
  });
});

describe('config file locations', () => {
  it('honours OPENVIKING_CLI_CONFIG_FILE and OPENVIKING_CONFIG_FILE with ~ expansion', () => {
    mkdirSync(join(home, 'elsewhere'));
    writeJson(join(home, 'elsewhere', 'cli.json'), { api_key: 'k-custom-cli' });
    writeJson(join(home, 'elsewhere', 'server.json'), { server: { port: 4321 } });
    writeJson(ovcliPath(), { api_key: 'k-default-cli' });
    const { credentials } = resolve({
      OPENVIKING_CLI_CONFIG_FILE: '~/elsewhere/cli.json',
      OPENVIKING_CONFIG_FILE: '~/elsewhere/server.json',
    });
    expect(credentials.apiKey).toBe('k-custom-cli');
    expect(credentials.baseUrl).toBe('http://127.0.0.1:4321');
    expect(credentials.sources.apiKey).toBe('file:~/elsewhere/cli.json#api_key');
    expect(credentials.files).toEqual([join(home, 'elsewhere', 'cli.json'), join(home, 'elsewhere', 'server.json')]);
  });

  it('back-compat: an ovcli-shaped OPENVIKING_CONFIG_FILE is the ovcli file, and the default ovcli.conf is not read', () => {
    writeJson(join(home, 'legacy.json'), { url: 'http://legacy:1', api_key: 'k-legacy' });
    writeJson(ovcliPath(), { api_key: 'k-default-cli' });
    const read: string[] = [];
    const { credentials } = resolveCredentials({
      env: { OPENVIKING_CONFIG_FILE: join(home, 'legacy.json') },
      homeDir: home,
      readFile: (path) => (read.push(path), readSmallTextFile(path)),
    });
    expect(credentials).toMatchObject({ baseUrl: 'http://legacy:1', apiKey: 'k-legacy' });
    // Besides it, only the CLI's stored plugin options (settings.json, credentials.json: none here) are looked at.
    expect(read.filter((path) => !path.startsWith(join(home, '.codebuddy')))).toEqual([join(home, 'legacy.json')]);
    expect(credentials.files).toEqual([join(home, 'legacy.json')]);
  });

  it('back-compat does not apply to an ov.conf-shaped file or when OPENVIKING_CLI_CONFIG_FILE is also set', () => {
    writeJson(join(home, 'server.json'), { url: 'http://x:1', server: { port: 7000 } });
    writeJson(ovcliPath(), { api_key: 'k-cli' });
    expect(resolve({ OPENVIKING_CONFIG_FILE: join(home, 'server.json') }).credentials).toMatchObject({
      apiKey: 'k-cli',
      baseUrl: 'http://127.0.0.1:7000',
    });

    writeJson(join(home, 'legacy.json'), { url: 'http://legacy:1' });
    const both = resolve({
      OPENVIKING_CONFIG_FILE: join(home, 'legacy.json'),
      OPENVIKING_CLI_CONFIG_FILE: ovcliPath(),
    }).credentials;
    expect(both.baseUrl).toBe('http://127.0.0.1:1933');
    expect(both.apiKey).toBe('k-cli');
  });

  it("reads at most two files in a hook, four outside one (plus the CLI's stored plugin options)", () => {
    writeJson(ovcliPath(), { url: 'http://cli:1' });
    writeJson(ovconfPath(), {});
    const read: string[] = [];
    const readFile = (path: string) => (read.push(path), readSmallTextFile(path));
    resolveCredentials({ env: { CODEBUDDY_PLUGIN_ROOT: '/plugin' }, homeDir: home, readFile });
    expect(read.sort()).toEqual([ovcliPath(), ovconfPath()].sort());
    read.length = 0;
    resolveCredentials({ env: {}, homeDir: home, readFile });
    expect(read.sort()).toEqual(
      [
        ovcliPath(),
        ovconfPath(),
        join(home, '.codebuddy', 'settings.json'),
        join(home, '.codebuddy', 'credentials.json'),
      ].sort(),
    );
  });
});

describe('root key', () => {
  it('flags rootKeyOnly with a warning when server.root_api_key is the only key', () => {
    writeJson(ovconfPath(), { server: { root_api_key: 'root-secret' } });
    const { credentials, warnings } = resolve();
    expect(credentials.apiKey).toBe('root-secret');
    expect(credentials.rootKeyOnly).toBe(true);
    expect(credentials.sources.apiKey).toBe('file:~/.openviking/ov.conf#server.root_api_key');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/root_api_key in ~\/\.openviking\/ov\.conf/);
    expect(warnings[0]).not.toContain('root-secret');
  });

  it('does not flag it when a user key exists anywhere earlier in the chain', () => {
    writeJson(ovconfPath(), { server: { root_api_key: 'root-secret' } });
    const { credentials, warnings } = resolve({ CODEBUDDY_PLUGIN_OPTION_API_KEY: 'user-key' });
    expect(credentials.apiKey).toBe('user-key');
    expect(credentials.rootKeyOnly).toBe(false);
    expect(warnings).toEqual([]);
  });
});

describe('malformed config files', () => {
  const malformed: Array<[string, string, RegExp]> = [
    ['bad JSON', '{"url": ', /is not valid JSON/],
    ['an array', '["http://x"]', /is not a JSON object/],
    ['empty', '  \n', /is empty/],
    ['__proto__ key', '{"url":"http://evil:1","__proto__":{"polluted":true}}', /forbidden key "__proto__"/],
    [
      'nested constructor key',
      '{"url":"http://evil:1","plugin":{"constructor":{"prototype":{"x":1}}}}',
      /forbidden key "(constructor|prototype)"/,
    ],
  ];
  it.each(malformed)('%s → one warning naming the file, then fallback', (_name, text, pattern) => {
    writeFileSync(ovcliPath(), text);
    writeJson(ovconfPath(), { server: { url: 'http://ov:1' } });
    const { credentials, warnings } = resolve();
    expect(credentials.baseUrl).toBe('http://ov:1');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('~/.openviking/ovcli.conf');
    expect(warnings[0]).toMatch(pattern);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(credentials.files).toContain(ovcliPath());
  });

  it('refuses a file over 1 MiB without reading it', () => {
    writeFileSync(ovcliPath(), `{"url":"http://big:1","pad":"${'x'.repeat(MAX_CONFIG_BYTES)}"}`);
    const { credentials, warnings } = resolve();
    expect(credentials.baseUrl).toBe('http://127.0.0.1:1933');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ovcli\.conf is larger than 1048576 bytes; ignoring it/);
  });

  it('refuses an over-long text from an injected reader too', () => {
    const { warnings } = resolveCredentials({
      env: {},
      homeDir: home,
      readFile: () => `{"a":"${'x'.repeat(MAX_CONFIG_BYTES)}"}`,
    });
    expect(warnings.some((warning) => /larger than 1048576 bytes/.test(warning))).toBe(true);
  });

  it('skips fields of the wrong type with a warning naming file and field', () => {
    writeJson(ovcliPath(), { url: ['http://x:1'], api_key: { nested: true }, account: 'ok' });
    writeJson(ovconfPath(), { server: 'oops' });
    const { credentials, warnings } = resolve();
    expect(credentials).toMatchObject({ baseUrl: 'http://127.0.0.1:1933', account: 'ok' });
    expect(credentials.apiKey).toBeUndefined();
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ovcli\.conf: url should be a string/),
        expect.stringMatching(/ovcli\.conf: api_key should be a string/),
        expect.stringMatching(/ov\.conf: server should be an object/),
      ]),
    );
  });

  // Issue 30 item 4: on 4953f41 the next source (in the end the default server) was used in its place.
  it('a URL that is not http(s) is an error naming the source: nothing is sent, no other server stands in', () => {
    writeJson(ovcliPath(), { url: 'https://elsewhere.example' });
    const { credentials, warnings } = resolve({ CODEBUDDY_PLUGIN_OPTION_SERVER_URL: 'localhost:1933' });
    expect(credentials.baseUrl).toBe('');
    expect(credentials.mcpUrl).toBe('');
    expect(credentials.sources.baseUrl).toBe('userConfig:server_url');
    expect(credentials.urlProblem).toEqual({
      source: 'userConfig:server_url',
      problem:
        '"localhost:1933" is not an http(s) URL (no scheme: write http://localhost:1933 or https://localhost:1933)',
    });
    expect(warnings).toEqual([
      'userConfig:server_url: "localhost:1933" is not an http(s) URL (no scheme: write http://localhost:1933 or https://localhost:1933)',
    ]);
  });

  it('turns an unreadable file into a warning', () => {
    mkdirSync(ovcliPath().replace('ovcli.conf', 'dir.conf'));
    const { warnings } = resolve({ OPENVIKING_CLI_CONFIG_FILE: ovcliPath().replace('ovcli.conf', 'dir.conf') });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/dir\.conf is a directory, not a regular file; ignoring it/);
  });
});
