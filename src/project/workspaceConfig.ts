/**
 * A project's own switches: `.openviking/config.json` in the workspace (or
 * in a folder above it, up to the repository's top level).
 *
 * ```json
 * { "enabled": false, "autoRecall": false, "autoCapture": false, "autoProfile": false, "peerId": "billing-api" }
 * ```
 *
 * The file travels with a repository, so a clone can carry someone else's
 * file: it may only turn things OFF (a `true` cannot override the user's
 * `false`, and is ignored) and name the project's peer (`peerId`, or
 * `false` for "no peer"). It never sets a server, a key or any other knob.
 * Read with the same guards as the user's config files (size, JSON object,
 * no prototype keys: config/configFile.ts).
 *
 * @module
 */
import { loadConfigFile, readSmallTextFile } from '../config/configFile.js';
import type { Settings } from '../config/types.js';
import { isValidPeerId } from './remote.js';

/** The settings a workspace file may switch off. */
export const PROJECT_SWITCHES = ['enabled', 'autoRecall', 'autoCapture', 'autoProfile'] as const;
export type ProjectSwitch = (typeof PROJECT_SWITCHES)[number];

export interface WorkspaceConfig {
  path: string;
  /** Switches this project turns off. */
  off: ProjectSwitch[];
  /** A peer id, or `false` for "this project has none"; absent: not set here. */
  peerId?: string | false;
  warnings: string[];
}

export const WORKSPACE_CONFIG_PATH = '.openviking/config.json';

/** Parses the file at `path`; undefined when it does not exist. Never throws. */
export function readWorkspaceConfig(path: string): WorkspaceConfig | undefined {
  const file = loadConfigFile(path, path, readSmallTextFile);
  if (!file.exists) return undefined;
  const config: WorkspaceConfig = { path, off: [], warnings: file.warning ? [file.warning] : [] };
  const value = file.value;
  if (value === undefined) return config;
  for (const name of PROJECT_SWITCHES) {
    const raw = value[name];
    if (raw === false) config.off.push(name);
    else if (raw !== undefined && raw !== true) config.warnings.push(`${path}: ${name} should be true or false; ignoring it`);
  }
  const peer = value['peerId'];
  if (peer === false || peer === '') config.peerId = false;
  else if (typeof peer === 'string' && isValidPeerId(peer.trim())) config.peerId = peer.trim();
  else if (peer !== undefined) config.warnings.push(`${path}: peerId must match ^[a-zA-Z0-9_.@-]+$ (at most one @, 128 characters) or be false; ignoring it`);
  return config;
}

/** `settings` with the project's off-switches applied (a new object when any applies). */
export function applyProjectSwitches<S extends Pick<Settings, ProjectSwitch>>(settings: S, off: readonly ProjectSwitch[]): S {
  if (off.length === 0) return settings;
  const next = { ...settings };
  for (const name of off) next[name] = false;
  return next;
}
