/**
 * Where the plugin keeps its durable local state, and how ids become file
 * names.
 *
 * One data directory per user, whoever asks (DESIGN D21): the hooks, the
 * resident, the workers, the MCP proxy, the status line and doctor must all
 * read and write the same queue and status files, but only hooks ever get
 * the host's `CODEBUDDY_PLUGIN_DATA` / `CLAUDE_PLUGIN_DATA`, whose value also
 * changes with the install form (2.163: `…/plugins/data/<plugin>-inline`
 * under `--plugin-dir`, another name from a marketplace; 2.117: never set).
 * So the data directory is `OPENVIKING_CODEBUDDY_DATA_DIR` when set (the
 * override), else `<CODEBUDDY_CONFIG_DIR or ~/.codebuddy>/openviking`, and
 * the host's per-install directories are only places an earlier version may
 * have left queued writes in: `store/adopt.ts` moves them here.
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
 * | `queries/`                   | `/openviking:recall` query files, single use     |
 *
 * `<key>` is always `safeFileKey(id)`.
 *
 * @module
 */
import { hash64Hex } from './fastHash.js';
import { isAbsolute, join } from 'node:path';

/** Which variable (or fallback) chose the data directory, for doctor. */
export type DataDirSource = 'env:OPENVIKING_CODEBUDDY_DATA_DIR' | 'env:CODEBUDDY_CONFIG_DIR' | 'default';

export interface ResolvedDataDir {
  dir: string;
  source: DataDirSource;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The override: names the data directory itself. */
const OVERRIDE_VARIABLE = 'OPENVIKING_CODEBUDDY_DATA_DIR';

/** Per-install data directories a host may hand to hooks; never the data directory (D21), only adopted from. */
export const HOST_DATA_VARIABLES = ['CODEBUDDY_PLUGIN_DATA', 'CLAUDE_PLUGIN_DATA'] as const;

/** Sub-directory of the host's config dir used when no variable names one. */
export const DEFAULT_DATA_SUBDIR = 'openviking';

/**
 * The data directory and where it came from. A variable counts only when it
 * is non-empty, not an unsubstituted `${...}` placeholder, and absolute after
 * `~` expansion; otherwise the next source is tried.
 */
export function describeDataDir(env: Env, homeDir: string): ResolvedDataDir {
  const override = usablePath(env[OVERRIDE_VARIABLE], homeDir);
  if (override !== undefined) return { dir: override, source: `env:${OVERRIDE_VARIABLE}` };
  const configDir = usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir);
  if (configDir !== undefined) return { dir: join(configDir, DEFAULT_DATA_SUBDIR), source: 'env:CODEBUDDY_CONFIG_DIR' };
  return { dir: join(homeDir, '.codebuddy', DEFAULT_DATA_SUBDIR), source: 'default' };
}

/**
 * CodeBuddy's config directory, read as the data directory reads it:
 * `CODEBUDDY_CONFIG_DIR` (with `~` expanded; a placeholder or relative path
 * does not count), else `~/.codebuddy`. The CLI keeps settings.json and
 * credentials.json there, and its per-install plugin data under `plugins/data`.
 */
export function codebuddyConfigDir(env: Env, homeDir: string): string {
  return usablePath(env.CODEBUDDY_CONFIG_DIR, homeDir) ?? join(homeDir, '.codebuddy');
}

/**
 * Claude Code's config directory: `CLAUDE_CONFIG_DIR` (read as above), else
 * `~/.claude`. Its `projects/` holds the session transcripts (FC2).
 */
export function claudeConfigDir(env: Env, homeDir: string): string {
  return usablePath(env.CLAUDE_CONFIG_DIR, homeDir) ?? join(homeDir, '.claude');
}

/** `OPENVIKING_CODEBUDDY_DATA_DIR` → `<CODEBUDDY_CONFIG_DIR or ~/.codebuddy>/openviking`. */
export function resolveDataDir(env: Env, homeDir: string): string {
  return describeDataDir(env, homeDir).dir;
}

/**
 * The host's per-install data directories named in this process's
 * environment (hooks only), usable paths only, without the data directory.
 */
export function hostDataDirs(env: Env, homeDir: string): string[] {
  const own = resolveDataDir(env, homeDir);
  const dirs = HOST_DATA_VARIABLES.map((name) => usablePath(env[name], homeDir)).filter(
    (dir): dir is string => dir !== undefined && dir !== own,
  );
  return [...new Set(dirs)];
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
