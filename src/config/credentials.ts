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
import type { Credentials, RefusedFile, SkippedValue } from './types.js';
import { displayPath, type LoadedConfigFile, type ReadTextFile } from './configFile.js';
import { loadCredentialFiles } from './configFiles.js';
import {
  derivedServerUrl,
  FileFields,
  sameServer,
  validUrls,
  type Candidate,
  type Layer,
} from './credentialCandidates.js';
import { credentialMode, credentialModeProblem } from './credentialMode.js';
import { resolveUserConfig, text, type UserConfigKey } from './pluginOptions.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:1933';

type Env = Readonly<Record<string, string | undefined>>;
type Field = keyof Credentials['sources'];

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

/** The fields whose value is an identity: bound to the server of the source that names one. */
const IDENTITY_FIELDS: ReadonlySet<Field> = new Set(['apiKey', 'account', 'user']);

/** Resolves every credential field and records where each came from. Never throws. */
export function resolveCredentials(input: CredentialInput): CredentialResolution {
  const layers = credentialLayers(input);
  const { warnings, fromEnv } = layers;
  const modeProblem = credentialModeProblem(input.env);
  if (modeProblem !== undefined) warnings.push(modeProblem);
  const picker = new FieldPicker(credentialMode(input.env) === 'cli', warnings);
  const { baseUrl, baseProblem } = pickServer(picker, layers);
  const identity = pickIdentity(picker, layers);
  const mcpCandidates = validUrls([fromEnv('OPENVIKING_MCP_URL')], warnings);
  let mcpUrl = picker.pick('mcpUrl', mcpCandidates) ?? (baseUrl === '' ? '' : `${baseUrl}/mcp`);
  picker.sources.mcpUrl ??= 'derived:baseUrl';
  const mcpProblem = mcpCandidates.find((candidate) => candidate.invalid && candidate.source === picker.sources.mcpUrl);
  if (mcpProblem !== undefined) mcpUrl = '';
  const urlProblem = baseProblem ?? mcpProblem;

  const { sources, skipped } = picker;
  const rootKeyOnly = sources.apiKey !== undefined && sources.apiKey === layers.ovServer.sourceOf('root_api_key');
  if (rootKeyOnly) {
    warnings.push(
      `the only API key found is server.root_api_key in ${displayPath(layers.ovFile.path, input.homeDir)}, the server's root key, which OpenViking refuses on memory APIs (except on trusted-mode servers)`,
    );
  }
  const credentials: Credentials = {
    baseUrl,
    mcpUrl,
    ...definedOnly(identity),
    sources,
    rootKeyOnly,
    files: layers.files,
    ...(skipped.length > 0 ? { skipped } : {}),
    ...(urlProblem?.invalid !== undefined
      ? { urlProblem: { source: urlProblem.source, problem: urlProblem.invalid } }
      : {}),
    ...refusedFiles([layers.cliFile, layers.ovFile], layers.refused, input.homeDir),
  };
  return { credentials, warnings, cliFile: layers.cliFile };
}

/** Every source of a credential value, read once, in the order their warnings are told. */
interface CredentialLayers {
  warnings: string[];
  fromEnv(name: string): Candidate;
  fromUser(key: UserConfigKey): Candidate;
  cli: FileFields;
  ovServer: FileFields;
  ovHarness: FileFields;
  cliFile: LoadedConfigFile;
  ovFile: LoadedConfigFile;
  homeDir: string;
  /** The files read that exist. */
  files: string[];
  /** Option files that exist but were not read (pluginOptions.ts). */
  refused: readonly RefusedFile[];
}

function credentialLayers(input: CredentialInput): CredentialLayers {
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
  return {
    warnings,
    fromEnv: (name) => ({ source: `env:${name}`, value: text(env[name]), layer: 'env' }),
    fromUser: (key) => ({
      source: options.sources[key] ?? `userConfig:${key}`,
      value: options.values[key],
      layer: 'options',
    }),
    cli,
    ovServer,
    ovHarness,
    cliFile,
    ovFile,
    homeDir,
    files: [...[cliFile, ovFile].filter((file) => file.exists).map((file) => file.path), ...options.files],
    refused: options.refused,
  };
}

/**
 * The server in use: the first URL by precedence; each layer's own server
 * noted for the identity rule. A chosen URL that is no http(s) URL is no
 * server at all (`''`: no request goes anywhere, none to another server).
 */
