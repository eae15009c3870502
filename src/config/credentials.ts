/**
 * Where the plugin finds its server and who it speaks as.
 *
 * The OpenViking tools share one credential chain (openviking-api.md §5.1);
 * users who already run `ov` or another OpenViking plugin expect this plugin
 * to pick up the same ovcli.conf without being told. On top of that chain sit
 * the plugin's own `userConfig` options (server_url, api_key, account, user),
 * which CodeBuddy exports to hooks and the MCP proxy under different names
 * and stores in its own files (pluginOptions.ts).
 *
 * Precedence, per field (first non-empty wins):
 *   explicit `OPENVIKING_*` env  >  userConfig  >  ovcli.conf  >  ov.conf  >  default
 * Env beats userConfig because env is the per-shell, per-run override; the
 * userConfig options are the persistent "this plugin talks to that server".
 *
 * `OPENVIKING_CREDENTIAL_SOURCE` (alias `…CREDENTIALS_SOURCE`) picks the mode:
 * - `env`: the full chain above;
 * - `cli` (also `ovcli`, `file`, `config`): ovcli.conf only for key, account,
 *   user and peer; the URL may still come from ov.conf or the default;
 * - `auto` (anything else): the full chain when any env credential or any
 *   userConfig option is set; otherwise ovcli.conf alone when it has
 *   credential fields; otherwise the full chain.
 *
 * ov.conf contributes `server.url` / `server.host` / `server.port`, a
 * `codebuddy` section (`apiKey`, `accountId`, `userId`, `peerId`) in the place
 * where the shared chain reads its `codex` section, and last of all
 * `server.root_api_key`, which OpenViking refuses on data APIs in `api_key`
 * mode: when that is the only key, `rootKeyOnly` is set and a warning says so.
 *
 * @module
 */
import { join } from 'node:path';
import type { Credentials, ValueSource } from './types.js';
import type { JsonRecord } from '../openviking/narrow.js';
import { isRecord } from '../openviking/narrow.js';
import { displayPath, expandHome, loadConfigFile, type LoadedConfigFile, type ReadTextFile } from './configFile.js';
import { resolveUserConfig, text, type UserConfig, type UserConfigKey } from './pluginOptions.js';
import { displayUrl } from '../openviking/displayUrl.js';


export const DEFAULT_BASE_URL = 'http://127.0.0.1:1933';

type Env = Readonly<Record<string, string | undefined>>;
type Field = keyof Credentials['sources'];
type Candidate = readonly [source: ValueSource, value: string | undefined];

export interface CredentialInput {
  env: Env;
  homeDir: string;
  readFile: ReadTextFile;
  /** Read CodeBuddy's stored plugin options when the environment has none (pluginOptions.ts). */
  readStoredOptions?: boolean;
}

export interface CredentialResolution {
  credentials: Credentials;
  warnings: string[];
  /** The ovcli.conf that was used (after the back-compat rule), for `plugin.codebuddy.*` settings. */
  cliFile: LoadedConfigFile;
}

export type CredentialMode = 'env' | 'cli' | 'auto';

/** The env variables that count as "credentials set in the environment" for `auto` mode. */
export const ENV_CREDENTIAL_NAMES = [
  'OPENVIKING_URL',
  'OPENVIKING_BASE_URL',
  'OPENVIKING_MCP_URL',
  'OPENVIKING_BEARER_TOKEN',
  'OPENVIKING_API_KEY',
  'OPENVIKING_ACCOUNT',
  'OPENVIKING_USER',
  'OPENVIKING_PEER_ID',
] as const;

const CLI_CREDENTIAL_KEYS = ['url', 'api_key', 'account', 'account_id', 'user', 'user_id', 'actor_peer_id', 'peer_id'];

