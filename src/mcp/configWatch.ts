/**
 * The proxy's current configuration, re-read when a config file changes.
 *
 * The proxy lives as long as the CLI run, while users fix their key by
 * editing `~/.openviking/ovcli.conf`. Before every upstream call the proxy
 * compares the mtime and size of the config files (the ones the loader read,
 * plus the standard paths, so a newly created file counts too) with the last
 * look, and reloads on any difference: a few `stat` calls, microseconds.
 * Environment variables are fixed for the life of a process, so a changed
 * env value still needs a CodeBuddy restart.
 *
 * @module
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expandHome } from '../config/configFile.js';
import type { PluginConfig } from '../config/types.js';
import { errorMessage } from '../util/errors.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigWatch {
  /** The configuration as of the last check. */
  current(): PluginConfig;
  /** Reloads when a watched file changed since the last check; true when it did. */
  refresh(): boolean;
}

export interface ConfigWatchOptions {
  load: () => PluginConfig;
  env: Env;
  homeDir: string;
  warn: (message: string) => void;
}

/** The config files the credential chain may read, whether or not they exist now (openviking-api.md §5.1). */
export function standardConfigPaths(env: Env, homeDir: string): string[] {
  const pick = (name: string, fallback: string) =>
    expandHome(env[name]?.trim() || join('~', '.openviking', fallback), homeDir);
  return [pick('OPENVIKING_CLI_CONFIG_FILE', 'ovcli.conf'), pick('OPENVIKING_CONFIG_FILE', 'ov.conf')];
}

/** `path:mtime:size` of each file (`path:-` when absent), joined; equal fingerprints mean "unchanged". */
export function fingerprintFiles(paths: readonly string[]): string {
  return paths
    .map((path) => {
      try {
        // No exception for a missing file: this runs before every call.
        const stats = statSync(path, { throwIfNoEntry: false });
        return stats ? `${path}:${stats.mtimeMs}:${stats.size}` : `${path}:-`;
      } catch {
        // Unreadable (permissions, a broken parent): treated like a missing file.
        return `${path}:-`;
      }
    })
    .join('|');
}

export function createConfigWatch(options: ConfigWatchOptions): ConfigWatch {
  const standard = standardConfigPaths(options.env, options.homeDir);
  const watchedPaths = (config: PluginConfig) => [...new Set([...standard, ...config.credentials.files])].sort();

  let config = options.load();
  let paths = watchedPaths(config);
  let fingerprint = fingerprintFiles(paths);
  for (const warning of config.warnings) options.warn(warning);

  return {
    current: () => config,
    refresh() {
      const now = fingerprintFiles(paths);
      if (now === fingerprint) return false;
      // Fingerprint first: a file rewritten during the load is caught by the next check.
      fingerprint = now;
      try {
        config = options.load();
      } catch (error) {
        // The loader is meant to be total; if it is not, keep serving the last good config.
        options.warn(`config reload failed, keeping the previous configuration: ${errorMessage(error)}`);
        return false;
      }
      for (const warning of config.warnings) options.warn(warning);
      const nextPaths = watchedPaths(config);
      if (nextPaths.join('|') !== paths.join('|')) {
        paths = nextPaths;
        fingerprint = fingerprintFiles(paths);
      }
      return true;
    },
  };
}
