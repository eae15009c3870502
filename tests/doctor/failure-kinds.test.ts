/**
 * Doctor names the real fault (issue 30 item 4): each kind of failure gets
 * its own diagnosis and its own exact fix, naming the configured thing (the
 * file and its line, the proxy and its variable, the URL as written), and
 * the install steps only when nothing is configured and nothing answers.
 * On 4953f41 every network failure got one paragraph that began with
 * `pip install openviking`; a broken ovcli.conf read as "no server URL is
 * configured" (and as "Working" when a local server answered); a dead proxy
 * was never named; TLS against plain http printed raw OpenSSL text; a URL
 * without a scheme fell back to the default server; the root-key fix
 * appeared twice; and the summary said "1 problem(s)".
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../src/doctor/types.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { spawnHook } from '../support/spawn-hook.js';
import { startTlsFront } from '../support/tls/index.js';
import { freshHome, parseReport, runDoctorInProcess, type DoctorRun } from './support.js';

const USER_KEY = 'uk-failure-kinds-55aa';
const ROOT_KEY = 'rk-failure-kinds-99cc';

let dev: OvTestServer;
let keyed: OvTestServer;
let closedPort: number;

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  dev = await startOvServer();
  keyed = await startOvServer({
    auth: {
      mode: 'api_key',
      rootKey: ROOT_KEY,
      keys: { [USER_KEY]: { account: 'acme', user: 'alice', role: 'user' } },
    },
  });
  closedPort = await freePort();
});
afterAll(async () => Promise.all([dev.close(), keyed.close()]));

async function doctor(env: Record<string, string>, home = freshHome()): Promise<{ run: DoctorRun; text: string }> {
  const run = await runDoctorInProcess({ json: false }, env, home);
  return { run, text: run.stdout };
}

async function doctorJson(env: Record<string, string>, home = freshHome()): Promise<Record<string, Check>> {
  const report = parseReport(await runDoctorInProcess({ json: true }, env, home));
  return Object.fromEntries(report.checks.map((check) => [check.id, check]));
}

function expectNoInstallSteps(text: string): void {
  expect(text).not.toContain('pip install');
  expect(text).not.toContain('openviking-server');
}

describe('a configuration file that is not JSON', () => {
  function brokenHome(): string {
    const home = freshHome();
    mkdirSync(join(home, '.openviking'));
    writeFileSync(
      join(home, '.openviking', 'ovcli.conf'),
      `{\n  "url": "https://openviking.example.com",\n  "api_key": "${USER_KEY}",\n}\n`,
    );
    return home;
  }

  it('fails the configuration by file, line and column, and never reads as "no server URL is configured"', async () => {
    const { run, text } = await doctor({}, brokenHome());
    expect(run.code).toBe(1);
    expect(text).toMatch(/\[FAIL\] Configuration/);
    expect(text).toContain(
      "~/.openviking/ovcli.conf is not valid JSON (line 3, column 37: a comma before '}' (a trailing comma))",
    );
    expect(text).toContain('fix: Correct ~/.openviking/ovcli.conf where the warning above says');
    expect(text).not.toContain('no server URL is configured');
    expectNoInstallSteps(text);
    expect(text).not.toMatch(/^Working|All checks passed/m);
  });

  it('is still a problem when a local server answers: never "Working"', async () => {
    const { run, text } = await doctor({ OPENVIKING_URL: dev.url }, brokenHome());
    expect(text).toMatch(/\[PASS\] Server/);
    expect(run.code).toBe(1);
    expect(text).toMatch(/^1 problem to fix: Configuration\./m);
    expect(text).not.toMatch(/^Working/m);
  });
});

describe('network failures, each by its cause', () => {
  it('a dead proxy: the proxy and its variable are named, with NO_PROXY as the way around it', async () => {
    const proxy = `http://127.0.0.1:${closedPort}`;
    const checks = await doctorJson({ OPENVIKING_URL: dev.url, HTTP_PROXY: proxy });
    const server = checks['server']!;
    expect(server).toMatchObject({ status: 'fail', data: { kind: 'proxy' } });
    expect(server.lines[0]).toBe(
      `the request to ${dev.url} goes through the proxy ${proxy} (from HTTP_PROXY), which refuses connections (nothing listens there)`,
    );
    expect(server.fix).toBe(
      `Start the proxy at ${proxy}, or let the plugin reach 127.0.0.1 directly: add it to NO_PROXY (e.g. NO_PROXY=127.0.0.1,localhost), in the environment the host starts with.`,
    );
    expectNoInstallSteps(JSON.stringify(checks));
  });

  it('a host name that does not resolve', async () => {
    const checks = await doctorJson({ OPENVIKING_URL: 'http://openviking.invalid:1933' });
    const server = checks['server']!;
    expect(server).toMatchObject({ status: 'fail', data: { kind: 'dns' } });
    expect(server.lines[0]).toMatch(/^the host name openviking\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\)/);
    expect(server.lines[1]).toBe('the URL is http://openviking.invalid:1933, from OPENVIKING_URL in the environment');
    expect(server.fix).toContain('Check the host name in http://openviking.invalid:1933 and correct OPENVIKING_URL');
    expectNoInstallSteps(JSON.stringify(checks));
  });

  it('nothing listening at a configured address', async () => {
    const url = `http://127.0.0.1:${closedPort}`;
    const server = (await doctorJson({ OPENVIKING_URL: url }))['server']!;
    expect(server).toMatchObject({ status: 'fail', data: { kind: 'refused', cause: 'ECONNREFUSED' } });
    expect(server.lines[0]).toBe(`nothing listens at 127.0.0.1:${closedPort} (connection refused)`);
    expect(server.fix).toBe(`Start the OpenViking server at ${url}, or correct OPENVIKING_URL in the environment.`);
  });

  it('a server that hangs', async () => {
    const hung = await startOvServer();
    hung.faults.hang({ path: '/health' });
    try {
      const server = (await doctorJson({ OPENVIKING_URL: hung.url }))['server']!;
      expect(server).toMatchObject({ status: 'fail', data: { kind: 'timeout' } });
      expect(server.lines[0]).toMatch(/did not answer in time/);
      expect(server.fix).toContain('a firewall, a VPN');
    } finally {
      await hung.close();
    }
  });

  it('a slow memory search is not a fault: 2 s on search/find (a real first search under load) still passes Identity', async () => {
    const slow = await startOvServer();
    slow.faults.latency(2_000, { path: '/api/v1/search/find' });
    try {
      const identity = (await doctorJson({ OPENVIKING_URL: slow.url }))['identity']!;
      expect(identity.status, JSON.stringify(identity)).toBe('pass');
      expect(identity.lines).toContain('memory APIs: usable');
    } finally {
      await slow.close();
    }
  });

  it('an MCP endpoint that does not answer: its URL is the server URL + /mcp, in words', async () => {
    const hung = await startOvServer();
    hung.faults.hang({ path: '/mcp' });
    try {
      const mcp = (await doctorJson({ OPENVIKING_URL: hung.url }))['mcp']!;
      expect(mcp.status).toBe('fail');
      expect(mcp.fix).toBe(
        'Check that the OpenViking server is running; the MCP URL comes from the server URL + /mcp.',
      );
    } finally {
      await hung.close();
    }
  });

  it('a wrong path: the URL without it is the fix', async () => {
    const server = (await doctorJson({ OPENVIKING_URL: `${dev.url}/api/v1` }))['server']!;
    expect(server).toMatchObject({ status: 'fail', data: { kind: 'wrong-path', status: 404 } });
    expect(server.lines[0]).toBe(
      `${dev.url}/api/v1/health answered HTTP 404: the URL has the path /api/v1, and OpenViking answers at the root of its address`,
    );
    expect(server.fix).toBe(`Write ${dev.url} (without /api/v1): correct OPENVIKING_URL in the environment.`);
  });

  it('TLS against plain http: says so in words, suggests http://, no OpenSSL text', async () => {
    const url = dev.url.replace('http:', 'https:');
    const { text } = await doctor({ OPENVIKING_URL: url });
    const checks = await doctorJson({ OPENVIKING_URL: url });
    const server = checks['server']!;
    expect(server).toMatchObject({ status: 'fail', data: { kind: 'tls-plain-http' } });
    expect(server.lines[0]).toBe(
      `127.0.0.1:${dev.port} does not speak TLS: it answered an https request with plain HTTP`,
    );
    expect(server.fix).toBe(`Use ${dev.url} (http://, not https://): correct OPENVIKING_URL in the environment.`);
    expect(text).not.toMatch(/SSL routines|ssl3_get_record|0A00010B/);
    for (const line of server.lines) expect(line).not.toContain('\n');
  });

  it('a certificate this machine does not trust', async () => {
    const front = await startTlsFront(dev.port);
    try {
      const server = (await doctorJson({ OPENVIKING_URL: front.url }))['server']!;
      expect(server).toMatchObject({ status: 'fail', data: { kind: 'tls-certificate' } });
      expect(server.lines[0]).toMatch(/the TLS certificate of 127\.0\.0\.1:\d+ is not trusted here \([A-Z_]+\)/);
      expect(server.fix).toContain('NODE_EXTRA_CA_CERTS');
    } finally {
      await front.close();
    }
  });
});

describe('the URL and the key', () => {
  it('a URL without a scheme is an error, and nothing is tried in its place', async () => {
    const written = `127.0.0.1:${dev.port}`;
    dev.clearRequests();
    const { run, text } = await doctor({ OPENVIKING_URL: written });
    const checks = await doctorJson({ OPENVIKING_URL: written });
    expect(run.code).toBe(1);
    expect(checks['config']).toMatchObject({ status: 'fail' });
    expect(checks['config']!.lines.join('\n')).toContain(
      `env:OPENVIKING_URL: "${written}" is not an http(s) URL (no scheme: write http://${written} or https://${written})`,
    );
    expect(checks['config']!.fix).toContain('no other server is used in its place');
    expect(checks['server']).toMatchObject({ status: 'info', data: { code: 'INVALID_URL' } });
    expect(checks['server']!.lines[0]).toMatch(/^not contacted: the URL from OPENVIKING_URL in the environment/);
    expect(text).not.toContain('http://127.0.0.1:1933');
    expect(dev.requests()).toEqual([]);
    expect(text).toMatch(/^1 problem to fix: Configuration\./m);
  });

  it('a server that wants a key, and none is set: the key is the fix, not an install', async () => {
    const checks = await doctorJson({ OPENVIKING_URL: keyed.url });
    expect(checks['server']).toMatchObject({ status: 'pass' });
    const identity = checks['identity']!;
    expect(identity.status).toBe('fail');
    expect(identity.lines).toContain('the server wants an API key (auth mode api_key) and none is configured');
    expect(identity.fix).toMatch(/^Set a user API key for this server: OPENVIKING_API_KEY, the plugin option api_key/);
    expectNoInstallSteps(JSON.stringify(checks));
  });

  it('a root key from ov.conf: its fix once, and no internal source names', async () => {
    const home = freshHome();
    mkdirSync(join(home, '.openviking'));
    writeFileSync(
      join(home, '.openviking', 'ov.conf'),
      JSON.stringify({ server: { port: keyed.port, root_api_key: ROOT_KEY } }),
    );
    const { text } = await doctor({}, home);
    expect(text).toContain('the API key is a ROOT key');
    expect(text.split('Use a USER key').length - 1).toBe(1);
    expect(text).not.toContain('derived:baseUrl');
    expect(text).toContain('(the server URL + /mcp)');
    expect(text).toMatch(/^3 problems to fix: Configuration, Identity, MCP endpoint\./m);
  });
});

describe('OPENVIKING_DEBUG=1 doctor', () => {
  it('writes its verdicts to the debug log, as the knob says', async () => {
    const home = freshHome();
    const log = join(home, 'debug.log');
    const run = await spawnHook({
      args: ['doctor'],
      cwd: home,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        OPENVIKING_URL: dev.url,
        OPENVIKING_DEBUG: '1',
        OPENVIKING_DEBUG_LOG: log,
      },
      timeoutMs: 20_000,
    });
    expect(run.exitCode, run.stdout).toBe(0);
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line['message'] === 'doctor check').map((line) => line['id'])).toContain('server');
    expect(lines.some((line) => line['message'] === 'doctor done')).toBe(true);
  });
});
