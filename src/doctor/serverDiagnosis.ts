/**
 * Why the server did not answer doctor's `/health`, in the user's terms:
 * each kind of failure with its own diagnosis and its own exact fix, naming
 * the configured thing (the URL as written and where it was set, the proxy
 * and its variable, a configuration file that could not be read). Issue 30
 * item 4: every failure used to get one paragraph that began with
 * installing a server, and a TLS failure printed raw OpenSSL text.
 *
 * The install steps are the fix only when nothing is configured and
 * nothing answers at the default address; a failure behind a proxy names
 * the proxy first, since the plugin never reached anything else.
 *
 * @module
 */
import type { Credentials, PluginConfig } from '../config/types.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { proxyRoute, proxySettings, proxyVariableFor } from '../openviking/proxy.js';
import type { OvFailure } from '../openviking/types.js';
import { maskSecret } from './mask.js';
import { describeSource } from './sources.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What a failed `/health` means here, and what to do. */
export interface Diagnosis {
  /** Stable name of the kind, for `--json` and tests. */
  kind: string;
  lines: string[];
  fix: string;
  /** True when the fix is to run a server here (nothing configured, nothing answers). */
  install?: true;
}

/** The steps that bring up a server on this machine: only for a user with nothing configured (see the header). */
export const INSTALL_FIX =
  'No server yet? Run one here: `pip install openviking` (Python 3.10+), put your embedding and VLM model keys in ~/.openviking/ov.conf ' +
  '("embedding": {"dense": {provider, api_base, api_key, model, dimension}} and "vlm": {provider, api_base, api_key, model}), then run `openviking-server` ' +
  "(it listens on http://127.0.0.1:1933, the plugin's default). Or point the plugin at yours: " +
  'set OPENVIKING_URL (plus OPENVIKING_API_KEY with a user key for a remote server), or the plugin options server_url / api_key ' +
  '(asked when the plugin is enabled; kept in ~/.codebuddy/settings.json and credentials.json), or write ~/.openviking/ovcli.conf as {"url": "https://…", "api_key": "…"}.';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
/** OpenSSL's answer when the other side speaks plain HTTP to a TLS client. */
const PLAIN_HTTP_CODES = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO']);
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The diagnosis of a failed `/health` against the configuration in use: the first kind that applies, else a plain network failure. */
export function diagnoseHealthFailure(config: PluginConfig, failure: OvFailure, env: Env): Diagnosis {
  const attempt = healthAttempt(config, failure, env);
  return FAILURE_KINDS.find((kind) => kind.applies(attempt))?.diagnose(attempt) ?? networkFailure(attempt);
}

/** What every diagnosis names: the URL as written and where it came from, the proxy on the way, the failure. */
interface HealthAttempt {
  failure: OvFailure;
  /** The failure's error code (`ECONNREFUSED`), or empty. */
  cause: string;
  baseUrl: string;
  url: URL;
  /** The URL as shown to the user. */
  shown: string;
  /** `host:port`, the port filled in from the scheme. */
  where: string;
  fromDefault: boolean;
  refused: Credentials['refused'];
  /** Where the URL came from, as a line. */
  origin: string;
  /** How to change the URL, as a clause. */
  correct: string;
  /** The proxy the request went through, if any. */
  route: { proxy: URL } | undefined;
  variable: string;
  proxy: string;
  /** The API key sent, and where it was configured (a wrong key is refused even on /health: F30). */
  apiKey: string | undefined;
  apiKeySource: string;
}

function healthAttempt(config: PluginConfig, failure: OvFailure, env: Env): HealthAttempt {
  const { baseUrl, sources, refused, apiKey } = config.credentials;
  const shown = displayUrl(baseUrl, true);
  const url = new URL(baseUrl);
  const fromDefault = sources.baseUrl === 'default';
  const source = fromDefault ? 'the default' : describeSource(sources.baseUrl ?? 'default');
  const route = routeOf(url, env);
  return {
    failure,
    cause: failure.cause ?? '',
    baseUrl,
    url,
    shown,
    where: `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`,
    fromDefault,
    refused,
    origin: fromDefault ? defaultOrigin(refused) : `the URL is ${shown}, from ${source}`,
    correct: fromDefault
      ? 'set the server URL (OPENVIKING_URL, or "url" in ~/.openviking/ovcli.conf)'
      : `correct ${source}`,
    route,
    variable: proxyVariableFor(env, url.protocol) ?? 'the proxy variables',
    proxy: route === undefined ? '' : displayUrl(route.proxy.href),
    apiKey: apiKey?.trim() ? apiKey : undefined,
    apiKeySource: describeSource(sources.apiKey ?? 'default'),
  };
}

