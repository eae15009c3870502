/**
 * Proxies as shipped (DESIGN D20, issue 15 item 6): the BUILT hook and the
 * resident helper, run by the host simulator with HTTPS_PROXY / HTTP_PROXY
 * pointing at a real proxy on loopback, reach an https OpenViking server
 * through a CONNECT tunnel and trust it only through NODE_EXTRA_CA_CERTS.
 *
 * @module
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contextOf, createWorld, DEFAULT_SEED, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { startTestProxy } from '../support/http-proxy/index.js';
import { startOvServer } from '../support/ov-server/index.js';
import { recallAnsweredBy, residentsListening } from '../support/resident.js';
import { startTlsFront, TEST_CA_PATH, TEST_CERT_PATH, testCertificate } from '../support/tls/index.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: { https: boolean; resident: boolean }) {
  const server = await startOvServer({ seed: DEFAULT_SEED });
  cleanups.push(() => server.close());
  const front = await startTlsFront(Number(new URL(server.url).port));
  cleanups.push(() => front.close());
  const proxy = await startTestProxy();
  cleanups.push(() => proxy.close());
  const url = options.https ? front.url : server.url;
  const env = {
    OPENVIKING_URL: url,
    OPENVIKING_DEBUG: '1',
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    NODE_EXTRA_CA_CERTS: TEST_CERT_PATH,
  };
  const w: World = await createWorld({ sharedServer: server, resident: options.resident, env });
  cleanups.push(() => w.dispose());
  const prompt = (text = RECALL_PROMPT, extra?: Record<string, string>) =>
    w.sim.fire('UserPromptSubmit', w.payloads().userPromptSubmit(text), extra ? { env: extra } : {});
  return { server, front, proxy, w, prompt };
}

describe('hooks behind a proxy', () => {
  it('https server: the prompt hook tunnels through the proxy (CONNECT), verifying the certificate via NODE_EXTRA_CA_CERTS', async () => {
    const { proxy, front, prompt } = await setup({ https: true, resident: false });
    expect(contextOf(await prompt())).toContain(RECALL_MARKER);
    expect(proxy.log()).toContainEqual(
      expect.objectContaining({ kind: 'connect', target: `127.0.0.1:${front.port}`, outcome: 'passed' }),
    );
    // Without the extra CA, the same tunnel reaches a server whose certificate does not verify: no memories.
    proxy.clear();
    expect(contextOf(await prompt(RECALL_PROMPT, { NODE_EXTRA_CA_CERTS: '' }))).not.toContain(RECALL_MARKER);
    expect(proxy.log().map((entry) => entry.kind)).toContain('connect');
  }, 20_000);

  it('http server: the request goes to the proxy in absolute form; NO_PROXY naming the server or its range goes direct', async () => {
    const { proxy, server, prompt } = await setup({ https: false, resident: false });
    expect(contextOf(await prompt())).toContain(RECALL_MARKER);
    expect(proxy.log().some((entry) => entry.kind === 'forward' && entry.target.startsWith(`${server.url}/api/`))).toBe(
      true,
    );
    proxy.clear();
    expect(contextOf(await prompt(RECALL_PROMPT, { NO_PROXY: '127.0.0.1' }))).toContain(RECALL_MARKER);
    expect(proxy.log()).toEqual([]);
    expect(contextOf(await prompt(RECALL_PROMPT, { NO_PROXY: '10.0.0.0/8, 127.0.0.0/8' }))).toContain(RECALL_MARKER);
    expect(proxy.log()).toEqual([]);
  }, 20_000);

  it('an https:// proxy is itself reached over verified TLS (NODE_EXTRA_CA_CERTS), then forwards as usual', async () => {
    const { proxy, server, prompt } = await setup({ https: false, resident: false });
    const tlsProxy = await startTlsFront(Number(new URL(proxy.url).port));
    cleanups.push(() => tlsProxy.close());
    proxy.clear();
    expect(contextOf(await prompt(RECALL_PROMPT, { HTTP_PROXY: tlsProxy.url }))).toContain(RECALL_MARKER);
    expect(tlsProxy.handshakes()).toBeGreaterThan(0);
    expect(proxy.log().some((entry) => entry.kind === 'forward' && entry.target.startsWith(`${server.url}/api/`))).toBe(
      true,
    );
    // Not trusted: the proxy's certificate is refused, nothing is forwarded.
    proxy.clear();
    expect(contextOf(await prompt(RECALL_PROMPT, { HTTP_PROXY: tlsProxy.url, NODE_EXTRA_CA_CERTS: '' }))).not.toContain(
      RECALL_MARKER,
    );
    expect(proxy.log()).toEqual([]);
  }, 20_000);

  it('the resident helper, started with the proxy variables, recalls through the proxy too', async () => {
    const { proxy, w, prompt } = await setup({ https: true, resident: true });
    await prompt('hi');
    await residentsListening(w.dataDir);
    proxy.clear();
    const firedAt = Date.now();
    expect(contextOf(await prompt())).toContain(RECALL_MARKER);
    expect(await recallAnsweredBy(w.dataDir, firedAt)).toBe('resident');
    expect(proxy.log().map((entry) => entry.kind)).toContain('connect');
  }, 20_000);
});

/**
 * Issue 20 item 1: TLS inside the tunnel is checked against the SERVER's own
 * host, here an address, never the proxy's name. The proxy is reached as
 * `localhost` and the server as `127.0.0.1`; both certificates come from one
 * CA trusted through NODE_EXTRA_CA_CERTS. On 8e37669 node checked the
 * tunnel's certificate against the socket's host (the proxy, `localhost`):
 * the impersonating proxy read the key, and the honest setup was refused.
 */
