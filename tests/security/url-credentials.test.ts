/**
 * A URL's user info never shows (issue 20 item 5): not for a proxy URL, not
 * for the server URL, in errors, logs, notices or doctor (whose report the
 * model reads in `/openviking:doctor`). Only scheme, host and port (and a
 * server URL's path). Passwords holding `/` or `@` slipped past the old
 * redaction; one holding `/` after digits (`u:12/34@proxy`) even parsed as
 * host `u`, port 12.
 *
 * @module
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';
import { displayUrl } from '../../src/openviking/displayUrl.js';
import { proxyRoute, proxySettings } from '../../src/openviking/proxy.js';
import { createSocketHttpTransport } from '../../src/openviking/socketHttp.js';
import { spawnHook } from '../support/spawn-hook.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';

/**
 * Every secret fragment below: none may appear anywhere. The port-shaped
 * password `4242` counts only on its own, never inside a longer number (a
 * timestamp such as 1796201424258 in a record is not a leak).
 */
const FRAGMENTS = [/PWSEGA/, /PWSEGB/, /ATPART/, /DIGITPW/, /(?<!\d)4242(?!\d)/, /USERNAMEX/];

/** [label, proxy URL]: passwords with `/`, `@`, digits then `/`, `?`, `#`. */
const HOSTILE_PROXIES: Array<[string, string]> = [
  ['password with /', 'http://USERNAMEX:PWSEGA/PWSEGB@127.0.0.1:9'],
  ['password with @', 'http://USERNAMEX:ATPART@PWSEGA@127.0.0.1:9'],
  ['password with @, URL otherwise broken', 'http://USERNAMEX:ATPART@PWSEGA@[bad:9'],
  ['digits then /', 'http://USERNAMEX:4242/DIGITPW@127.0.0.1:9'],
  ['password with ?', 'http://USERNAMEX:PWSEGA?PWSEGB@127.0.0.1:9'],
  ['password with #', 'http://USERNAMEX:PWSEGA#PWSEGB@127.0.0.1:9'],
  ['no scheme', 'USERNAMEX:PWSEGA/PWSEGB@127.0.0.1:9'],
  ['https proxy', 'https://USERNAMEX:PWSEGA/PWSEGB@127.0.0.1:9'],
];

function expectClean(text: string): void {
  for (const fragment of FRAGMENTS) expect(text).not.toMatch(fragment);
}

describe('displayUrl: scheme, host and port only', () => {
  it.each([
    ['http://user:pa/ss@proxy:3128', 'http://proxy:3128'],
    ['http://user:p@ss@proxy:3128', 'http://proxy:3128'],
    ['http://user:12/34@proxy', 'http://proxy'],
    ['user:pw@proxy:3128', 'proxy:3128'],
    ['localhost:1933', 'localhost:1933'],
    ['HTTPS://u:p@Example.com:8443/x?y#z', 'https://Example.com:8443'],
    ['http://[::1]:8080/', 'http://[::1]:8080'],
    ['not a url at all', '(not a URL)'],
  ])('%s → %s', (input, shown) => {
    expect(displayUrl(input)).toBe(shown);
  });

  it('a server URL keeps its path, never its query or fragment', () => {
    expect(displayUrl('https://u:p@ov.example.com/openviking/?token=abc#frag', true)).toBe(
      'https://ov.example.com/openviking',
    );
    expect(displayUrl('http://127.0.0.1:1933', true)).toBe('http://127.0.0.1:1933');
  });
});

