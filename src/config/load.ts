/**
 * Builds the whole `PluginConfig` once per hook process: credentials
 * (credentials.ts), settings (settings.ts) and every warning met on the way.
 *
 * Cheap by design: synchronous, at most two small files read (ovcli.conf and
 * ov.conf; outside a host-started process also the CLI's settings.json and
 * credentials.json when no plugin option is in the environment), no network. Total: a bug in here must not take the host's prompt
 * down, so an unexpected throw yields the defaults plus a warning.
 *
 * @module
 */
import type { PluginConfig } from './types.js';
import { readSmallTextFile, type ReadTextFile } from './configFile.js';
import { DEFAULT_BASE_URL, resolveCredentials } from './credentials.js';
import { resolveSettings } from './settings.js';
import { resolveDataDir } from '../store/paths.js';
import { pluginSection } from './pluginSettings.js';
import { errorMessage } from '../util/errors.js';

export { renderKnobTable } from './knobTable.js';

export interface LoadConfigInput {
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  /** Defaults to a reader that refuses files over 1 MiB. */
  readFile?: ReadTextFile;
  /** Read CodeBuddy's stored plugin options when the environment has none; default: only outside a host-started process (config/pluginOptions.ts). */
  readStoredOptions?: boolean;
}

/** Resolves the plugin's configuration. Never throws. */
export function loadPluginConfig(input: LoadConfigInput): PluginConfig {
  try {
    return resolveConfig(input);
  } catch (error) {
    const reason = errorMessage(error);
    const fallback = resolveSettings({ env: {}, homeDir: input.homeDir });
    return {
      credentials: {
        baseUrl: DEFAULT_BASE_URL,
        mcpUrl: `${DEFAULT_BASE_URL}/mcp`,
        sources: { baseUrl: 'default', mcpUrl: 'derived:baseUrl' },
        rootKeyOnly: false,
        files: [],
      },
      settings: fallback.settings,
      settingSources: fallback.sources,
      dataDir: fallbackDataDir(input),
      warnings: [`configuration could not be loaded (${reason}); using defaults`],
    };
  }
}

/** The data directory when the environment itself cannot be read: the default one. */
function fallbackDataDir(input: LoadConfigInput): string {
  try {
    return resolveDataDir(input.env, input.homeDir);
  } catch {
    return resolveDataDir({}, input.homeDir);
  }
}

function resolveConfig({
  env,
  homeDir,
  readFile = readSmallTextFile,
  readStoredOptions,
}: LoadConfigInput): PluginConfig {
  const { credentials, warnings, cliFile } = resolveCredentials({
    env,
    homeDir,
    readFile,
    ...(readStoredOptions !== undefined ? { readStoredOptions } : {}),
  });
  const { file, warnings: sectionWarnings } = pluginSection(cliFile, homeDir);
  const settings = resolveSettings({ env, homeDir, ...(file ? { file } : {}) });
  return {
    credentials,
    settings: settings.settings,
    settingSources: settings.sources,
    dataDir: resolveDataDir(env, homeDir),
    warnings: [...warnings, ...sectionWarnings, ...settings.warnings],
    ...(Object.keys(settings.failedClosed).length > 0 ? { failedClosed: settings.failedClosed } : {}),
  };
}