describe('TLS identity inside the tunnel', () => {
  const API_KEY = 'ovk-tunnel-identity-KEY-0123456789';

  async function identityWorld(
    proxyOptions: Parameters<typeof startTestProxy>[0],
    frontIdentity: 'ip-only' | 'localhost-only',
  ) {
    const server = await startOvServer({ seed: DEFAULT_SEED });
    cleanups.push(() => server.close());
    const front = await startTlsFront(Number(new URL(server.url).port), frontIdentity);
    cleanups.push(() => front.close());
    const proxy = await startTestProxy({ urlHost: 'localhost', ...proxyOptions });
    cleanups.push(() => proxy.close());
    const env = {
      OPENVIKING_URL: front.url,
      OPENVIKING_API_KEY: API_KEY,
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: TEST_CA_PATH,
    };
    const w = await createWorld({ sharedServer: server, env });
    cleanups.push(() => w.dispose());
    const prompt = () => w.sim.fire('UserPromptSubmit', w.payloads().userPromptSubmit(RECALL_PROMPT));
    return { proxy, front, prompt, w };
  }

  it('a proxy answering CONNECT itself with a certificate valid only for localhost (its own name) is refused and never sees the key', async () => {
    const { proxy, prompt, w } = await identityWorld({ impersonate: testCertificate('localhost-only') }, 'ip-only');
    expect(front127(proxy.log())).toBe(true);
    const result = await prompt();
    expect(result.timedOut).toBe(false);
    expect(contextOf(result)).not.toContain(RECALL_MARKER);
    expect(proxy.log()).toContainEqual(expect.objectContaining({ kind: 'connect', outcome: 'impersonated' }));
    expect(proxy.plaintext()).not.toContain(API_KEY);
    expect(proxy.plaintext()).toBe('');
    // The session start reads (profile, listings) go the same way.
    await w.sim.fire('SessionStart', w.payloads().sessionStart('startup'));
    expect(proxy.plaintext()).toBe('');
  }, 20_000);

  it('an honest proxy and a server certificate for IP:127.0.0.1 only: accepted', async () => {
    const { proxy, front, prompt } = await identityWorld({}, 'ip-only');
    expect(contextOf(await prompt())).toContain(RECALL_MARKER);
    expect(proxy.log()).toContainEqual(
      expect.objectContaining({ kind: 'connect', target: `127.0.0.1:${front.port}`, outcome: 'passed' }),
    );
  }, 20_000);

  it('an honest proxy and a server certificate for localhost only, the server named by address: refused (the name is not the address)', async () => {
    const { prompt } = await identityWorld({}, 'localhost-only');
    expect(contextOf(await prompt())).not.toContain(RECALL_MARKER);
  }, 20_000);
});

/** Every tunnel is asked for the server's address (the test's own sanity check: the proxy's name is `localhost`). */
function front127(log: ReturnType<Awaited<ReturnType<typeof startTestProxy>>['log']>): boolean {
  return log.every((entry) => entry.target.startsWith('127.0.0.1:'));
}
