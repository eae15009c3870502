/**
 * The MCP proxy behind a corporate proxy (DESIGN D20): the BUILT
 * `servers/mcp-proxy.mjs`, spawned as CodeBuddy would, with HTTP(S)_PROXY
 * naming a real proxy on loopback, reaches OpenViking's `/mcp` through it
 * (absolute form for http, CONNECT for https with the certificate trusted
 * only through NODE_EXTRA_CA_CERTS), and goes direct for NO_PROXY.
 *
 * Through a proxy its requests go over the plugin's own tunnel with node's
 * HTTP client (src/mcp/proxyFetch.ts, D41: once undici's ProxyAgent), and
 * keep what `fetch` does: connections reused, the proxy's credentials sent,
 * a redirect handed back as it came (the SDK follows one within the origin
 * and never another: the key does not leave the configured server).
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectThroughProxy, makeSandbox, proxyUnderTest } from '../mcp/support/harness.js';
import { startTestProxy } from '../support/http-proxy/index.js';
import { startOvServer } from '../support/ov-server/index.js';
import { startTlsFront, TEST_CA_PATH, TEST_CERT_PATH, testCertificate } from '../support/tls/index.js';

let proxyPath: string;
const cleanups: Array<() => Promise<unknown> | void> = [];
beforeAll(async () => {
  proxyPath = await proxyUnderTest();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const server = await startOvServer({ seed: { files: { 'memories/profile.md': 'Alice prefers tabs over spaces.' } } });
  const front = await startTlsFront(Number(new URL(server.url).port));
  const proxy = await startTestProxy();
  const sandbox = await makeSandbox();
  cleanups.push(
    () => server.close(),
    () => front.close(),
    () => proxy.close(),
    () => sandbox.dispose(),
  );
  const call = async (env: Record<string, string>) => {
    const client = await connectThroughProxy(proxyPath, sandbox.env(env));
    cleanups.push(() => client.close());
    return client.client.callTool({ name: 'health', arguments: {} });
  };
  return { server, front, proxy, call };
}

describe('mcp proxy behind an HTTP proxy', () => {
  it('http upstream: every request goes to the proxy in absolute form', async () => {
    const { server, proxy, call } = await setup();
    const result = await call({ OPENVIKING_URL: server.url, HTTP_PROXY: proxy.url });
    expect(result.isError).not.toBe(true);
    const forwarded = proxy.log().filter((entry) => entry.kind === 'forward');
    expect(forwarded.some((entry) => entry.target === `${server.url}/mcp`)).toBe(true);
  }, 20_000);

  it('https upstream: a CONNECT tunnel, certificate verified through NODE_EXTRA_CA_CERTS', async () => {
    const { front, proxy, call } = await setup();
    const result = await call({
      OPENVIKING_URL: front.url,
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: TEST_CERT_PATH,
    });
    expect(result.isError).not.toBe(true);
    expect(proxy.log()).toContainEqual(
      expect.objectContaining({ kind: 'connect', target: `127.0.0.1:${front.port}`, outcome: 'passed' }),
    );
  }, 20_000);

  it('NO_PROXY naming the server or its range: direct, the proxy sees nothing', async () => {
    const { server, proxy, call } = await setup();
    const result = await call({ OPENVIKING_URL: server.url, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(result.isError).not.toBe(true);
    const inRange = await call({ OPENVIKING_URL: server.url, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.0/8' });
    expect(inRange.isError).not.toBe(true);
    expect(proxy.log()).toEqual([]);
  }, 20_000);
});

/**
 * Issue 20 item 1 for the MCP proxy's TLS path through a proxy
 * (src/mcp/proxyFetch.ts on openviking/proxyTunnel.ts): the certificate
 * inside the tunnel must prove the server's address, never the proxy's name
 * (`localhost`).
 */
