/**
 * One MCP handshake for the proxy and doctor (issue 41 items 2 and 3,
 * src/mcp/handshake.ts). Doctor once spoke a handshake of its own
 * (protocol 2025-06-18 where the proxy offers 2025-11-25, client info
 * `openviking-doctor`, the configured peer where the proxy sends the
 * workspace project's), so a server that refused the proxy could pass
 * doctor. Here the BUILT proxy and doctor meet the test server from the same
 * workspace: their `initialize` and its headers are the same bytes, and a
 * server that speaks only a revision the proxy does not fails both.
 *
 * @module
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OFFERED_PROTOCOL_VERSION, PROTOCOL_VERSIONS } from '../../src/mcp/handshake.js';
import { gitRemoteVariable } from '../../src/project/peerTemplate.js';
import { checkOf, parseReport, runDoctorInProcess } from '../doctor/support.js';
import { startOvServer, type LoggedRequest, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { connectThroughProxy, makeRepoWorkspace, makeSandbox, proxyUnderTest } from './support/harness.js';
import type { Sandbox } from './support/harness.js';

const REMOTE = 'git@github.com:acme/handshake-project.git';
const PEER = gitRemoteVariable(REMOTE);
const KEY = 'handshake-user-key';
const IDENTITY = [
  'authorization',
  'x-openviking-account',
  'x-openviking-user',
  'x-openviking-actor-peer',
  'user-agent',
];

let sandbox: Sandbox;
let workspace: string;
const servers: OvTestServer[] = [];

beforeAll(async () => {
  sandbox = await makeSandbox();
  workspace = await makeRepoWorkspace(sandbox, REMOTE);
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
afterAll(async () => {
  await sandbox.dispose();
});

async function server(options: Parameters<typeof startOvServer>[0] = {}): Promise<OvTestServer> {
  const started = await startOvServer({
    auth: { mode: 'api_key', keys: { [KEY]: { account: 'acme', user: 'alice', role: 'user' } } },
    ...options,
  });
  servers.push(started);
  return started;
}

function env(url: string): Record<string, string> {
  return { OPENVIKING_URL: url, OPENVIKING_API_KEY: KEY, OPENVIKING_ACCOUNT: 'acme', OPENVIKING_USER: 'alice' };
}

/** The `/mcp` POSTs since the log was cleared, by JSON-RPC method. */
function mcpPosts(server: OvTestServer, method: string): LoggedRequest[] {
  return server
    .requests({ path: '/mcp', method: 'POST' })
    .filter((request) => (request.body as { method?: unknown } | undefined)?.method === method);
}

function handshakeOf(server: OvTestServer): { params: unknown; headers: Record<string, string | undefined> } {
  const [init] = mcpPosts(server, 'initialize');
  if (init === undefined) throw new Error('no initialize reached the server');
  const [list] = mcpPosts(server, 'tools/list');
  return {
    params: (init.body as { params?: unknown }).params,
    headers: {
      ...Object.fromEntries(IDENTITY.map((name) => [name, init.headers[name]])),
      'mcp-protocol-version (tools/list)': list?.headers['mcp-protocol-version'],
    },
  };
}

describe('the handshake is the SDK the proxy runs on', () => {
  it("the revisions are the SDK's, newest first, and the newest is offered", () => {
    expect([...PROTOCOL_VERSIONS]).toEqual([...SUPPORTED_PROTOCOL_VERSIONS]);
    expect(OFFERED_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
  });
});

describe('doctor probes /mcp with the proxy’s own handshake', () => {
  it('the same initialize, the same identity and project peer, the same revision after it', async () => {
    const ov = await server();
    const proxy = await connectThroughProxy(await proxyUnderTest(), sandbox.env(env(ov.url)), workspace);
    try {
      const listed = await proxy.client.listTools();
      expect(listed.tools.length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
    const fromProxy = handshakeOf(ov);
    ov.clearRequests();

    const report = parseReport(
      await runDoctorInProcess({ json: true }, env(ov.url), sandbox.home, REPO_ROOT, workspace),
    );
    expect(checkOf(report, 'mcp')).toMatchObject({ status: 'pass' });
    const fromDoctor = handshakeOf(ov);

    expect(fromProxy.headers['x-openviking-actor-peer']).toBe(PEER);
    expect(fromProxy.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fromProxy.params).toMatchObject({ protocolVersion: OFFERED_PROTOCOL_VERSION });
    expect(fromDoctor).toEqual(fromProxy);
    // The REST client speaks as the same identity (the peer aside: doctor's REST checks send only a configured one).
    const rest = ov.requests({ path: '/api/v1/system/status' })[0];
    for (const name of ['authorization', 'x-openviking-account', 'x-openviking-user', 'user-agent'])
      expect(rest?.headers[name], name).toBe(fromProxy.headers[name]);
  }, 30_000);

  it('a server that speaks only a revision the proxy does not: the proxy’s calls fail, and so does doctor', async () => {
    const ov = await server({ mcpProtocolVersions: ['2099-01-01'] });
    const proxy = await connectThroughProxy(await proxyUnderTest(), sandbox.env(env(ov.url)), workspace);
    try {
      await expect(proxy.client.callTool({ name: 'health', arguments: {} })).rejects.toThrow(
        /protocol version is not supported: 2099-01-01/,
      );
    } finally {
      await proxy.close();
    }
    expect(mcpPosts(ov, 'initialize').length).toBeGreaterThan(0);

    const report = parseReport(
      await runDoctorInProcess({ json: true }, env(ov.url), sandbox.home, REPO_ROOT, workspace),
    );
    const mcp = checkOf(report, 'mcp');
    expect(mcp.status).toBe('fail');
    expect(mcp.lines.join('\n')).toContain('the server answered protocol "2099-01-01"');
    expect(report.ok).toBe(false);
  }, 30_000);
});
