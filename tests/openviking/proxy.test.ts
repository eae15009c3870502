/**
 * Corporate proxies (DESIGN D20, issue 15 item 6): the environment rules
 * (src/openviking/proxy.ts) and the socket transport through a real
 * forward proxy on loopback (tests/support/http-proxy): absolute form for
 * http, CONNECT for https with the server's certificate still verified,
 * Basic proxy credentials, NO_PROXY, and every failure a bounded rejection.
 *
 * @module
 */
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyRoute, proxySettings } from '../../src/openviking/proxy.js';
import {
  createSocketHttpTransport,
  socketHttpTransport,
  socketHttpTransportFor,
} from '../../src/openviking/socketHttp.js';
import { transportFailureKind } from '../../src/openviking/transportError.js';
import { startTestProxy } from '../support/http-proxy/index.js';
import type { TestProxy } from '../support/http-proxy/index.js';
import { startOvServer } from '../support/ov-server/index.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { startTlsFront } from '../support/tls/index.js';
import type { TlsFront } from '../support/tls/index.js';

/** The proxy chosen for `url` under `env`, as a string ('' for direct). */
function routeOf(url: string, env: Record<string, string>): string {
  const route = proxyRoute(new URL(url), proxySettings(env));
  return route === undefined ? '' : route.proxy.href;
}