/** Resolves every credential field and records where each came from. Never throws. */
export function resolveCredentials(input: CredentialInput): CredentialResolution {
  const { env, homeDir } = input;
  const warnings: string[] = [];
  const { cliFile, ovFile } = loadCredentialFiles(input);
  for (const file of [cliFile, ovFile]) if (file.warning) warnings.push(file.warning);

  const cli = FileFields.of(cliFile, homeDir, warnings);
  const ov = FileFields.of(ovFile, homeDir, warnings);
  const ovServer = ov.section('server');
  const ovHarness = ov.section('codebuddy');
  const options = resolveUserConfig({ env, homeDir, readFile: input.readFile, ...(input.readStoredOptions !== undefined ? { readStored: input.readStoredOptions } : {}) });
  warnings.push(...options.warnings);
  const userConfig = options.values;
  const useCliOnly = credentialMode(env) === 'cli' || (credentialMode(env) === 'auto' && !anyExplicit(env, userConfig) && cli.hasAny(CLI_CREDENTIAL_KEYS));
  const fromEnv = (name: string): Candidate => [`env:${name}`, text(env[name])];
  const fromUser = (key: UserConfigKey): Candidate => [options.sources[key] ?? `userConfig:${key}`, userConfig[key]];
  const chain = (explicit: Candidate[], fromCli: Candidate[], fromOv: Candidate[]) =>
    useCliOnly ? fromCli : [...explicit, ...fromCli, ...fromOv];

  const sources: Credentials['sources'] = {};
  const pick = (field: Field, candidates: Candidate[]): string | undefined => {
    for (const [source, value] of candidates) {
      if (value === undefined) continue;
      sources[field] = source;
      return value;
    }
    return undefined;
  };

  const urlCandidates = [
    ...(useCliOnly ? [] : [fromEnv('OPENVIKING_URL'), fromEnv('OPENVIKING_BASE_URL'), fromUser('server_url')]),
    cli.get('url'),
    ovServer.get('url'),
    derivedServerUrl(ovServer),
  ];
  const baseUrl = pick('baseUrl', validUrls(urlCandidates, warnings)) ?? DEFAULT_BASE_URL;
  sources.baseUrl ??= 'default';

  const apiKey = pick(
    'apiKey',
    chain(
      [fromEnv('OPENVIKING_BEARER_TOKEN'), fromEnv('OPENVIKING_API_KEY'), fromUser('api_key')],
      [cli.get('api_key')],
      [ovHarness.get('apiKey'), ovServer.get('root_api_key')],
    ),
  );
  const account = pick(
    'account',
    chain([fromEnv('OPENVIKING_ACCOUNT'), fromUser('account')], [cli.get('account'), cli.get('account_id')], [ovHarness.get('accountId')]),
  );
  const user = pick(
    'user',
    chain([fromEnv('OPENVIKING_USER'), fromUser('user')], [cli.get('user'), cli.get('user_id')], [ovHarness.get('userId')]),
  );
  const peerId = pick(
    'peerId',
    chain([fromEnv('OPENVIKING_PEER_ID')], [cli.get('actor_peer_id'), cli.get('peer_id')], [ovHarness.get('peerId'), ovHarness.get('peer_id')]),
  );
  const mcpUrl =
    pick('mcpUrl', useCliOnly ? [] : validUrls([fromEnv('OPENVIKING_MCP_URL')], warnings)) ??
    `${baseUrl}/mcp`;
  sources.mcpUrl ??= 'derived:baseUrl';

  const rootKeyOnly = sources.apiKey !== undefined && sources.apiKey === ovServer.sourceOf('root_api_key');
  if (rootKeyOnly) {
    warnings.push(
      `the only API key found is server.root_api_key in ${displayPath(ovFile.path, homeDir)}; OpenViking refuses root keys on memory APIs ` +
        '(except on trusted-mode servers). Set a user key in the plugin option api_key, OPENVIKING_API_KEY or ovcli.conf.',
    );
  }

  const credentials: Credentials = {
    baseUrl,
    mcpUrl,
    ...definedOnly({ apiKey, account, user, peerId }),
    sources,
    rootKeyOnly,
    files: [...[cliFile, ovFile].filter((file) => file.exists).map((file) => file.path), ...options.files],
  };
  return { credentials, warnings, cliFile };
}

/** `OPENVIKING_CREDENTIAL_SOURCE` (or its plural alias) as a mode. */
export function credentialMode(env: Env): CredentialMode {
  const raw = (text(env['OPENVIKING_CREDENTIAL_SOURCE']) ?? text(env['OPENVIKING_CREDENTIALS_SOURCE']) ?? 'auto').toLowerCase();
  if (raw === 'env' || raw === 'environment') return 'env';
  if (raw === 'cli' || raw === 'ovcli' || raw === 'file' || raw === 'config') return 'cli';
  return 'auto';
}

/**
 * Reads at most two files. Back-compat (§5.1): when only
 * `OPENVIKING_CONFIG_FILE` is set and that file is ovcli-shaped (top-level
 * credential fields, no `server` object), it is the ovcli file and there is no
 * ov.conf; the default ovcli.conf is then not read at all.
 */
function loadCredentialFiles({ env, homeDir, readFile }: CredentialInput): { cliFile: LoadedConfigFile; ovFile: LoadedConfigFile } {
  const cliOverride = text(env['OPENVIKING_CLI_CONFIG_FILE']);
  const ovOverride = text(env['OPENVIKING_CONFIG_FILE']);
  const load = (override: string | undefined, fallbackName: string) => {
    const path = expandHome(override ?? join('~', '.openviking', fallbackName), homeDir);
    return loadConfigFile(path, displayPath(path, homeDir), readFile);
  };
  const ovFile = load(ovOverride, 'ov.conf');
  if (ovOverride !== undefined && cliOverride === undefined && looksLikeOvcli(ovFile.value)) {
    return { cliFile: ovFile, ovFile: { path: ovFile.path, exists: false } };
  }
  return { cliFile: load(cliOverride, 'ovcli.conf'), ovFile };
}

