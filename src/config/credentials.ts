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
 * Precedence, field by field (first source that sets the field wins):
 *   `OPENVIKING_*` env  >  plugin options  >  ovcli.conf  >  ov.conf  >  default
 * Env beats the options because env is the per-shell, per-run override; the
 * options are the persistent "this plugin talks to that server".
 *
 * One rule keeps an identity with its server (DESIGN D6): the API key,
 * account and user of a source that names a server of its own (the options'
 * `server_url`, ovcli.conf's `url`, and ov.conf always: it configures the
 * server at `server.url` / `host` / `port`, else http://127.0.0.1:1933) are
 * used only when the server in use is that server; otherwise they are
 * skipped and the next source is asked. So ov.conf's root key never reaches
 * a remote server named in ovcli.conf, and ovcli.conf's key never follows
 * `OPENVIKING_URL` to another server. (The shared chain's `auto` mode
 * ignored ov.conf whole once ovcli.conf held any field, `url` alone
 * included: the rule above is that protection, per field.)
 *
 * `OPENVIKING_CREDENTIAL_SOURCE` (alias `…CREDENTIALS_SOURCE`) picks the mode:
 * - `auto` (default, also any unknown value) and `env` (`environment`): the
 *   precedence above;
 * - `cli` (`ovcli`, `file`, `config`): ovcli.conf alone for every field
 *   (URL, key, account, user, peer; the MCP URL is `<url>/mcp`); a value set
 *   anywhere else is skipped with a warning, never silently.
 *
 * Every value found and not used is recorded with the reason (`skipped`),
 * which doctor prints; one ignored because of `cli` mode is also a warning. `server.root_api_key` comes last of all; OpenViking
 * refuses root keys on data APIs in `api_key` mode: when that is the key in
 * use, `rootKeyOnly` is set and a warning says so.
 *
 * @module
 */
import type { Credentials, SkippedValue, ValueSource } from './types.js';
import type { JsonRecord } from '../util/json.js';
import { isRecord } from '../util/json.js';
import { displayPath, loadConfigFile, type LoadedConfigFile, type ReadTextFile } from './configFile.js';
import { credentialFilePaths } from './configFiles.js';
import { resolveUserConfig, text, type UserConfigKey } from './pluginOptions.js';
import { displayUrl } from '../openviking/displayUrl.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:1933';

type Env = Readonly<Record<string, string | undefined>>;
type Field = keyof Credentials['sources'];
/** Which source a value came from: a server it names binds its identity fields (see the header). */
type Layer = 'env' | 'options' | 'ovcli' | 'ovconf';
interface Candidate {
  source: ValueSource;
  value: string | undefined;
  layer: Layer;
}

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

/** The fields whose value is an identity: bound to the server of the source that names one. */
const IDENTITY_FIELDS: ReadonlySet<Field> = new Set(['apiKey', 'account', 'user']);

/** Resolves every credential field and records where each came from. Never throws. */
export function resolveCredentials(input: CredentialInput): CredentialResolution {
  const { env, homeDir } = input;
  const warnings: string[] = [];
  const { cliFile, ovFile } = loadCredentialFiles(input);
  for (const file of [cliFile, ovFile]) if (file.warning) warnings.push(file.warning);

  const cli = FileFields.of(cliFile, homeDir, warnings, 'ovcli');
  const ov = FileFields.of(ovFile, homeDir, warnings, 'ovconf');
  const ovServer = ov.section('server');
  const ovHarness = ov.section('codebuddy');
  const options = resolveUserConfig({
    env,
    homeDir,
    readFile: input.readFile,
    ...(input.readStoredOptions !== undefined ? { readStored: input.readStoredOptions } : {}),
  });
  warnings.push(...options.warnings);
  const cliOnly = credentialMode(env) === 'cli';
  const fromEnv = (name: string): Candidate => ({ source: `env:${name}`, value: text(env[name]), layer: 'env' });
  const fromUser = (key: UserConfigKey): Candidate => ({
    source: options.sources[key] ?? `userConfig:${key}`,
    value: options.values[key],
    layer: 'options',
  });

  const sources: Credentials['sources'] = {};
  const skipped: SkippedValue[] = [];
  const servers: Partial<Record<Layer, Candidate>> = {};
  let baseUrl = DEFAULT_BASE_URL;
  const pick = (field: Field, candidates: Candidate[]): string | undefined => {
    let chosen: Candidate | undefined;
    for (const candidate of candidates) {
      if (candidate.value === undefined) continue;
      const skip = (kind: SkippedValue['kind'], reason: string) => {
        skipped.push({ field, source: candidate.source, reason, kind });
        // Set, yet ignored by the mode the user chose: said out loud. The other two are the order working as documented (doctor lists them).
        if (kind === 'cli-mode') warnings.push(`${candidate.source}: ${reason}; ignoring it`);
      };
      const own = servers[candidate.layer];
      if (cliOnly && candidate.layer !== 'ovcli')
        skip('cli-mode', 'OPENVIKING_CREDENTIAL_SOURCE=cli reads ovcli.conf only');
      else if (chosen !== undefined) skip('shadowed', `${chosen.source} comes first`);
      else if (IDENTITY_FIELDS.has(field) && own?.value !== undefined && !sameServer(own.value, baseUrl)) {
        skip(
          'other-server',
          `it belongs to the server ${own.value} (${own.source}), not to the one in use, ${baseUrl} (${sources.baseUrl})`,
        );
      } else chosen = candidate;
    }
    if (chosen !== undefined) sources[field] = chosen.source;
    return chosen?.value;
  };

  const envUrl = validUrls([fromEnv('OPENVIKING_URL'), fromEnv('OPENVIKING_BASE_URL')], warnings);
  const optionsUrl = validUrls([fromUser('server_url')], warnings);
  const cliUrl = validUrls([cli.get('url')], warnings);
  const ovUrl = validUrls([ovServer.get('url'), derivedServerUrl(ovServer)], warnings);
  servers.options = optionsUrl.find((candidate) => candidate.value !== undefined);
  servers.ovcli = cliUrl.find((candidate) => candidate.value !== undefined);
  // ov.conf configures a server even when it names none: the default one.
  servers.ovconf = ovUrl.find((candidate) => candidate.value !== undefined) ?? {
    source: `default server of ${displayPath(ovFile.path, homeDir)}`,
    value: DEFAULT_BASE_URL,
    layer: 'ovconf',
  };
  baseUrl = pick('baseUrl', [...envUrl, ...optionsUrl, ...cliUrl, ...ovUrl]) ?? DEFAULT_BASE_URL;
  sources.baseUrl ??= 'default';

  const apiKey = pick('apiKey', [
    fromEnv('OPENVIKING_BEARER_TOKEN'),
    fromEnv('OPENVIKING_API_KEY'),
    fromUser('api_key'),
    cli.get('api_key'),
    ovHarness.get('apiKey'),
    ovServer.get('root_api_key'),
  ]);
  const account = pick('account', [
    fromEnv('OPENVIKING_ACCOUNT'),
    fromUser('account'),
    cli.get('account'),
    cli.get('account_id'),
    ovHarness.get('accountId'),
  ]);
  const user = pick('user', [
    fromEnv('OPENVIKING_USER'),
    fromUser('user'),
    cli.get('user'),
    cli.get('user_id'),
    ovHarness.get('userId'),
  ]);
  const peerId = pick('peerId', [
    fromEnv('OPENVIKING_PEER_ID'),
    cli.get('actor_peer_id'),
    cli.get('peer_id'),
    ovHarness.get('peerId'),
    ovHarness.get('peer_id'),
  ]);
  const mcpUrl = pick('mcpUrl', validUrls([fromEnv('OPENVIKING_MCP_URL')], warnings)) ?? `${baseUrl}/mcp`;
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
    ...(skipped.length > 0 ? { skipped } : {}),
  };
  return { credentials, warnings, cliFile };
}