describe('proxy URLs with awkward passwords', () => {
  it.each(HOSTILE_PROXIES)('%s: any error, and the route shown, hold no user info', async (_label, proxy) => {
    const env = { HTTP_PROXY: proxy, HTTPS_PROXY: proxy };
    let shown: string;
    try {
      const route = proxyRoute(new URL('https://ov.example/api'), proxySettings(env));
      shown = route?.proxy.href ?? '';
    } catch (error) {
      shown = (error as Error).message;
    }
    expectClean(shown);
    const transport = createSocketHttpTransport({ proxy: proxySettings(env) });
    const failure = await transport({
      method: 'GET',
      url: 'https://ov.example/api/v1/health',
      headers: {},
      timeoutMs: 2_000,
    }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    expectClean(failure);
  });

  it('a password with @ stays usable: sent (decoded) as Basic Proxy-Authorization', () => {
    const route = proxyRoute(
      new URL('https://ov.example/'),
      proxySettings({ HTTPS_PROXY: 'http://me:p@ss@proxy:3128' }),
    );
    expect(route?.proxy.href).toBe('http://proxy:3128/');
    expect(Buffer.from((route?.authorization ?? '').replace('Basic ', ''), 'base64').toString()).toBe('me:p@ss');
  });

  it('a password with an unencoded / after digits is refused (the URL parser would make the user the host)', () => {
    expect(() =>
      proxyRoute(new URL('https://ov.example/'), proxySettings({ HTTPS_PROXY: 'http://u:12/34@proxy:3128' })),
    ).toThrow(/unencoded/);
  });
});

describe('the server URL', () => {
  const home = mkdtempSync(join(tmpdir(), 'ov-url-cred-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('user info is left out of the configured URL (it was never sent), with a warning that does not quote it', () => {
    const config = loadPluginConfig({
      env: { OPENVIKING_URL: 'https://USERNAMEX:PWSEGA@ov.example.com:8443/base/' },
      homeDir: home,
    });
    expect(config.credentials.baseUrl).toBe('https://ov.example.com:8443/base');
    expect(config.credentials.mcpUrl).toBe('https://ov.example.com:8443/base/mcp');
    expect(config.warnings.join('\n')).toMatch(/user and password in the URL are not used/);
    expectClean(JSON.stringify(config));
  });

  it('a URL whose password holds / (unparseable, or parsed with the user as host) is refused without being quoted', () => {
    for (const url of [
      'https://USERNAMEX:PWSEGA/PWSEGB@ov.example.com',
      'https://USERNAMEX:4242/DIGITPW@ov.example.com',
    ]) {
      const config = loadPluginConfig({ env: { OPENVIKING_URL: url }, homeDir: home });
      // Not a URL: nothing is sent (issue 30 item 4; on 4953f41 the default server stood in).
      expect(config.credentials.baseUrl).toBe('');
      expect(config.credentials.urlProblem?.source).toBe('env:OPENVIKING_URL');
      expect(config.warnings.join('\n')).toMatch(/env:OPENVIKING_URL/);
      expectClean(JSON.stringify(config));
    }
  });
});

describe('through the built plugin: doctor, hooks and the debug log', () => {
  const home = mkdtempSync(join(tmpdir(), 'ov-url-cred-built-'));
  const workspace = mkdtempSync(join(tmpdir(), 'ov-url-cred-ws-'));
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it.each(HOSTILE_PROXIES)(
    'proxy %s: doctor --json, doctor text, a start and a prompt hook and the debug log hold no user info',
    async (_label, proxy) => {
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        OPENVIKING_URL: 'https://127.0.0.1:9',
        HTTPS_PROXY: proxy,
        HTTP_PROXY: proxy,
        OPENVIKING_DEBUG: '1',
        OPENVIKING_RESIDENT: 'off',
      };
      for (const args of [['doctor', '--json'], ['doctor']]) {
        const run = await spawnHook({ args, cwd: workspace, env, timeoutMs: 20_000 });
        expect(run.timedOut).toBe(false);
        expectClean(run.stdout + run.stderr);
      }
      const sim = createHostSim({
        pluginRoot: join(import.meta.dirname, '..', '..'),
        home,
        workspace,
        env: { OPENVIKING_URL: 'https://127.0.0.1:9', HTTPS_PROXY: proxy, OPENVIKING_DEBUG: '1' },
      });
      const p = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
      for (const result of [
        await sim.fire('SessionStart', p.sessionStart('startup')),
        await sim.fire('UserPromptSubmit', p.userPromptSubmit('how do we deploy the service?')),
      ]) {
        expectClean(JSON.stringify(result.outputs));
      }
      expectClean(readFileSync(join(home, '.openviking', 'logs', 'codebuddy-hooks.log'), 'utf8'));
    },
    60_000,
  );

  it('server URL with user info: doctor shows scheme, host, port and path only', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      OPENVIKING_URL: 'https://USERNAMEX:PWSEGA@127.0.0.1:9/ov',
      OPENVIKING_RESIDENT: 'off',
    };
    const run = await spawnHook({ args: ['doctor'], cwd: workspace, env, timeoutMs: 20_000 });
    expectClean(run.stdout + run.stderr);
    expect(run.stdout).toContain('https://127.0.0.1:9/ov');
  }, 30_000);
});
