/**
 * Where the plugin keeps its durable local state, and how ids become file
 * names.
 *
 * CodeBuddy 2.117 never sets `CODEBUDDY_PLUGIN_DATA` (a hook argument
 * `${CODEBUDDY_PLUGIN_DATA}` even arrives unsubstituted), while newer hosts
 * set it to a per-install directory whose name depends on the install form
 * (seed 000 §2). So the host's value wins when it is real, and otherwise the
 * plugin picks a stable per-user directory beside the host's own config.
 * Never the OS temp dir: a tmp cleanup would forget every capture cursor and
 * re-send whole sessions.
 *
 * Layout under the data directory (all dirs 0700, all files 0600):
 *
 * | path                         | what                                             |
 * |------------------------------|--------------------------------------------------|
 * | `sessions/<key>.json`        | per-session state, versioned (sessionState.ts)   |
 * | `locks/<purpose>-<key>.lock` | cross-process lock directories (lock.ts)         |
 * | `queue/pending/*.json`       | pending writes; `*.processing` = claimed entry   |
 * | `queue/dead/*.json`          | dead letters: reason + original entry            |
 * | `queue/*.lock`               | the queue's own enqueue / replay locks           |
 * | `cache/`                     | disposable caches (safe to delete at any time)   |
 *
 * `<key>` is always `safeFileKey(id)`.
 *
 * @module
 */
import { hash64Hex } from './fastHash.js';
import { isAbsolute, join } from 'node:path';

/** Which variable (or fallback) chose the data directory, for doctor. */
export type DataDirSource =
  | 'env:CODEBUDDY_PLUGIN_DATA'
  | 'env:CLAUDE_PLUGIN_DATA'
  | 'env:OPENVIKING_CODEBUDDY_DATA_DIR'
  | 'env:CODEBUDDY_CONFIG_DIR'
  | 'default';

export interface ResolvedDataDir {
  dir: string;
  source: DataDirSource;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Variables that name the data directory itself, in priority order. */
const DATA_DIR_VARIABLES = ['CODEBUDDY_PLUGIN_DATA', 'CLAUDE_PLUGIN_DATA', 'OPENVIKING_CODEBUDDY_DATA_DIR'] as const;

/** Sub-directory of the host's config dir used when no variable names one. */
export const DEFAULT_DATA_SUBDIR = 'openviking';

/**
 * The data directory and where it came from. A variable counts only when it
 * is non-empty, not an unsubstituted `${...}` placeholder, and absolute after
 * `~` expansion; otherwise the next source is tried.
 */
export function describeDataDir(env: Env, homeDir: string): ResolvedDataDir {
  for (const name of DATA_DIR_VARIABLES) {
    const dir = usablePath(env[name], homeDir);
    if (dir !== undefined) return { dir, source: `env:${name}` };
  }
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== undefined) return { dir: join(configDir, DEFAULT_DATA_SUBDIR), source: 'env:CODEBUDDY_CONFIG_DIR' };
  return { dir: join(homeDir, '.codebuddy', DEFAULT_DATA_SUBDIR), source: 'default' };
}

/**
 * `CODEBUDDY_PLUGIN_DATA` → `CLAUDE_PLUGIN_DATA` → `OPENVIKING_CODEBUDDY_DATA_DIR`
 * → `<CODEBUDDY_CONFIG_DIR or ~/.codebuddy>/openviking`.
 */
export function resolveDataDir(env: Env, homeDir: string): string {
  return describeDataDir(env, homeDir).dir;
}

function usablePath(raw: string | undefined, homeDir: string): string | undefined {
  const value = raw?.trim();
  if (!value || value.includes('${')) return undefined;
  const expanded = value === '~' ? homeDir : value.startsWith('~/') ? join(homeDir, value.slice(2)) : value;
  return isAbsolute(expanded) ? expanded : undefined;
}

/** Longest readable prefix kept by `safeFileKey`. */
const KEY_PREFIX_MAX_CHARS = 48;
/** Hex digits of the hash appended by `safeFileKey` (64 bits). */
const KEY_HASH_HEX_CHARS = 16;

/**
 * A file-name-safe, bounded, collision-free key for any id: a sanitized
 * readable prefix (`[A-Za-z0-9_-]`, at most 48 chars) plus 16 hex digits of
 * a fast 64-bit hash of the id (fastHash.ts). Distinct ids that sanitize alike (`a/b`, `a_b`) still get
 * distinct keys, and no key can contain a path separator or start with a dot.
 */
export function safeFileKey(id: string): string {
  const prefix = id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, KEY_PREFIX_MAX_CHARS) || 'id';
  const hash = hash64Hex(id).slice(0, KEY_HASH_HEX_CHARS);
  return `${prefix}-${hash}`;
}

export interface StoreLayout {
  root: string;
  sessionsDir: string;
  locksDir: string;
  /** Pass to queue.ts (`enqueue`, `replay`, `queueStats`). */
  queueDir: string;
  cacheDir: string;
}

/** The fixed sub-directories of a data directory (nothing is created here). */
export function storeLayout(root: string): StoreLayout {
  return {
    root,
    sessionsDir: join(root, 'sessions'),
    locksDir: join(root, 'locks'),
    queueDir: join(root, 'queue'),
    cacheDir: join(root, 'cache'),
  };
}

/** `sessions/<key>.json` for a session id (or any per-session key). */
export function sessionStateFile(layout: StoreLayout, sessionKey: string): string {
  return join(layout.sessionsDir, `${safeFileKey(sessionKey)}.json`);
}

/**
 * `locks/<purpose>-<key>.lock`. `purpose` separates independent locks on the
 * same session (`state` for the state file, `worker` for "one capture worker
 * per session"); it must be a plain word.
 */
export function sessionLockFile(layout: StoreLayout, sessionKey: string, purpose = 'state'): string {
  return join(layout.locksDir, `${purpose}-${safeFileKey(sessionKey)}.lock`);
}
