/**
 * The MCP proxy's `fetch`, through the proxy the environment names
 * (DESIGN D20): the same rules as the hooks (openviking/proxy.ts) and the
 * same connections (openviking/proxyTunnel.ts), so a NO_PROXY entry, a socks
 * ALL_PROXY or a server's certificate means the same in every process of the
 * plugin.
 *
 * Node 20's global `fetch` ignores HTTP(S)_PROXY. When a request must go
 * through a proxy, it goes through node's own HTTP client (`node:http`, in
 * core) on connections the plugin's tunnel opens: to the proxy itself for
 * an http target, the request in absolute form (as curl); a CONNECT tunnel
 * and TLS to the server inside it for an https target, the server's
 * identity verified as a direct connection would be (node's CAs plus
 * NODE_EXTRA_CA_CERTS; `tunnelTls`). Connections are kept and reused per
 * proxy and target; bodies stream (the SDK reads SSE replies as they come);
 * a call's signal aborts its request. A redirect is answered as it came:
 * the SDK asks `redirect: 'manual'` and follows one within the origin itself
 * (its `redirectPolicy`). Without a proxy variable the global
 * `fetch` is used as before, at no cost. DESIGN D41: this replaced undici's
 * `ProxyAgent`, a second proxy and TLS stack in a 1 MB chunk.
 *
 * @module
 */
import type { Agent, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { proxyRoute, proxySettings } from '../openviking/proxy.js';
import type { ProxyRoute } from '../openviking/proxy.js';
import { transportFailureCause } from '../openviking/transportError.js';
import { errorCode, errorMessage } from '../util/errors.js';
import type { FetchLike } from './sdkSession.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The longest a tunnel may take to open; a call's own deadline aborts it sooner. */
const TUNNEL_OPEN_MS = 30_000;
/** Statuses whose answer has no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** `fetch` for `env`: the global one when no proxy variable is set, else a proxy-aware one. */
export function proxyAwareFetch(env: Env, direct: FetchLike): FetchLike {
  const settings = proxySettings(env);
  if (settings === undefined) return direct;
  const agents = new Map<string, Promise<Agent>>();
  const proxied: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    const route = proxyRoute(url, settings); // throws for a proxy we cannot speak: the call fails, it never goes around it
    if (route === undefined) return direct(input, init);
    // One pool per proxy (and, through a tunnel, per server): a connection is only ever reused for the same route.
    const key = `${route.proxy.href} ${route.authorization ?? ''} ${url.protocol === 'https:' ? url.host : ''}`;
    let agent = agents.get(key);
    if (agent === undefined) {
      agent = agentFor(url, route);
      agents.set(key, agent);
    }
    return request(url, route, init ?? {}, await agent);
  };
  return proxied;
}

/** A keep-alive agent whose connections the plugin's tunnel opens: to the proxy (http), or through it (https). */
async function agentFor(url: URL, route: ProxyRoute): Promise<Agent> {
  const [{ Agent: HttpAgent }, tunnel] = await Promise.all([
    import('node:http'),
    import('../openviking/proxyTunnel.js'),
  ]);
  const open = (): Promise<Socket> =>
    url.protocol === 'https:' ? tunnel.tunnelTls(url, route, TUNNEL_OPEN_MS) : tunnel.connectToProxy(route);
  const agent = new HttpAgent({ keepAlive: true });
  const createConnection = (_options: unknown, done: (error: Error | null, socket?: Socket) => void): undefined => {
    open().then(
      (socket) => done(null, socket),
      (error: unknown) => done(withCode(error)),
    );
    return undefined;
  };
  Object.assign(agent, { createConnection });
  return agent;
}

/** One request on `agent`, answered as a streaming `Response`; rejects as `fetch` does. */
async function request(url: URL, route: ProxyRoute, init: RequestInit, agent: Agent): Promise<Response> {
  const [{ request: httpRequest }, { Readable }] = await Promise.all([import('node:http'), import('node:stream')]);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const viaProxy = url.protocol === 'http:';
  if (viaProxy && route.authorization !== undefined) headers['proxy-authorization'] = route.authorization;
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  // The SDK sends JSON text; anything else is not this proxy's to send.
  if (init.body != null && typeof init.body !== 'string') throw new TypeError('fetch failed: only a text body is sent');
  return new Promise<Response>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        method: init.method ?? 'GET',
        host: url.hostname,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        // Absolute form to the proxy for an http target; origin form inside a tunnel.
        path: viaProxy ? url.href : `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host },
        ...(signal ? { signal } : {}),
      },
      (answer: IncomingMessage) => {
        const status = answer.statusCode ?? 502;
        const body = NULL_BODY.has(status) ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, statusText: answer.statusMessage ?? '', headers: answerHeaders(answer) }));
      },
    );
    outgoing.on('error', (error) => reject(signal?.aborted ? signal.reason : fetchFailed(error)));
    outgoing.end(typeof init.body === 'string' ? init.body : undefined);
  });
}

function answerHeaders(answer: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  return headers;
}

/** How `fetch` fails: a TypeError whose cause is the network's error, with its code (ECONNREFUSED, ERR_TLS_…). */
function fetchFailed(error: unknown): TypeError {
  return new TypeError('fetch failed', { cause: withCode(error) });
}

/** The tunnel's transport errors carry their code as `cause`; `fetch`'s callers read it as `code`. */
function withCode(error: unknown): Error {
  if (errorCode(error) !== undefined) return error as Error;
  const code = transportFailureCause(error);
  return Object.assign(new Error(errorMessage(error)), code === undefined ? {} : { code });
}
