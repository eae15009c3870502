/**
 * The plugin's own options (`userConfig` in .codebuddy-plugin/plugin.json:
 * server_url, api_key, account, user), whichever process asks.
 *
 * CodeBuddy hands stored options to each process it starts under another
 * name (DESIGN F18): hooks get `CODEBUDDY_PLUGIN_OPTION_<KEY>` and
 * `CLAUDE_PLUGIN_OPTION_<KEY>`, stdio MCP servers get `PLUGIN_OPT_<KEY>`, and
 * it adds nothing when the plugin has no stored options. Processes the host
 * does not start with the plugin's context (the status line, doctor from a
 * shell or a slash command's Bash) get none of these, so they read the
 * options where the CLI stores them: non-sensitive ones under
 * `pluginConfigs["<plugin>@<marketplace>"].options` in
 * `<config dir>/settings.json`, sensitive ones under
 * `pluginSecrets["<plugin>@<marketplace>"]` in `<config dir>/credentials.json`
 * (config dir = `CODEBUDDY_CONFIG_DIR` or `~/.codebuddy`; `--plugin-dir`
 * installs use the marketplace name `inline`).
 *
 * A host-started process (plugin root variable set) trusts its environment:
 * the host passes every stored option or none, so reading the files there
 * would only cost the hook's start-up. The MCP proxy, long-lived, reads them
 * whenever its environment has none.
 *
 * @module
 */
import { join } from 'node:path';
import type { RefusedFile, ValueSource } from './types.js';
import { isRecord, type JsonRecord } from '../util/json.js';
import { displayPath, loadConfigFile, type ReadTextFile } from './configFile.js';
import { codebuddyConfigDir } from '../store/paths.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The userConfig keys declared in .codebuddy-plugin/plugin.json. */
export const USER_CONFIG_KEYS = ['server_url', 'api_key', 'account', 'user'] as const;
export type UserConfigKey = (typeof USER_CONFIG_KEYS)[number];

/** The plugin's name in both manifests: the part before `@` of its install id. */
export const PLUGIN_NAME = 'openviking';

/** Install ids tried first, in order: the repository's own marketplace, then `--plugin-dir`. */
const PREFERRED_INSTALL_IDS = [`${PLUGIN_NAME}@openviking-codebuddy`, `${PLUGIN_NAME}@inline`];

/** Prefixes under which hosts export the options, in the order they are read. */
const OPTION_PREFIXES = ['CODEBUDDY_PLUGIN_OPTION_', 'CLAUDE_PLUGIN_OPTION_', 'PLUGIN_OPT_'] as const;

export interface UserConfig {
  values: Partial<Record<UserConfigKey, string>>;
  sources: Partial<Record<UserConfigKey, ValueSource>>;
  /** The CLI's files that were read and exist (for doctor and the proxy's change watch). */
  files: string[];
  warnings: string[];
  /** The CLI's files that exist but could not be read (doctor fails the configuration on them). */
  refused: RefusedFile[];
}

export interface UserConfigInput {
  env: Env;
  homeDir: string;
  readFile: ReadTextFile;
  /** Read the CLI's stored options when the environment has none; default: only outside a host-started process. */
  readStored?: boolean;
}

/**
 * The options from the environment (any host's spelling, upper-cased or as
 * declared). An unexpanded `${user_config.…}` placeholder counts as unset.
 */
export function readUserConfig(env: Env): Partial<Record<UserConfigKey, string>> {
  const values: Partial<Record<UserConfigKey, string>> = {};
  for (const key of USER_CONFIG_KEYS) {
    for (const prefix of OPTION_PREFIXES) {
      const raw = text(env[`${prefix}${key.toUpperCase()}`]) ?? text(env[`${prefix}${key}`]);
      if (raw === undefined || /^\$\{(?:user_config\.|PLUGIN_OPT:)[^}]*\}$/.test(raw)) continue;
      values[key] = raw;
      break;
    }
  }
  return values;
}

/** True when a host started this process with the plugin's context (hooks, the MCP server). */
export function startedByHost(env: Env): boolean {
  return text(env.CODEBUDDY_PLUGIN_ROOT) !== undefined || text(env.CLAUDE_PLUGIN_ROOT) !== undefined;
}

/** The options and where each came from. Never throws. */
export function resolveUserConfig(input: UserConfigInput): UserConfig {
  const fromEnv = readUserConfig(input.env);
  const sources: UserConfig['sources'] = {};
  for (const key of Object.keys(fromEnv) as UserConfigKey[]) sources[key] = `userConfig:${key}`;
  const readStored = input.readStored ?? !startedByHost(input.env);
  if (Object.keys(fromEnv).length > 0 || !readStored)
    return { values: fromEnv, sources, files: [], warnings: [], refused: [] };
  return storedUserConfig(input);
}

/** The options the CLI stored for this plugin (the first install id that has any). */
function storedUserConfig({ env, homeDir, readFile }: UserConfigInput): UserConfig {
  const dir = codebuddyConfigDir(env, homeDir);
  const settingsPath = join(dir, 'settings.json');
  const credentialsPath = join(dir, 'credentials.json');
  const settings = loadConfigFile(settingsPath, displayPath(settingsPath, homeDir), readFile);
  const secrets = loadConfigFile(credentialsPath, displayPath(credentialsPath, homeDir), readFile);
  const warnings = [settings.warning, secrets.warning].filter((warning): warning is string => warning !== undefined);
  const files = [settings, secrets].filter((file) => file.exists).map((file) => file.path);
  const refused = [settings, secrets]
    .filter((file) => file.exists && file.value === undefined && file.warning !== undefined)
    .map((file) => ({ path: displayPath(file.path, homeDir), problem: file.warning ?? '' }));
  const options = (id: string) => section(section(settings.value, 'pluginConfigs'), id, 'options');
  const secretsOf = (id: string) => section(section(secrets.value, 'pluginSecrets'), id);
  const ids = new Set([
    ...PREFERRED_INSTALL_IDS,
    ...[
      ...Object.keys(section(settings.value, 'pluginConfigs') ?? {}),
      ...Object.keys(section(secrets.value, 'pluginSecrets') ?? {}),
    ]
      .filter((id) => id.startsWith(`${PLUGIN_NAME}@`))
      .sort(),
  ]);
  for (const id of ids) {
    const values: UserConfig['values'] = {};
    const sources: UserConfig['sources'] = {};
    for (const key of USER_CONFIG_KEYS) {
      const plain = scalar(options(id)?.[key]);
      const secret = scalar(secretsOf(id)?.[key]);
      const [value, source] =
        secret !== undefined
          ? [secret, `file:${displayPath(credentialsPath, homeDir)}#pluginSecrets.${id}.${key}`]
          : [plain, `file:${displayPath(settingsPath, homeDir)}#pluginConfigs.${id}.options.${key}`];
      if (value === undefined) continue;
      values[key] = value;
      sources[key] = source;
    }
    if (Object.keys(values).length > 0) return { values, sources, files, warnings, refused };
  }
  return { values: {}, sources: {}, files, warnings, refused };
}

function section(value: JsonRecord | undefined, ...path: string[]): JsonRecord | undefined {
  let current: unknown = value;
  for (const key of path) current = isRecord(current) ? current[key] : undefined;
  return isRecord(current) ? current : undefined;
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return text(value);
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/** The trimmed value, or undefined when it is missing or blank. */
export function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
