/**
 * Tried as a new user: a fresh HOME, then a server in each auth mode, then
 * the mistakes people make (a root key, a wrong key, a hung server).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer } from '../support/ov-server/index.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { checkOf, freshHome, parseReport, runDoctorInProcess } from './support.js';

const USER_KEY = 'uk-alice-7f3c9d2e41ab';
const ROOT_KEY = 'rk-root-55aa11bb99cc';

/** True when nothing listens on the default port (another test's or a developer's server would). */
function defaultPortFree(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: 1933 });
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

const portFree = await defaultPortFree();

describe('doctor, as a new user', () => {
  it.runIf(portFree)('with no config and no server, says exactly what to set and exits 1', async () => {
    const run = await runDoctorInProcess({ json: false }, {}, freshHome());
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('[FAIL] Server');
    expect(run.stdout).toContain('nothing answers at http://127.0.0.1:1933');
    expect(run.stdout).toContain('no server URL is configured');
    for (const hint of [
      'pip install openviking',
      '~/.openviking/ov.conf',
      '"vlm"',
      'openviking-server',
      'OPENVIKING_URL',
      'OPENVIKING_API_KEY',
      'server_url',
      '~/.openviking/ovcli.conf',
    ])
      expect(run.stdout).toContain(hint);
    expect(run.stdout).toContain('not checked: the server is unreachable');
    expect(run.stdout).toMatch(/^1 problem to fix: Server\./m);
  });

  it('reports a configured but unreachable server with the source of its URL', async () => {
    const server = await startOvServer();
    const url = server.url;
    await server.close();
    const run = await runDoctorInProcess({ json: true }, { OPENVIKING_URL: url }, freshHome());
    const report = parseReport(run);
    expect(run.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(checkOf(report, 'server')).toMatchObject({ status: 'fail', data: { code: 'NETWORK' } });
    expect(checkOf(report, 'server').lines.join('\n')).toContain(
      `the URL is ${url}, from OPENVIKING_URL in the environment`,
    );
    expect(run.stdout).not.toContain('pip install');
  });
});

describe('doctor against a dev-mode server', () => {
  let server: OvTestServer;
  beforeAll(async () => void (server = await startOvServer({ version: '9.9.9-test' })));
  afterAll(() => server.close());

  it('is all green, viking://~ works in dev mode (0.5.2), and an older server refusing it to ROOT is explained', async () => {
    const run = await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url }, freshHome());
    const report = parseReport(run);
    expect(run.code, run.stdout).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(checkOf(report, 'server')).toMatchObject({
      status: 'pass',
      data: { version: '9.9.9-test', authMode: 'dev' },
    });
    const identity = checkOf(report, 'identity');
    expect(identity).toMatchObject({
      status: 'pass',
      data: { authMode: 'dev', memoryApi: true, homeAlias: true, rootKey: false },
    });
    expect(identity.lines.join('\n')).toContain('viking://~ works (→ viking://user/default)');
    const mcp = checkOf(report, 'mcp');
    expect(mcp.status).toBe('pass');
    expect(mcp.data?.['toolCount']).toBeGreaterThan(5);
    expect(mcp.data?.['tools']).toContain('remember');
    expect(server.requests({ path: '/mcp' }).length).toBeGreaterThanOrEqual(2);
    // 6e944cc refused viking://~ to ROOT with a 400: expected, and said so
    server.faults.errorBurst({ status: 400, code: 'INVALID_URI', match: { path: '/api/v1/fs/ls' } });
    const older = checkOf(
      parseReport(await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url }, freshHome())),
      'identity',
    );
    expect(older).toMatchObject({ status: 'pass', data: { homeAlias: false } });
    expect(older.lines.join('\n')).toContain('viking://~ is unavailable to ROOT on this server');
  });

  it('reads plain-JSON MCP replies as well as SSE', async () => {
    const jsonServer = await startOvServer({ mcpJsonResponse: true });
    try {
      const report = parseReport(
        await runDoctorInProcess({ json: true }, { OPENVIKING_URL: jsonServer.url }, freshHome()),
      );
      expect(checkOf(report, 'mcp')).toMatchObject({ status: 'pass' });
    } finally {
      await jsonServer.close();
    }
  });
});