describe('mcp proxy: TLS identity inside the tunnel', () => {
  const API_KEY = 'ovk-mcp-tunnel-identity-KEY-0123456789';

  async function identitySetup(proxyOptions: Parameters<typeof startTestProxy>[0]) {
    const server = await startOvServer({
      seed: { files: { 'memories/profile.md': 'Alice prefers tabs over spaces.' } },
    });
    const front = await startTlsFront(Number(new URL(server.url).port), 'ip-only');
    const proxy = await startTestProxy({ urlHost: 'localhost', ...proxyOptions });
    const sandbox = await makeSandbox();
    cleanups.push(
      () => server.close(),
      () => front.close(),
      () => proxy.close(),
      () => sandbox.dispose(),
    );
    const call = async () => {
      const client = await connectThroughProxy(
        proxyPath,
        sandbox.env({
          OPENVIKING_URL: front.url,
          OPENVIKING_API_KEY: API_KEY,
          HTTPS_PROXY: proxy.url,
          NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
        }),
      );
      cleanups.push(() => client.close());
      return client.client.callTool({ name: 'health', arguments: {} });
    };
    return { proxy, front, call };
  }

  it('an impersonating proxy with a localhost certificate is refused and never sees the key', async () => {
    const { proxy, call } = await identitySetup({ impersonate: testCertificate('localhost-only') });
    await expect(call()).rejects.toThrow(/ERR_TLS_CERT_ALTNAME_INVALID/);
    expect(proxy.log()).toContainEqual(expect.objectContaining({ kind: 'connect', outcome: 'impersonated' }));
    expect(proxy.plaintext()).toBe('');
  }, 20_000);

  it('an honest proxy and a server certificate for IP:127.0.0.1 only: accepted', async () => {
    const { proxy, front, call } = await identitySetup({});
    const result = await call();
    expect(result.isError).not.toBe(true);
    expect(proxy.log()).toContainEqual(
      expect.objectContaining({ kind: 'connect', target: `127.0.0.1:${front.port}`, outcome: 'passed' }),
    );
  }, 20_000);
});

describe('mcp proxy: what fetch does, through a proxy (D41)', () => {
  const KEY = 'ovk-mcp-through-proxy-KEY-0123456789';

  async function callsThrough(env: Record<string, string>, calls: number) {
    const sandbox = await makeSandbox();
    cleanups.push(() => sandbox.dispose());
    const client = await connectThroughProxy(proxyPath, sandbox.env(env));
    cleanups.push(() => client.close());
    for (let i = 0; i < calls; i++)
      expect((await client.client.callTool({ name: 'health', arguments: {} })).isError).not.toBe(true);
  }

  it('connections are kept: ten calls over at most three tunnels (https) or connections (http)', async () => {
    const { server, front, proxy } = await setup();
    // The handshake, the SDK's optional GET stream (it stays open) and the calls: a few connections, not one a request.
    await callsThrough(
      {
        OPENVIKING_URL: front.url,
        HTTPS_PROXY: proxy.url,
        NODE_EXTRA_CA_CERTS: TEST_CERT_PATH,
        OPENVIKING_API_KEY: KEY,
      },
      10,
    );
    expect(proxy.log().filter((entry) => entry.kind === 'connect').length).toBeLessThanOrEqual(3);
    proxy.clear();
    await callsThrough({ OPENVIKING_URL: server.url, HTTP_PROXY: proxy.url, OPENVIKING_API_KEY: KEY }, 10);
    expect(proxy.log().filter((entry) => entry.kind === 'forward').length).toBeGreaterThanOrEqual(12);
    expect(proxy.connections()).toBeLessThanOrEqual(3);
  }, 30_000);

  it('a proxy that asks for credentials gets those of the proxy URL, in absolute form and on CONNECT', async () => {
    const { server, front } = await setup();
    const proxy = await startTestProxy({ credentials: 'pxuser:px pass' });
    cleanups.push(() => proxy.close());
    const proxyUrl = proxy.url.replace('http://', 'http://pxuser:px%20pass@');
    await callsThrough({ OPENVIKING_URL: server.url, HTTP_PROXY: proxyUrl }, 1);
    await callsThrough({ OPENVIKING_URL: front.url, HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: TEST_CERT_PATH }, 1);
    const outcomes = new Set(proxy.log().map((entry) => `${entry.kind} ${String(entry.outcome)}`));
    expect([...outcomes].sort()).toEqual(['connect passed', 'forward passed']);
  }, 30_000);

  it('a redirect to another origin is not followed: the key never reaches it', async () => {
    const { server, proxy } = await setup();
    const seen: Array<string | undefined> = [];
    const redirector: Server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      res.writeHead(307, { location: `${server.url}/mcp`, 'content-length': '0' }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => redirector.close(() => resolve())));
    const moved = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/mcp`;
    await expect(
      callsThrough(
        { OPENVIKING_URL: server.url, OPENVIKING_MCP_URL: moved, HTTP_PROXY: proxy.url, OPENVIKING_API_KEY: KEY },
        1,
      ),
    ).rejects.toThrow(/returned HTTP 307/);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((header) => header === `Bearer ${KEY}`)).toBe(true);
    expect(proxy.log().some((entry) => entry.target === moved)).toBe(true);
    expect(server.requests({ path: '/mcp' })).toEqual([]);
  }, 30_000);
});