/** `OPENVIKING_CREDENTIAL_SOURCE` (or its plural alias) as a mode. */
export function credentialMode(env: Env): CredentialMode {
  const raw = (
    text(env['OPENVIKING_CREDENTIAL_SOURCE']) ??
    text(env['OPENVIKING_CREDENTIALS_SOURCE']) ??
    'auto'
  ).toLowerCase();
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
function loadCredentialFiles({ env, homeDir, readFile }: CredentialInput): {
  cliFile: LoadedConfigFile;
  ovFile: LoadedConfigFile;
} {
  const paths = credentialFilePaths(env, homeDir);
  const load = (path: string) => loadConfigFile(path, displayPath(path, homeDir), readFile);
  const ovFile = load(paths.ov);
  if (
    text(env['OPENVIKING_CONFIG_FILE']) !== undefined &&
    text(env['OPENVIKING_CLI_CONFIG_FILE']) === undefined &&
    looksLikeOvcli(ovFile.value)
  ) {
    return { cliFile: ovFile, ovFile: { path: ovFile.path, exists: false } };
  }
  return { cliFile: load(paths.cli), ovFile };
}

function looksLikeOvcli(value: JsonRecord | undefined): boolean {
  if (!value || isRecord(value['server'])) return false;
  return ['url', 'api_key', 'account', 'account_id', 'user', 'user_id', 'actor_peer_id'].some(
    (key) => typeof value[key] === 'string',
  );
}

/**
 * String fields of one JSON object in a config file, as candidates with
 * their sources. A field of the wrong type is skipped with a warning naming
 * file and field.
 */
class FileFields {
  /** Fields of the whole file. */
  static of(file: LoadedConfigFile, homeDir: string, warnings: string[], layer: Layer): FileFields {
    return new FileFields(file, homeDir, warnings, file.value, '', layer);
  }

  private constructor(
    private readonly file: LoadedConfigFile,
    private readonly homeDir: string,
    private readonly warnings: string[],
    private readonly value: JsonRecord | undefined,
    private readonly prefix: string,
    private readonly layer: Layer,
  ) {}

  get(key: string): Candidate {
    const entry = this.value?.[key];
    const candidate = (value: string | undefined): Candidate => ({
      source: this.sourceOf(key),
      value,
      layer: this.layer,
    });
    if (entry === undefined || entry === null) return candidate(undefined);
    if (typeof entry === 'number' && Number.isFinite(entry)) return candidate(String(entry));
    if (typeof entry !== 'string') {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be a string; ignoring it`);
      return candidate(undefined);
    }
    return candidate(text(entry));
  }

  section(key: string): FileFields {
    const entry = this.value?.[key];
    if (entry !== undefined && entry !== null && !isRecord(entry)) {
      this.warnings.push(`${this.shown()}: ${this.prefix}${key} should be an object; ignoring it`);
    }
    return new FileFields(
      this.file,
      this.homeDir,
      this.warnings,
      isRecord(entry) ? entry : undefined,
      `${this.prefix}${key}.`,
      this.layer,
    );
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
  const host = server.get('host');
  const port = server.get('port');
  if (host.value === undefined && port.value === undefined) return { ...host, value: undefined };
  const portNumber = port.value !== undefined && /^\d+$/.test(port.value) ? Number(port.value) : 1933;
  const hostName = !host.value || host.value === '0.0.0.0' ? '127.0.0.1' : host.value;
  return { ...(host.value !== undefined ? host : port), value: `http://${hostName}:${portNumber}` };
}

/**
 * Drops candidates that are not http(s) URLs, with a warning; trims trailing
 * slashes; leaves out a `user:password@` (never sent: the key is a header),
 * so no message, log or request can carry it (issue 20 item 5). Warnings
 * show a URL without its user info (displayUrl.ts).
 */
function validUrls(candidates: Candidate[], warnings: string[]): Candidate[] {
  return candidates.map((candidate) => {
    const { source, value } = candidate;
    if (value === undefined) return candidate;
    const url = parseUrl(value);
    if (url === undefined) {
      warnings.push(`${source}: "${displayUrl(value, true)}" is not an http(s) URL; ignoring it`);
      return { ...candidate, value: undefined };
    }
    if (`${url.pathname}${url.search}${url.hash}`.includes('@')) {
      // `https://u:12/34@host` parses as host `u`, port 12: the user's words would be looked up and shown as the host.
      warnings.push(
        `${source}: "${displayUrl(value, true)}" has an "@" after its host (a user or password with an unencoded "/", "?" or "#"?); ignoring it`,
      );
      return { ...candidate, value: undefined };
    }
    if (url.username === '' && url.password === '') return { ...candidate, value: value.replace(/\/+$/, '') };
    warnings.push(
      `${source}: the user and password in the URL are not used (the API key is sent as a header); leaving them out`,
    );
    url.username = '';
    url.password = '';
    return { ...candidate, value: url.href.replace(/\/+$/, '') };
  });
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    // Unparseable: reported by the caller as "not an http(s) URL".
    return undefined;
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);

/** One server: same scheme, host (any loopback name counts as one), port and path. */
export function sameServer(a: string, b: string): boolean {
  const [x, y] = [parseUrl(a), parseUrl(b)];
  if (x === undefined || y === undefined) return a === b;
  const host = (url: URL) => (LOOPBACK_NAMES.has(url.hostname) ? 'loopback' : url.hostname);
  const path = (url: URL) => url.pathname.replace(/\/+$/, '');
  return (
    x.protocol === y.protocol &&
    host(x) === host(y) &&
    (x.port || defaultPort(x)) === (y.port || defaultPort(y)) &&
    path(x) === path(y)
  );
}

function defaultPort(url: URL): string {
  return url.protocol === 'https:' ? '443' : '80';
}

function definedOnly<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
