/**
 * Which resident helper serves a hook, and where it listens.
 *
 * The resident (DESIGN D16) runs the prompt stage for every hook whose
 * configuration it shares. Configuration comes from the environment and
 * from files the environment names, so a resident is keyed by exactly the
 * variables a stage may read: a hook with another server URL, API key, data
 * directory or HOME gets another resident, and a resident never answers
 * with somebody else's identity. Variables that legitimately differ between
 * sessions of one configuration (the project directory) are not part of
 * the key; each request carries them.
 *
 * Variables outside these sets are invisible to a stage run by the
 * resident (it gets `stageEnvironment`, not its own process env), so a stage
 * that starts reading a new variable fails its resident tests instead of
 * silently reading the first session's value; tests/resident/identity.test.ts
 * also checks every variable name the stage sources mention.
 *
 * The key also covers every variable that changes how the network is
 * reached (NETWORK_VARIABLES: TLS verification and trust, proxies, node
 * options; issue 14 item 7): a session started with
 * `NODE_TLS_REJECT_UNAUTHORIZED=0` or a proxy gets its own resident, never
 * one another session's environment made (DESIGN D20). The resident is
 * started with only these variables and PATH (launch.ts
 * `residentProcessEnvironment`), so nothing else of the starting hook's
 * environment reaches it either.
 *
 * The key also holds the plugin root and version: an updated or second
 * install never reaches an older resident.
 *
 * @module
 */
import { join } from 'node:path';
import { hash64Hex } from '../store/fastHash.js';
import { PLUGIN_VERSION } from '../version.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Prefixes of configuration variables: the plugin's own (knobs, credentials,
 * config files, debug log) and the host's plugin options in each host's
 * spelling (userConfig, e.g. `CODEBUDDY_PLUGIN_OPTION_SERVER_URL`,
 * `CLAUDE_PLUGIN_OPTION_…`, `PLUGIN_OPT_…`; config/pluginOptions.ts).
 */
const CONFIGURATION_PREFIXES = [
  'OPENVIKING_',
  'CODEBUDDY_PLUGIN_OPTION_',
  'CLAUDE_PLUGIN_OPTION_',
  'PLUGIN_OPT_',
] as const;

/** Host variables that choose the configuration: HOME, the data and config directories, the plugin root. */
export const CONFIGURATION_VARIABLES = [
  'HOME',
  'CODEBUDDY_PLUGIN_DATA',
  'CLAUDE_PLUGIN_DATA',
  'CODEBUDDY_CONFIG_DIR',
  'CODEBUDDY_PLUGIN_ROOT',
  'CLAUDE_PLUGIN_ROOT',
] as const;

/**
 * Variables that change how node reaches the network: TLS verification and
 * trust (node's and OpenSSL's), node's own options (`--use-openssl-ca`,
 * `--require` of an agent), and proxies in both cases, as curl and undici
 * read them (openviking/proxy.ts).
 */
export const NETWORK_VARIABLES = [
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'NODE_EXTRA_CA_CERTS',
  'NODE_OPTIONS',
  'NODE_USE_ENV_PROXY',
  'NODE_USE_SYSTEM_CA',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'OPENSSL_CONF',
  'HTTP_PROXY',
  'http_proxy',
  'HTTPS_PROXY',
  'https_proxy',
  'NO_PROXY',
  'no_proxy',
  'ALL_PROXY',
  'all_proxy',
] as const;

/** Host variables that differ per session of one configuration; sent with each request. */
export const PER_REQUEST_VARIABLES = ['CODEBUDDY_PROJECT_DIR', 'CLAUDE_PROJECT_DIR'] as const;

/** Bumped when the request or reply format changes, so old and new never talk. */
export const RESIDENT_PROTOCOL_VERSION = 3;