function pickServer(picker: FieldPicker, layers: CredentialLayers): { baseUrl: string; baseProblem?: Candidate } {
  const { warnings, fromEnv, fromUser, cli, ovServer } = layers;
  const envUrl = validUrls([fromEnv('OPENVIKING_URL'), fromEnv('OPENVIKING_BASE_URL')], warnings);
  const optionsUrl = validUrls([fromUser('server_url')], warnings);
  const cliUrl = validUrls([cli.get('url')], warnings);
  const ovUrl = validUrls([ovServer.get('url'), derivedServerUrl(ovServer)], warnings);
  const named = (candidates: Candidate[]) => candidates.find((candidate) => candidate.value !== undefined);
  picker.servers.options = named(optionsUrl);
  picker.servers.ovcli = named(cliUrl);
  // ov.conf configures a server even when it names none: the default one.
  picker.servers.ovconf = named(ovUrl) ?? {
    source: `default server of ${displayPath(layers.ovFile.path, layers.homeDir)}`,
    value: DEFAULT_BASE_URL,
    layer: 'ovconf',
  };
  const urlCandidates = [...envUrl, ...optionsUrl, ...cliUrl, ...ovUrl];
  picker.baseUrl = picker.pick('baseUrl', urlCandidates) ?? DEFAULT_BASE_URL;
  picker.sources.baseUrl ??= 'default';
  const baseProblem = urlCandidates.find(
    (candidate) => candidate.invalid && candidate.source === picker.sources.baseUrl,
  );
  if (baseProblem !== undefined) picker.baseUrl = '';
  return baseProblem === undefined ? { baseUrl: picker.baseUrl } : { baseUrl: picker.baseUrl, baseProblem };
}

/** Key, account, user and peer, each from the first source that sets it and may (see the header). */
function pickIdentity(picker: FieldPicker, layers: CredentialLayers) {
  const { fromEnv, fromUser, cli, ovServer, ovHarness } = layers;
  return {
    apiKey: picker.pick('apiKey', [
      fromEnv('OPENVIKING_BEARER_TOKEN'),
      fromEnv('OPENVIKING_API_KEY'),
      fromUser('api_key'),
      cli.get('api_key'),
      ovHarness.get('apiKey'),
      ovServer.get('root_api_key'),
    ]),
    account: picker.pick('account', [
      fromEnv('OPENVIKING_ACCOUNT'),
      fromUser('account'),
      cli.get('account'),
      cli.get('account_id'),
      ovHarness.get('accountId'),
    ]),
    user: picker.pick('user', [
      fromEnv('OPENVIKING_USER'),
      fromUser('user'),
      cli.get('user'),
      cli.get('user_id'),
      ovHarness.get('userId'),
    ]),
    peerId: picker.pick('peerId', [
      fromEnv('OPENVIKING_PEER_ID'),
      cli.get('actor_peer_id'),
      cli.get('peer_id'),
      ovHarness.get('peerId'),
      ovHarness.get('peer_id'),
    ]),
  };
}

/** Chooses each field's value among its candidates, recording the source chosen and every value skipped, and why. */
class FieldPicker {
  readonly sources: Credentials['sources'] = {};
  readonly skipped: SkippedValue[] = [];
  /** The server each layer names (its identity fields belong to it). */
  readonly servers: Partial<Record<Layer, Candidate>> = {};
  /** The server in use, once picked. */
  baseUrl = DEFAULT_BASE_URL;

  constructor(
    private readonly cliOnly: boolean,
    private readonly warnings: string[],
  ) {}

  pick(field: Field, candidates: Candidate[]): string | undefined {
    let chosen: Candidate | undefined;
    for (const candidate of candidates) {
      if (candidate.value === undefined) continue;
      const own = this.servers[candidate.layer];
      if (this.cliOnly && candidate.layer !== 'ovcli')
        this.skip(field, candidate, 'cli-mode', 'OPENVIKING_CREDENTIAL_SOURCE=cli reads ovcli.conf only');
      else if (chosen !== undefined) this.skip(field, candidate, 'shadowed', `${chosen.source} comes first`);
      else if (IDENTITY_FIELDS.has(field) && own?.value !== undefined && !sameServer(own.value, this.baseUrl)) {
        this.skip(
          field,
          candidate,
          'other-server',
          `it belongs to the server ${own.value} (${own.source}), not to the one in use, ${this.baseUrl} (${this.sources.baseUrl})`,
        );
      } else chosen = candidate;
    }
    if (chosen !== undefined) this.sources[field] = chosen.source;
    return chosen?.value;
  }

  private skip(field: Field, candidate: Candidate, kind: SkippedValue['kind'], reason: string): void {
    this.skipped.push({ field, source: candidate.source, reason, kind });
    // Set, yet ignored by the mode the user chose: said out loud. The other two are the order working as documented (doctor lists them).
    if (kind === 'cli-mode') this.warnings.push(`${candidate.source}: ${reason}; ignoring it`);
  }
}

/** The configuration files that exist but were not read (not JSON, not a regular file, too large), for doctor. */
function refusedFiles(
  files: LoadedConfigFile[],
  more: readonly RefusedFile[],
  homeDir: string,
): { refused?: RefusedFile[] } {
  const refused = [
    ...files
      .filter((file) => file.exists && file.value === undefined && file.warning !== undefined)
      .map((file) => ({ path: displayPath(file.path, homeDir), problem: file.warning ?? '' })),
    ...more,
  ];
  return refused.length > 0 ? { refused } : {};
}

/** The fields that have a value (an absent one is no key of `Credentials`). */
function definedOnly<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