function looksLikeOvcli(value: JsonRecord | undefined): boolean {
  if (!value || isRecord(value['server'])) return false;
  return ['url', 'api_key', 'account', 'account_id', 'user', 'user_id', 'actor_peer_id'].some((key) => typeof value[key] === 'string');
}

/**
 * String fields of one JSON object in a config file, with their sources. A
 * field of the wrong type is skipped with a warning naming file and field.
 */
class FileFields {
  /** Fields of the whole file. */
  static of(file: LoadedConfigFile, homeDir: string, warnings: string[]): FileFields {
    return new FileFields(file, homeDir, warnings, file.value, '');
  }

  private constructor(
    private readonly file: LoadedConfigFile,
    private readonly homeDir: string,
    private readonly warnings: string[],
    private readonly value: JsonRecord | undefined,
    private readonly prefix: string,
  ) {}

  get(key: string): Candidate {
    const entry = this.value?.[key];
    if (entry === undefined || entry === null) return [this.sourceOf(key), undefined];
    if (typeof entry === 'number' && Number.isFinite(entry)) return [this.sourceOf(key), String(entry)];
    if (typeof entry !== 'string') {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be a string; ignoring it`);
      return [this.sourceOf(key), undefined];
    }
    return [this.sourceOf(key), text(entry)];
  }

  section(key: string): FileFields {
    const entry = this.value?.[key];
    if (entry !== undefined && entry !== null && !isRecord(entry)) {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be an object; ignoring it`);
    }
    return new FileFields(this.file, this.homeDir, this.warnings, isRecord(entry) ? entry : undefined, `${this.prefix}${key}.`);
  }

  hasAny(keys: readonly string[]): boolean {
    return keys.some((key) => typeof this.value?.[key] === 'string' && text(this.value[key] as string) !== undefined);
  }

  sourceOf(key: string): ValueSource {
    return `file:${this.shown()}#${this.prefix}${key}`;
  }

  private shown(): string {
    return displayPath(this.file.path, this.homeDir);
  }
}

/** `http://{server.host or 127.0.0.1, 0.0.0.0 → 127.0.0.1}:{server.port or 1933}`, only when ov.conf names a host or port. */
function derivedServerUrl(server: FileFields): Candidate {
  const [hostSource, host] = server.get('host');
  const [portSource, port] = server.get('port');
  if (host === undefined && port === undefined) return ['default', undefined];
  const portNumber = port !== undefined && /^\d+$/.test(port) ? Number(port) : 1933;
  const hostName = !host || host === '0.0.0.0' ? '127.0.0.1' : host;
  return [host !== undefined ? hostSource : portSource, `http://${hostName}:${portNumber}`];
}

/**
 * Drops candidates that are not http(s) URLs, with a warning; trims trailing
 * slashes; leaves out a `user:password@` (never sent: the key is a header),
 * so no message, log or request can carry it (issue 20 item 5). Warnings
 * show a URL without its user info (displayUrl.ts).
 */
function validUrls(candidates: Candidate[], warnings: string[]): Candidate[] {
  return candidates.map(([source, value]) => {
    if (value === undefined) return [source, undefined];
    const url = httpUrl(value);
    if (url === undefined) {
      warnings.push(`${source}: "${displayUrl(value, true)}" is not an http(s) URL; ignoring it`);
      return [source, undefined];
    }
    if (`${url.pathname}${url.search}${url.hash}`.includes('@')) {
      // `https://u:12/34@host` parses as host `u`, port 12: the user's words would be looked up and shown as the host.
      warnings.push(`${source}: "${displayUrl(value, true)}" has an "@" after its host (a user or password with an unencoded "/", "?" or "#"?); ignoring it`);
      return [source, undefined];
    }
    if (url.username === '' && url.password === '') return [source, value.replace(/\/+$/, '')];
    warnings.push(`${source}: the user and password in the URL are not used (the API key is sent as a header); leaving them out`);
    url.username = '';
    url.password = '';
    return [source, url.href.replace(/\/+$/, '')];
  });
}

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    // Unparseable: reported by the caller as "not an http(s) URL".
    return undefined;
  }
}

function anyExplicit(env: Env, userConfig: UserConfig['values']): boolean {
  return ENV_CREDENTIAL_NAMES.some((name) => text(env[name]) !== undefined) || Object.keys(userConfig).length > 0;
}


function definedOnly<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