/** The variables that choose the configuration, sorted by name (the key's input). */
export function configurationEnvironment(env: Env): Record<string, string> {
  const picked: Record<string, string> = {};
  const names = Object.keys(env).filter(isConfigurationVariable);
  for (const name of names.sort()) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** True for a variable that is part of the key (and of the environment a resident's stage sees). */
export function isConfigurationVariable(name: string): boolean {
  return (
    CONFIGURATION_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
    (CONFIGURATION_VARIABLES as readonly string[]).includes(name) ||
    (NETWORK_VARIABLES as readonly string[]).includes(name)
  );
}

/** The per-session variables of this hook, sent in its request. */
export function requestEnvironment(env: Env): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of PER_REQUEST_VARIABLES) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/**
 * The whole environment a stage sees when the resident runs it: the
 * resident's configuration variables plus the request's per-session ones
 * (only those names are taken from the request).
 */
export function stageEnvironment(
  residentEnv: Env,
  requestEnv: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const env = configurationEnvironment(residentEnv);
  for (const name of PER_REQUEST_VARIABLES) {
    const value = requestEnv[name];
    if (typeof value === 'string') env[name] = value;
  }
  return env;
}

/** 16 hex digits naming the resident of this configuration. */
export function residentKey(env: Env, pluginRoot: string): string {
  const configuration = configurationEnvironment(env);
  return hash64Hex(JSON.stringify([RESIDENT_PROTOCOL_VERSION, PLUGIN_VERSION, pluginRoot, configuration]));
}

export interface ResidentPaths {
  /** `<dataDir>/resident`: 0700, holds every resident's files. */
  dir: string;
  /** Every request and reply file name of this key starts with it. */
  filePrefix: string;
  /** The FIFO the resident reads request ids from (0600). */
  fifo: string;
  /** The resident's lifetime lock (store/lock.ts): one resident per key. */
  lock: string;
  /** Touched when a hook starts a resident, so a failing start is retried at most once a minute. */
  startMark: string;
  /** Where a hook writes the request `id`. */
  request(id: string): string;
  /** Where the resident writes its reply to `id` (temp + rename). */
  reply(id: string): string;
}

export function residentPaths(dataDir: string, key: string): ResidentPaths {
  const dir = join(dataDir, 'resident');
  return {
    dir,
    filePrefix: `${key}-`,
    fifo: join(dir, `${key}.fifo`),
    lock: join(dir, `${key}.lock`),
    startMark: join(dir, `${key}.started`),
    request: (id) => join(dir, `${key}-${id}.request`),
    reply: (id) => join(dir, `${key}-${id}.reply`),
  };
}

/** A resident key (`residentKey`) and a request id as hooks make them (`<pid>-<token>`). */
const KEY_SOURCE = '[0-9a-f]{16}';
const ID_SOURCE = '[0-9]{1,10}-[0-9a-z]{1,40}';
/** The resident accepts nothing else off its FIFO. */
export const REQUEST_ID = new RegExp(`^${ID_SOURCE}$`);
/** `<key>-<id>.request|reply` of any key (as `residentPaths` names them), and the temp files of their atomic writes. */
export const EXCHANGE_FILE = new RegExp(`^${KEY_SOURCE}-${ID_SOURCE}\\.(?:request|reply)(?:\\.[^/]*)?$`);
/** A resident's FIFO; group 1 is its key. */
export const FIFO_FILE = new RegExp(`^(${KEY_SOURCE})\\.fifo$`);

/**
 * The whole environment a resident process starts with: the variables of
 * its key (configuration and network) and PATH (it runs `mkfifo`). Nothing
 * else of the starting hook's environment reaches it (DESIGN D20).
 */
export function residentProcessEnvironment(env: Env): Record<string, string> {
  const picked = configurationEnvironment(env);
  for (const name of PROCESS_ONLY_VARIABLES) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** What a resident process needs besides its key's variables (no stage reads them): PATH for `mkfifo`. */
const PROCESS_ONLY_VARIABLES = ['PATH'] as const;