describe('which proxy: the curl / undici EnvHttpProxyAgent rules', () => {
  it('no proxy variable: no settings at all (nothing runs per request), and the shared default transport', () => {
    expect(proxySettings({ PATH: '/bin', NO_PROXY: 'x' })).toBeUndefined();
    expect(socketHttpTransportFor({ PATH: '/bin' })).toBe(socketHttpTransport);
    expect(socketHttpTransportFor({ HTTPS_PROXY: 'http://p:3128' })).not.toBe(socketHttpTransport);
  });

  it('http targets use http_proxy / HTTP_PROXY, https targets https_proxy / HTTPS_PROXY, lower case first', () => {
    const env = { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:2', HTTPS_PROXY: 'http://secure:3' };
    expect(routeOf('http://ov.example:1933/api', env)).toBe('http://lower:2/');
    expect(routeOf('https://ov.example/api', env)).toBe('http://secure:3/');
    expect(routeOf('http://ov.example/api', { HTTP_PROXY: 'http://upper:1' })).toBe('http://upper:1/');
    // A set-but-empty lower-case variable means none (undici's `??`).
    expect(routeOf('http://ov.example/api', { http_proxy: '', HTTP_PROXY: 'http://upper:1' })).toBe('');
  });

  it('https falls back to the http proxy (undici), and either to all_proxy / ALL_PROXY (curl)', () => {
    expect(routeOf('https://ov.example/', { HTTP_PROXY: 'http://p:8080' })).toBe('http://p:8080/');
    expect(routeOf('https://ov.example/', { ALL_PROXY: 'http://all:1' })).toBe('http://all:1/');
    expect(routeOf('http://ov.example/', { all_proxy: 'http://all:2', ALL_PROXY: 'http://all:1' })).toBe(
      'http://all:2/',
    );
    expect(routeOf('https://ov.example/', { HTTPS_PROXY: 'https://tls-proxy:443' })).toBe('https://tls-proxy/');
  });

  it('a proxy without a scheme is http:// (curl); its user and password become Basic Proxy-Authorization', () => {
    expect(routeOf('http://ov.example/', { HTTP_PROXY: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    const route = proxyRoute(
      new URL('http://ov.example/'),
      proxySettings({ HTTP_PROXY: 'http://alice:p%40ss@proxy.corp:3128' }),
    );
    expect(route?.authorization).toBe(`Basic ${Buffer.from('alice:p@ss').toString('base64')}`);
    expect(route?.proxy.href).toBe('http://proxy.corp:3128/'); // credentials never in the proxy URL we keep
  });

  it('NO_PROXY: exact host, subdomains, leading dot or *., host:port, IPv6 with or without brackets, * alone; loopback not exempt unless listed', () => {
    const proxy = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    const direct = (url: string, noProxy: string) => routeOf(url, { ...proxy, NO_PROXY: noProxy }) === '';
    expect(direct('https://ov.corp.example/', 'corp.example')).toBe(true);
    expect(direct('https://corp.example/', 'corp.example')).toBe(true);
    expect(direct('https://notcorp.example/', 'corp.example')).toBe(false);
    expect(direct('https://a.corp.example/', '.corp.example')).toBe(true);
    expect(direct('https://a.corp.example/', '*.corp.example')).toBe(true);
    expect(direct('http://ov.local:1933/', 'ov.local:1933')).toBe(true);
    expect(direct('http://ov.local:8080/', 'ov.local:1933')).toBe(false);
    expect(direct('https://ov.local/', 'ov.local:443')).toBe(true);
    expect(direct('http://[::1]:1933/', '::1')).toBe(true);
    expect(direct('http://[::1]:1933/', '[::1]:1933')).toBe(true);
    expect(direct('http://OV.Example/', 'other.example, ov.example')).toBe(true);
    expect(direct('http://a.example/', 'x.example\tb.example  a.example')).toBe(true);
    expect(direct('https://anything/', '*')).toBe(true);
    expect(direct('http://127.0.0.1:1933/', '')).toBe(false);
    expect(direct('http://127.0.0.1:1933/', 'localhost')).toBe(false);
    expect(direct('http://127.0.0.1:1933/', '127.0.0.1')).toBe(true);
    expect(routeOf('http://ov.example/', { ...proxy, no_proxy: 'other', NO_PROXY: 'ov.example' })).not.toBe('');
  });

  it('NO_PROXY address ranges (CIDR, as curl): IPv4 and IPv6 targets inside go direct; names never match a range', () => {
    const proxy = { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' };
    const direct = (url: string, noProxy: string) => routeOf(url, { ...proxy, NO_PROXY: noProxy }) === '';
    expect(direct('http://10.1.2.3:1933/', '10.0.0.0/8')).toBe(true);
    expect(direct('http://11.0.0.1:1933/', '10.0.0.0/8')).toBe(false);
    expect(direct('http://192.168.7.9/', 'example.com, 192.168.0.0/16')).toBe(true);
    expect(direct('http://192.169.0.1/', '192.168.0.0/16')).toBe(false);
    expect(direct('http://172.20.0.5/', '172.16.0.0/12')).toBe(true);
    expect(direct('http://172.32.0.5/', '172.16.0.0/12')).toBe(false);
    expect(direct('http://10.0.0.1/', '10.0.0.1/32')).toBe(true);
    expect(direct('http://10.0.0.2/', '10.0.0.1/32')).toBe(false);
    expect(direct('http://8.8.8.8/', '0.0.0.0/0')).toBe(true);
    expect(direct('http://ov.example/', '0.0.0.0/0')).toBe(false); // a name is not resolved to match a range
    expect(direct('http://[fd12:3456::1]:1933/', 'fd00::/8')).toBe(true);
    expect(direct('http://[fe80::1]/', 'fd00::/8')).toBe(false);
    expect(direct('http://[::1]/', '::1/128')).toBe(true);
    expect(direct('http://[2001:db8::ffff:0:1]/', '2001:db8::/32')).toBe(true);
    expect(direct('http://[2001:db9::1]/', '2001:db8::/32')).toBe(false);
    expect(direct('http://[::1]/', '0:0:0:0:0:0:0:1')).toBe(true); // an address entry matches any spelling of it
    expect(direct('http://10.1.2.3/', '::/0')).toBe(false); // families never mix
    expect(direct('http://[::ffff:10.1.2.3]/', '10.0.0.0/8')).toBe(false);
    expect(direct('http://10.1.2.3/', '10.0.0.0/33')).toBe(false); // not a range: compared as a name
    expect(direct('http://10.1.2.3/', '300.0.0.0/8')).toBe(false);
  });

  it('a socks or unparsable proxy is an error, never a silent direct connection', () => {
    expect(() => routeOf('https://ov.example/', { ALL_PROXY: 'socks5://127.0.0.1:1080' })).toThrow(
      /unsupported proxy scheme socks5:/,
    );
    expect(() => routeOf('https://ov.example/', { HTTPS_PROXY: 'http://us er:pw@[bad' })).toThrow(/invalid proxy URL/);
    expect(() => routeOf('https://ov.example/', { HTTPS_PROXY: 'http://us er:pw@[bad' })).not.toThrow(/pw/);
  });
});

describe('the socket transport through a real proxy', () => {
  let server: OvTestServer;
  let front: TlsFront;
  let proxy: TestProxy;
  let authProxy: TestProxy;
  let refusing: TestProxy;
  let silent: NetServer;
  let silentUrl: string;

  beforeAll(async () => {
    server = await startOvServer();
    front = await startTlsFront(Number(new URL(server.url).port));
    proxy = await startTestProxy();
    authProxy = await startTestProxy({ credentials: 'alice:s3cret' });
    refusing = await startTestProxy({ refuseConnect: true });
    silent = createNetServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const closable of [proxy, authProxy, refusing, front]) await closable.close();
    silent.close();
    await server.close();
  });

  const get = (url: string, env: Record<string, string>, timeoutMs = 3_000) =>
    createSocketHttpTransport({ proxy: proxySettings(env) })({
      method: 'GET',
      url,
      headers: { 'X-Probe': '1' },
      timeoutMs,
    });

  it('http: the request goes to the proxy in absolute form, and the answer comes back', async () => {
    proxy.clear();
    const response = await get(`${server.url}/health`, { HTTP_PROXY: proxy.url });
    expect(response.status).toBe(200);
    expect(proxy.log()).toMatchObject([
      { kind: 'forward', method: 'GET', target: `${server.url}/health`, outcome: 'passed' },
    ]);
    expect(proxy.log()[0]?.headers.host).toBe(new URL(server.url).host);
  });

  it('http: proxy credentials from the URL are sent as Proxy-Authorization (and a missing one is the proxy\u2019s 407)', async () => {
    authProxy.clear();
    const withUser = new URL(authProxy.url);
    withUser.username = 'alice';
    withUser.password = 's3cret';
    expect((await get(`${server.url}/health`, { HTTP_PROXY: withUser.href })).status).toBe(200);
    expect((await get(`${server.url}/health`, { HTTP_PROXY: authProxy.url })).status).toBe(407);
    expect(authProxy.log().map((entry) => entry.outcome)).toEqual(['passed', 407]);
  });

  it('https: a CONNECT tunnel, and the server certificate is still verified inside it (self-signed → refused)', async () => {
    proxy.clear();
    const failure = await get(`${front.url}/health`, { HTTPS_PROXY: proxy.url }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/self[- ]signed|certificate/i);
    expect(transportFailureKind(failure)).toBe('network');
    expect(proxy.log()).toMatchObject([{ kind: 'connect', target: `127.0.0.1:${front.port}`, outcome: 'passed' }]);
  });

  it('https: CONNECT carries the proxy credentials; a refused CONNECT is a network failure naming the status', async () => {
    authProxy.clear();
    const withUser = authProxy.url.replace('http://', 'http://alice:s3cret@');
    await get(`${front.url}/health`, { HTTPS_PROXY: withUser }).catch(() => undefined);
    expect(authProxy.log()).toMatchObject([{ kind: 'connect', outcome: 'passed' }]);
    await expect(get(`${front.url}/health`, { HTTPS_PROXY: refusing.url })).rejects.toThrow(
      /refused CONNECT 127\.0\.0\.1:\d+: status 403/,
    );
  });

  it('https: a proxy that never answers CONNECT costs at most the request timeout', async () => {
    const started = Date.now();
    const failure = await get(`${front.url}/health`, { HTTPS_PROXY: silentUrl }, 400).catch((error: unknown) => error);
    expect(transportFailureKind(failure)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('NO_PROXY naming the server: direct, the proxy sees nothing', async () => {
    proxy.clear();
    expect(
      (await get(`${server.url}/health`, { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' })).status,
    ).toBe(200);
    expect(proxy.log()).toEqual([]);
  });

  it('a socks proxy fails the request (kind network) instead of going around it', async () => {
    await expect(get(`${server.url}/health`, { ALL_PROXY: 'socks5://127.0.0.1:1' })).rejects.toThrow(
      /unsupported proxy scheme/,
    );
  });
});
