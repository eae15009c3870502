/**
 * Which proxy, if any, a request to the OpenViking server goes through:
 * the environment rules of curl and undici's `EnvHttpProxyAgent`, in one
 * place for the hooks, the resident and the MCP proxy (DESIGN D20).
 *
 * Pure: environment in, decision out. The rules, where curl and undici
 * agree, are theirs; where they differ, the choice is named:
 * - http targets: `http_proxy`, else `HTTP_PROXY` (lower case first, and a
 *   set-but-empty lower-case value means "none", as `??` does in undici);
 * - https targets: `https_proxy`, else `HTTPS_PROXY`, else the http proxy
 *   (undici; curl would go direct);
 * - either, when none of those is set: `all_proxy`, else `ALL_PROXY` (curl;
 *   undici ignores it);
 * - a proxy written without a scheme (`proxy:3128`) is `http://` (curl);
 *   `https://` proxies are reached over TLS; any other scheme (socks) is a
 *   transport error, never a silent direct connection; so is a proxy URL
 *   whose user or password holds an unencoded `/`, `?` or `#` (the URL
 *   parser would take the user's words for the host: `u:12/34@proxy` is
 *   host `u`, port 12), and no error ever shows the user info
 *   (displayUrl.ts);
 * - `no_proxy`, else `NO_PROXY`: entries split on commas and white space;
 *   `*` alone means no proxy at all; an entry `host` or `.host` or `*.host`
 *   matches that host and its subdomains, `host:port` only on that port;
 *   an address entry (`10.1.2.3`, `::1`, `[::1]:1933`) or range (`10.0.0.0/8`,
 *   `fd00::/8`, as curl; undici has none) matches a target written as an
 *   address inside it, in any spelling; host names are never resolved to
 *   match one (ipRange.ts). Loopback is NOT exempt unless listed (neither
 *   curl nor undici exempts it).
 *
 * @module
 */

import { displayUrl } from './displayUrl.js';
import { ipBytes, ipInRange, parseIpRange, type IpRange } from './ipRange.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The proxy variables in force, or undefined when none is set (then nothing else runs per request). */
export interface ProxySettings {
  http?: string;
  https?: string;
  noProxy: readonly NoProxyEntry[];
  /** `NO_PROXY=*`: nothing goes through a proxy. */
  bypassAll: boolean;
}

interface NoProxyEntry {
  host: string;
  /** 0: any port. */
  port: number;
  /** Set when the entry is an address or a CIDR range: then only addresses inside it match. */
  range?: IpRange;
}

/** Where a request is sent when it goes through a proxy. */
export interface ProxyRoute {
  /** The proxy's origin: `http://host:port` or `https://host:port`. */
  proxy: URL;
  /** `Basic …` from the proxy URL's user and password, if any. */
  authorization?: string;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** First defined value, lower case first (undici's `??`). */
function either(env: Env, lower: string, upper: string): string | undefined {
  return env[lower] ?? env[upper];
}

/**
 * Reads the proxy variables once. Cheap (a few property reads), and
 * undefined when no proxy is configured, so a transport without proxies
 * does no per-request work.
 */
export function proxySettings(env: Env): ProxySettings | undefined {
  const http = either(env, 'http_proxy', 'HTTP_PROXY') || undefined;
  const all = either(env, 'all_proxy', 'ALL_PROXY') || undefined;
  const https = either(env, 'https_proxy', 'HTTPS_PROXY') || http;
  if (http === undefined && https === undefined && all === undefined) return undefined;
  const noProxyText = either(env, 'no_proxy', 'NO_PROXY') ?? '';
  const entries = noProxyText.split(/[,\s]+/).filter((entry) => entry !== '');
  return {
    ...((http ?? all) === undefined ? {} : { http: http ?? all }),
    ...((https ?? all) === undefined ? {} : { https: https ?? all }),
    noProxy: entries.filter((entry) => entry !== '*').map(parseNoProxyEntry),
    bypassAll: entries.includes('*'),
  };
}

/**
 * The variable whose proxy a request to a `protocol` (`http:`, `https:`)
 * URL uses, read as `proxySettings` reads them; for messages (doctor).
 */
export function proxyVariableFor(env: Env, protocol: string): string | undefined {
  const named = (lower: string, upper: string): string | undefined =>
    either(env, lower, upper) ? (env[lower] !== undefined ? lower : upper) : undefined;
  const http = named('http_proxy', 'HTTP_PROXY');
  const viaHttp = protocol === 'https:' ? (named('https_proxy', 'HTTPS_PROXY') ?? http) : http;
  return viaHttp ?? named('all_proxy', 'ALL_PROXY');
}

function parseNoProxyEntry(entry: string): NoProxyEntry {
  let host = entry;
  let port = 0;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) {
    host = bracketed[1] ?? '';
    port = Number(bracketed[2] ?? 0);
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    const withPort = /^(.+):(\d+)$/.exec(entry);
    if (withPort !== null) {
      host = withPort[1] ?? '';
      port = Number(withPort[2]);
    }
  }
  const range = parseIpRange(host);
  return { host: host.replace(/^\*?\./, '').toLowerCase(), port, ...(range === undefined ? {} : { range }) };
}

/** The bare host of a URL: lower case, IPv6 without brackets. */
function bareHost(url: URL): string {
  const host = url.hostname.toLowerCase();
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

/** False when NO_PROXY exempts `url`. */
export function shouldProxy(url: URL, settings: ProxySettings): boolean {
  if (settings.bypassAll) return false;
  const host = bareHost(url);
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  const address = settings.noProxy.some((entry) => entry.range !== undefined) ? ipBytes(host) : undefined;
  const exempts = (entry: NoProxyEntry): boolean => {
    if (entry.port !== 0 && entry.port !== port) return false;
    if (entry.range !== undefined) return address !== undefined && ipInRange(address, entry.range);
    return host === entry.host || host.endsWith(`.${entry.host}`);
  };
  return !settings.noProxy.some(exempts);
}

/**
 * The route for `target`, or undefined to connect directly.
 * @throws Error with `unsupported` set for a proxy this client cannot speak (socks) or cannot parse.
 */
export function proxyRoute(target: URL, settings: ProxySettings | undefined): ProxyRoute | undefined {
  if (settings === undefined) return undefined;
  const text = target.protocol === 'https:' ? settings.https : settings.http;
  if (text === undefined || !shouldProxy(target, settings)) return undefined;
  const proxy = parseProxyUrl(text);
  const authorization =
    proxy.username === '' && proxy.password === ''
      ? undefined
      : `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
  return { proxy: new URL(proxy.origin), ...(authorization === undefined ? {} : { authorization }) };
}

function parseProxyUrl(text: string): URL {
  const unusable = (why: string) =>
    Object.assign(new Error(`${why} (proxy ${displayUrl(text)} in the environment)`), { unsupported: true });
  let url: URL;
  try {
    url = new URL(text.includes('://') ? text : `http://${text}`);
  } catch {
    throw unusable('invalid proxy URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw unusable(`unsupported proxy scheme ${url.protocol} (only http:// and https:// proxies)`);
  if (`${url.pathname}${url.search}${url.hash}`.includes('@'))
    throw unusable('invalid proxy URL: its user or password holds an unencoded "/", "?" or "#" (percent-encode them)');
  return url;
}
