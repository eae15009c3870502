/**
 * The MCP proxy's `fetch`, through the proxy the environment names
 * (DESIGN D20): the same rules as the hooks (openviking/proxy.ts), so a
 * NO_PROXY entry or a socks ALL_PROXY means the same in every process of
 * the plugin.
 *
 * Node 20's global `fetch` ignores HTTP(S)_PROXY. When a request must go
 * through a proxy, it goes through undici's own `fetch` with a
 * `ProxyAgent` (absolute form for http, as curl; CONNECT for https, TLS
 * verified by node's CAs plus NODE_EXTRA_CA_CERTS). undici is loaded then
 * only (a lazy chunk of the server bundle); without a proxy variable the
 * global `fetch` is used as before, at no cost.
 *
 * @module
 */
import type { Dispatcher } from 'undici';
import { proxyRoute, proxySettings } from '../openviking/proxy.js';
import type { ProxyRoute } from '../openviking/proxy.js';
import type { FetchLike } from './sdkSession.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `fetch` for `env`: the global one when no proxy variable is set, else a proxy-aware one. */
export function proxyAwareFetch(env: Env, direct: FetchLike): FetchLike {
  const settings = proxySettings(env);
  if (settings === undefined) return direct;
  const agents = new Map<string, Dispatcher>();
  return async (input, init) => {
    const url = new URL(String(input));
    const route = proxyRoute(url, settings); // throws for a proxy we cannot speak: the call fails, it never goes around it
    if (route === undefined) return direct(input, init);
    const undici = await loadUndici();
    const key = `${route.proxy.href} ${route.authorization ?? ''}`;
    let agent = agents.get(key);
    if (agent === undefined) {
      agent = new undici.ProxyAgent(agentOptions(route));
      agents.set(key, agent);
    }
    // undici's Response is a WHATWG Response like the global one; the SDK reads only its standard surface.
    return (await undici.fetch(url, { ...(init as object), dispatcher: agent } as Parameters<
      typeof undici.fetch
    >[1])) as unknown as Response;
  };
}

type Undici = typeof import('undici');

/** undici is CommonJS: bundled, its namespace may arrive under `default`. */
async function loadUndici(): Promise<Undici> {
  const loaded = (await import('undici')) as Undici & { default?: Undici };
  return typeof loaded.ProxyAgent === 'function' ? loaded : (loaded.default as Undici);
}

function agentOptions(route: ProxyRoute): ConstructorParameters<typeof import('undici').ProxyAgent>[0] {
  return {
    uri: route.proxy.href,
    // Absolute form for http targets (curl's way); https always tunnels.
    proxyTunnel: false,
    ...(route.authorization === undefined ? {} : { token: route.authorization }),
  };
}
