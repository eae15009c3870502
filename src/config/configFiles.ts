/**
 * The configuration's files: where they are, and whether any changed since
 * the configuration was loaded. One owner, so the loader, the long-lived
 * processes and the hooks module agree on which files make the
 * configuration (D37):
 *
 * - credentials.ts reads ovcli.conf and ov.conf where `credentialFilePaths`
 *   puts them (`loadCredentialFiles`, with the back-compat rule), and the
 *   `plugin.codebuddy` settings come from the same ovcli.conf (`loadCliFile`,
 *   which a guard deny reads alone: pluginSettings.ts);
 * - the MCP proxy and the resident helper live as long as their host while
 *   the user edits those files: each keeps its configuration in a
 *   `ConfigWatch`, which looks at `configurationFiles` (a few `stat`s,
 *   microseconds) and loads again when one changed; a hook process loads
 *   afresh anyway;
 * - the hooks module, which loads from its file snapshot, looks again at the
 *   same `configurationFiles` before each decision (mod/files/switchFiles.ts,
 *   D30): a changed one is read again, so the load sees it.
 *
 * A file counts whether or not it exists now (a newly created ovcli.conf
 * counts too). Environment variables are fixed for the life of a process,
 * so a changed variable still needs a restart of the host.
 *
 * @module
 */
import { join } from 'node:path';
import { statQuietly } from '../store/fsUtil.js';
import { errorMessage } from '../util/errors.js';
import { displayPath, expandHome, loadConfigFile, type LoadedConfigFile, type ReadTextFile } from './configFile.js';
import { text } from './pluginOptions.js';
import { isRecord, type JsonRecord } from '../util/json.js';
import type { Credentials, PluginConfig } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where ovcli.conf and ov.conf are looked for: the variables' files, else `~/.openviking/` (openviking-api.md §5.1). */
export function credentialFilePaths(env: Env, homeDir: string): { cli: string; ov: string } {
  const at = (override: string | undefined, fallbackName: string) =>
    expandHome(override ?? join('~', '.openviking', fallbackName), homeDir);
  return {
    cli: at(text(env['OPENVIKING_CLI_CONFIG_FILE']), 'ovcli.conf'),
    ov: at(text(env['OPENVIKING_CONFIG_FILE']), 'ov.conf'),
  };
}

export interface ConfigFilesInput {
  env: Env;
  homeDir: string;
  readFile: ReadTextFile;
}

/**
 * ovcli.conf and ov.conf, read. Back-compat: `OPENVIKING_CONFIG_FILE` alone
 * naming a file that looks like an ovcli.conf (client fields, no `server`
 * section) makes that file the ovcli.conf, and there is no ov.conf.
 */
export function loadCredentialFiles(input: ConfigFilesInput): { cliFile: LoadedConfigFile; ovFile: LoadedConfigFile } {
  const { env, homeDir, readFile } = input;
  const paths = credentialFilePaths(env, homeDir);
  const load = (path: string) => loadConfigFile(path, displayPath(path, homeDir), readFile);
  const ovFile = load(paths.ov);
  if (ovFileMayBeCli(env) && looksLikeOvcli(ovFile.value))
    return { cliFile: ovFile, ovFile: { path: ovFile.path, exists: false } };
  return { cliFile: load(paths.cli), ovFile };
}

/** The ovcli.conf of {@link loadCredentialFiles} alone: ov.conf is read only when the back-compat rule can apply. */
export function loadCliFile(input: ConfigFilesInput): LoadedConfigFile {
  if (ovFileMayBeCli(input.env)) return loadCredentialFiles(input).cliFile;
  const path = credentialFilePaths(input.env, input.homeDir).cli;
  return loadConfigFile(path, displayPath(path, input.homeDir), input.readFile);
}

function ovFileMayBeCli(env: Env): boolean {
  return text(env['OPENVIKING_CONFIG_FILE']) !== undefined && text(env['OPENVIKING_CLI_CONFIG_FILE']) === undefined;
}

function looksLikeOvcli(value: JsonRecord | undefined): boolean {
  if (!value || isRecord(value['server'])) return false;
  return ['url', 'api_key', 'account', 'account_id', 'user', 'user_id', 'actor_peer_id'].some(
    (key) => typeof value[key] === 'string',
  );
}

/**
 * Every file whose content the configuration depends on, sorted: ovcli.conf
 * and ov.conf where they are looked for, and the files a load read
 * (`credentials.files`: the CLI's stored plugin options too, when read).
 */
export function configurationFiles(env: Env, homeDir: string, credentials?: Pick<Credentials, 'files'>): string[] {
  const { cli, ov } = credentialFilePaths(env, homeDir);
  return [...new Set([cli, ov, ...(credentials?.files ?? [])])].sort();
}

/** `path:mtime:size` of each file (`path:-` when absent or not looked at), joined: equal stamps, unchanged files. */
export function filesStamp(paths: readonly string[]): string {
  return paths
    .map((path) => {
      const stats = statQuietly(path);
      return stats ? `${path}:${stats.mtimeMs}:${stats.size}` : `${path}:-`;
    })
    .join('|');
}

export interface ConfigWatch {
  /** The configuration as of the last check. */
  current(): PluginConfig;
  /** Loads again when a configuration file changed since the last check; true when it did. */
  refresh(): boolean;
}

export interface ConfigWatchOptions {
  load: () => PluginConfig;
  env: Env;
  homeDir: string;
  /** Told each warning of a load (and a load that threw). */
  warn: (message: string) => void;
}

/** The configuration, loaded now and again whenever `refresh` finds one of its files changed. */
export function createConfigWatch(options: ConfigWatchOptions): ConfigWatch {
  let config = options.load();
  let paths = configurationFiles(options.env, options.homeDir, config.credentials);
  let stamp = filesStamp(paths);
  for (const warning of config.warnings) options.warn(warning);

  return {
    current: () => config,
    refresh() {
      const now = filesStamp(paths);
      if (now === stamp) return false;
      // The stamp first: a file rewritten during the load is caught by the next check.
      stamp = now;
      try {
        config = options.load();
      } catch (error) {
        // The loader is meant to be total; if it is not, keep serving the last good config.
        options.warn(`config reload failed, keeping the previous configuration: ${errorMessage(error)}`);
        return false;
      }
      for (const warning of config.warnings) options.warn(warning);
      const nextPaths = configurationFiles(options.env, options.homeDir, config.credentials);
      if (nextPaths.join('|') !== paths.join('|')) {
        paths = nextPaths;
        stamp = filesStamp(paths);
      }
      return true;
    },
  };
}