/** Why the plugin tried the default URL: nothing configured, or configuration files it could not read. */
function defaultOrigin(refused: Credentials['refused']): string {
  return refused !== undefined && refused.length > 0
    ? `no usable URL is configured (${refused.map((file) => file.path).join(', ')} could not be read: see Configuration), so the plugin tried the default`
    : 'no server URL is configured, so the plugin tried the default';
}

/** One kind of failure: when it applies, and its diagnosis. */
interface FailureKind {
  applies: (attempt: HealthAttempt) => boolean;
  diagnose: (attempt: HealthAttempt) => Diagnosis;
}

/**
 * The kinds in the order they are told apart: an HTTP answer first (the proxy's own 5xx before the
 * server's), then a proxy on the way (the plugin reached nothing else), then the connection's error
 * codes. What none of them takes is a plain network failure (`networkFailure`).
 */
const FAILURE_KINDS: readonly FailureKind[] = [
  { applies: (a) => a.failure.status >= 500 && a.route !== undefined, diagnose: proxyUpstream },
  { applies: (a) => a.failure.status > 0, diagnose: httpAnswer },
  { applies: (a) => a.route !== undefined, diagnose: proxyDown },
  { applies: (a) => DNS_CODES.has(a.cause), diagnose: dnsFailure },
  { applies: (a) => a.url.protocol === 'https:' && PLAIN_HTTP_CODES.has(a.cause), diagnose: plainHttp },
  { applies: (a) => CERTIFICATE_CODES.has(a.cause), diagnose: untrustedCertificate },
  { applies: (a) => a.cause === 'ECONNREFUSED', diagnose: connectionRefused },
  { applies: (a) => a.failure.code === 'TIMEOUT' || a.failure.code === 'DEADLINE', diagnose: timedOut },
];

function proxyUpstream({ failure, url, shown, origin, variable, proxy }: HealthAttempt): Diagnosis {
  return {
    kind: 'proxy-upstream',
    lines: [
      `the proxy ${proxy} (from ${variable}) answered HTTP ${failure.status} for ${shown}/health: it could not reach the server, or the server fails`,
      origin,
    ],
    fix: `Check that the server at ${shown} is up; if this machine reaches it but the proxy does not, add ${url.hostname} to NO_PROXY.`,
  };
}

function proxyDown({ failure, url, shown, origin, variable, proxy }: HealthAttempt): Diagnosis {
  const host = url.hostname;
  const exempt = ['localhost', '127.0.0.1', '::1', '[::1]'].includes(host)
    ? [...new Set([host, 'localhost', '127.0.0.1'])].join(',')
    : host;
  return {
    kind: 'proxy',
    lines: [
      `the request to ${shown} goes through the proxy ${proxy} (from ${variable}), which ${proxyFailure(failure)}`,
      origin,
    ],
    fix: `Start the proxy at ${proxy}, or let the plugin reach ${host} directly: add it to NO_PROXY (e.g. NO_PROXY=${exempt}), in the environment the host starts with.`,
  };
}

function dnsFailure({ cause, url, shown, origin, correct }: HealthAttempt): Diagnosis {
  return {
    kind: 'dns',
    lines: [`the host name ${url.hostname} does not resolve (${cause}): no address was found for it`, origin],
    fix: `Check the host name in ${shown} and ${correct}; a name that only a VPN or an internal DNS knows needs that network.`,
  };
}

function plainHttp({ baseUrl, where, origin, fromDefault, correct }: HealthAttempt): Diagnosis {
  const plain = displayUrl(baseUrl.replace(/^https:/i, 'http:'), true);
  return {
    kind: 'tls-plain-http',
    lines: [`${where} does not speak TLS: it answered an https request with plain HTTP`, origin],
    fix: `Use ${plain} (http://, not https://): ${fromDefault ? 'set it as the server URL' : correct}.`,
  };
}

function untrustedCertificate({ cause, where, origin, correct }: HealthAttempt): Diagnosis {
  return {
    kind: 'tls-certificate',
    lines: [`the TLS certificate of ${where} is not trusted here (${cause})`, origin],
    fix: `If the server's certificate comes from a private CA, give its PEM file as NODE_EXTRA_CA_CERTS in the environment the host starts with; if the host name does not match the certificate, ${correct}.`,
  };
}

