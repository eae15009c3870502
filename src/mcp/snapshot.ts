/**
 * What the proxy remembers about an upstream across runs: its capabilities
 * and instructions (for the local `initialize` answer) and its last tool list
 * (served by `tools/list` while the server is down).
 *
 * Why on disk: CodeBuddy starts one proxy per CLI run and lists tools right
 * after `initialize`. If OpenViking is down at that moment, an empty list
 * would hide the memory tools for the whole run; the remembered list keeps
 * them visible, and calling one then explains that the server is down. The
 * file lives in the plugin data dir's disposable `cache/` (src/store/paths.ts),
 * one file per MCP URL, written atomically (0600).
 *
 * @module
 */
import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../store/atomic.js';
import { safeFileKey } from '../store/paths.js';
import type { UpstreamProfile } from './initialize.js';
import { errorMessage } from '../util/errors.js';
import { isRecord } from '../util/json.js';

export const SNAPSHOT_VERSION = 1;

export interface UpstreamSnapshot {
  version: typeof SNAPSHOT_VERSION;
  mcpUrl: string;
  savedAt: number;
  profile?: UpstreamProfile;
  /** The `tools` array of the last successful `tools/list`, verbatim. */
  tools?: unknown[];
}

/** `<cacheDir>/mcp-upstream-<key of the MCP URL>.json`. */
export function snapshotPath(cacheDir: string, mcpUrl: string): string {
  return join(cacheDir, `mcp-upstream-${safeFileKey(mcpUrl)}.json`);
}

/** Narrows a parsed file; anything unexpected counts as no snapshot. */
export function narrowSnapshot(value: unknown, mcpUrl: string): UpstreamSnapshot | undefined {
  if (!isRecord(value) || value.version !== SNAPSHOT_VERSION || value.mcpUrl !== mcpUrl) return undefined;
  const snapshot: UpstreamSnapshot = {
    version: SNAPSHOT_VERSION,
    mcpUrl,
    savedAt: typeof value.savedAt === 'number' ? value.savedAt : 0,
  };
  const profile = value.profile;
  if (isRecord(profile) && isRecord(profile.capabilities)) {
    snapshot.profile = { capabilities: profile.capabilities };
    if (typeof profile.instructions === 'string') snapshot.profile.instructions = profile.instructions;
  }
  if (Array.isArray(value.tools)) snapshot.tools = value.tools;
  return snapshot;
}

export interface SnapshotStore {
  /** The remembered snapshot for `mcpUrl` (read from disk once per URL). */
  load(mcpUrl: string): Promise<UpstreamSnapshot | undefined>;
  /** Merges `change` into the snapshot of `mcpUrl` (seen by `load` at once) and writes it when it changed; failures are only logged. */
  update(mcpUrl: string, change: Pick<UpstreamSnapshot, 'profile'> | Pick<UpstreamSnapshot, 'tools'>): Promise<void>;
}

export interface SnapshotStoreOptions {
  /** Directory for the files; `undefined` keeps snapshots in memory only. */
  cacheDir: string | undefined;
  now: () => number;
  warn: (message: string) => void;
}

export function createSnapshotStore(options: SnapshotStoreOptions): SnapshotStore {
  const byUrl = new Map<string, Promise<UpstreamSnapshot | undefined>>();
  let updates: Promise<void> = Promise.resolve();

  const load = (mcpUrl: string) => {
    let loaded = byUrl.get(mcpUrl);
    if (!loaded) {
      const { cacheDir } = options;
      loaded =
        cacheDir === undefined
          ? Promise.resolve(undefined)
          : readJson(snapshotPath(cacheDir, mcpUrl)).then((value) => narrowSnapshot(value, mcpUrl));
      byUrl.set(mcpUrl, loaded);
    }
    return loaded;
  };

  /**
   * The merge replaces the in-memory snapshot at once, so a `load` right
   * after an `update` sees it (a listing that fails a moment after a live
   * one must serve that list, not the older file). Each merge builds on the
   * one before it, so two updates that arrive together (the session's profile
   * and the first tool list) both survive, and writes run one at a time in
   * the same order. A change equal to what is remembered writes nothing.
   */
  const update: SnapshotStore['update'] = (mcpUrl, change) => {
    let changed = false;
    const merged = load(mcpUrl).then((previous): UpstreamSnapshot | undefined => {
      changed = Object.entries(change).some(
        ([field, value]) => JSON.stringify(previous?.[field as keyof UpstreamSnapshot]) !== JSON.stringify(value),
      );
      return changed ? { ...previous, ...change, version: SNAPSHOT_VERSION, mcpUrl, savedAt: options.now() } : previous;
    });
    byUrl.set(mcpUrl, merged);
    const run = updates.then(async () => {
      const next = await merged;
      const { cacheDir } = options;
      if (!changed || next === undefined || cacheDir === undefined) return;
      await writeJsonAtomic(snapshotPath(cacheDir, mcpUrl), next, { fsync: false }).catch((error: unknown) =>
        options.warn(`could not save the upstream snapshot: ${errorMessage(error)}`),
      );
    });
    updates = run;
    return run;
  };

  return { load, update };
}