describe('doctor against an api_key server', () => {
  let server: OvTestServer;
  beforeAll(async () => {
    server = await startOvServer({
      auth: {
        mode: 'api_key',
        rootKey: ROOT_KEY,
        keys: { [USER_KEY]: { account: 'acme', user: 'alice', role: 'user' } },
      },
    });
  });
  afterAll(() => server.close());

  it('is all green with a user key from ovcli.conf, and never prints the key', async () => {
    const home = freshHome();
    mkdirSync(join(home, '.openviking'));
    writeFileSync(join(home, '.openviking', 'ovcli.conf'), JSON.stringify({ url: server.url, api_key: USER_KEY }));
    const text = await runDoctorInProcess({ json: false }, {}, home);
    expect(text.code, text.stdout).toBe(0);
    expect(text.stdout).not.toContain(USER_KEY);
    expect(text.stdout).toContain('API key: ****41ab  (file:~/.openviking/ovcli.conf#api_key)');
    expect(text.stdout).toContain('account: acme, user: alice, role: user');
    expect(text.stdout).toContain('viking://~ works (→ viking://user/alice)');

    const report = parseReport(await runDoctorInProcess({ json: true }, {}, home));
    expect(report.ok).toBe(true);
    expect(checkOf(report, 'identity')).toMatchObject({
      status: 'pass',
      data: { authMode: 'api_key', user: 'alice', homeAlias: true, rootKey: false },
    });
    expect(checkOf(report, 'mcp').status).toBe('pass');
    expect(JSON.stringify(report)).not.toContain(USER_KEY);
  });

  it('flags a root key, with the fix', async () => {
    const run = await runDoctorInProcess(
      { json: true },
      { OPENVIKING_URL: server.url, OPENVIKING_API_KEY: ROOT_KEY },
      freshHome(),
    );
    const report = parseReport(run);
    expect(run.code).toBe(1);
    const identity = checkOf(report, 'identity');
    expect(identity).toMatchObject({ status: 'fail', data: { rootKey: true, role: 'root' } });
    expect(identity.lines.join('\n')).toContain('ROOT key');
    expect(identity.fix).toContain('USER key');
    expect(run.stdout).not.toContain(ROOT_KEY);
  });

  it('flags a missing key and a wrong key differently', async () => {
    const missing = parseReport(await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url }, freshHome()));
    expect(checkOf(missing, 'identity')).toMatchObject({ status: 'fail' });
    expect(checkOf(missing, 'identity').fix).toContain('Set a user API key for this server');
    const wrong = parseReport(
      await runDoctorInProcess(
        { json: true },
        { OPENVIKING_URL: server.url, OPENVIKING_API_KEY: 'not-a-real-key-0000' },
        freshHome(),
      ),
    );
    // 0.5.2 (and so the double) refuses a wrong key at /health already (F35): the report names that key
    // (masked) and where it is set, never "the server wants credentials" (issue-37a's cb3abf7 diagnoses it)
    const said = JSON.stringify(wrong.checks.filter((check) => check.status === 'fail'));
    expect(said).toContain('****0000');
    expect(said).toContain('OPENVIKING_API_KEY');
    expect(said).not.toContain('wants credentials even for /health');
  });
});

describe('doctor against a hanging server', () => {
  it('finishes within a few seconds and says the server timed out', async () => {
    const server = await startOvServer();
    server.faults.hang();
    try {
      const run = await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url }, freshHome());
      const report = parseReport(run);
      expect(run.durationMs).toBeLessThan(5_000);
      expect(run.code).toBe(1);
      expect(checkOf(report, 'server')).toMatchObject({ status: 'fail', data: { code: 'TIMEOUT' } });
    } finally {
      await server.close();
    }
  }, 15_000);

  it('still bounds the run when only the MCP endpoint hangs', async () => {
    const server = await startOvServer();
    server.faults.hang({ path: '/mcp' });
    try {
      const run = await runDoctorInProcess({ json: true }, { OPENVIKING_URL: server.url }, freshHome());
      expect(run.durationMs).toBeLessThan(5_000);
      expect(checkOf(parseReport(run), 'mcp')).toMatchObject({ status: 'fail' });
    } finally {
      await server.close();
    }
  }, 15_000);
});