/** Nothing listens: the install steps only when nothing is configured (see the header). */
function connectionRefused({ shown, where, origin, fromDefault, refused, correct }: HealthAttempt): Diagnosis {
  if (fromDefault && (refused === undefined || refused.length === 0))
    return {
      kind: 'nothing-configured',
      lines: [`nothing answers at ${shown} (connection refused)`, origin],
      fix: INSTALL_FIX,
      install: true,
    };
  return {
    kind: 'refused',
    lines: [`nothing listens at ${where} (connection refused)`, origin],
    fix: fromDefault
      ? `Fix ${refused?.map((file) => file.path).join(' and ')} first (see Configuration): until it reads, the plugin does not know your server.`
      : `Start the OpenViking server at ${shown}, or ${correct}.`,
  };
}

function timedOut({ failure, shown, where, origin, correct }: HealthAttempt): Diagnosis {
  return {
    kind: 'timeout',
    lines: [
      `${shown} did not answer in time (${failure.code === 'TIMEOUT' ? 'timed out' : "doctor's time ran out"})`,
      origin,
    ],
    fix: `Check that the server at ${shown} is up and that nothing (a firewall, a VPN) drops traffic to ${where}; or ${correct}.`,
  };
}

function networkFailure({ cause, shown, where, origin, correct }: HealthAttempt): Diagnosis {
  return {
    kind: 'network',
    lines: [`the connection to ${where} failed (${cause || 'no answer'})`, origin],
    fix: `Check that ${shown} is an OpenViking server reachable from this machine, or ${correct}.`,
  };
}

function routeOf(url: URL, env: Env): { proxy: URL } | undefined {
  try {
    return proxyRoute(url, proxySettings(env));
  } catch {
    // An unusable proxy variable: the transport's own message says which.
    return undefined;
  }
}

function proxyFailure(failure: OvFailure): string {
  switch (failure.cause) {
    case 'ECONNREFUSED':
      return 'refuses connections (nothing listens there)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `does not resolve (${failure.cause})`;
    default:
      if (failure.code === 'TIMEOUT' || failure.code === 'DEADLINE') return 'did not answer in time';
      return `failed (${failure.cause ?? 'no answer'})`;
  }
}

/** The server answered, but not 200: what its status says. */
function httpAnswer(attempt: HealthAttempt): Diagnosis {
  const { failure, url, shown, origin, correct } = attempt;
  const { status } = failure;
  const path = url.pathname.replace(/\/+$/, '');
  if (status === 404 && path !== '')
    return {
      kind: 'wrong-path',
      lines: [
        `${shown}/health answered HTTP 404: the URL has the path ${path}, and OpenViking answers at the root of its address`,
        origin,
      ],
      fix: `Write ${url.origin} (without ${path}): ${correct}.`,
    };
  if (status === 401 && attempt.apiKey !== undefined)
    return {
      kind: 'key-refused',
      lines: [
        `${shown}/health refused the API key ${maskSecret(attempt.apiKey)} (HTTP 401 ${failure.code}: ${failure.message}): the server does not know this key`,
        `the key is from ${attempt.apiKeySource}; ${origin}`,
      ],
      fix: `Replace the key from ${attempt.apiKeySource} with a current user key of this server (made through its admin API, /api/v1/admin; never its root key).`,
    };
  if (status === 401 || status === 403)
    return {
      kind: 'health-refused',
      lines: [
        `${shown}/health refused the request (HTTP ${status}): the server wants credentials even for /health`,
        origin,
      ],
      fix: 'Set a user API key: OPENVIKING_API_KEY, the plugin option api_key, or "api_key" in ~/.openviking/ovcli.conf.',
    };
  if (status >= 500)
    return {
      kind: 'server-error',
      lines: [`${shown}/health answered HTTP ${status} (${failure.code}): the server is up but failing`, origin],
      fix: "Look at the OpenViking server's log; restart it once the cause is fixed.",
    };
  return {
    kind: 'not-openviking',
    lines: [`${shown}/health answered HTTP ${status}: this does not look like an OpenViking server`, origin],
    fix: `Check that ${shown} is the OpenViking server's address (its /health answers), or ${correct}.`,
  };
}
