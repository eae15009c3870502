/**
 * Everything one server instance holds: options, the virtual filesystem,
 * sessions, faults, the request log, MCP watches, and the seeding entry.
 * Built once per `startOvServer` and shared by the REST routes and `/mcp`.
 *
 * @module
 */
import type { AuthOptions, Identity, OvServerOptions, SeedSpec } from './types.js';
import { Vfs } from './vfs.js';
import { SessionStore, sessionUri, type SessionRecord } from './sessions.js';
import { TaskStore } from './tasks.js';
import { Faults } from './faults.js';
import { RequestLog } from './log.js';
import { joinUri } from './uri.js';

export interface Watch {
  to_uri: string;
  source: string;
  watch_interval: number;
  created_at: string;
}

export interface ServerState {
  auth: AuthOptions;
  version: string;
  mcpJsonResponse: boolean;
  /** Set: the revisions `initialize` negotiates from (OvServerOptions). */
  mcpProtocolVersions?: readonly string[];
  now: () => number;
  vfs: Vfs;
  sessions: SessionStore;
  faults: Faults;
  log: RequestLog;
  /** Per account: `to_uri` → watch. */
  watches: Map<string, Map<string, Watch>>;
  /** Server-side automatic commits (autoCommit.ts). */
  autoCommit: { supported: boolean; idleScanMs?: number };
}

export const DEFAULT_VERSION = '0.0.0-test';

export function createState(options: OvServerOptions): ServerState {
  const now = options.now ?? Date.now;
  const vfs = new Vfs();
  const sessions = new SessionStore(
    now,
    new TaskStore(now, vfs, options.extractOnCommit === true),
    options.workingMemory === true,
  );
  const state: ServerState = {
    // A copy: the admin API adds keys to it (routes/admin.ts).
    auth: { ...(options.auth ?? { mode: 'dev' }), ...(options.auth?.keys ? { keys: { ...options.auth.keys } } : {}) },
    version: options.version ?? DEFAULT_VERSION,
    mcpJsonResponse: options.mcpJsonResponse === true,
    ...(options.mcpProtocolVersions !== undefined ? { mcpProtocolVersions: options.mcpProtocolVersions } : {}),
    now,
    vfs,
    sessions,
    faults: new Faults(),
    log: new RequestLog(),
    watches: new Map(),
    autoCommit: {
      supported: options.autoCommit?.supported !== false,
      ...(options.autoCommit?.idleScanMs !== undefined ? { idleScanMs: options.autoCommit.idleScanMs } : {}),
    },
  };
  for (const spec of [options.seed ?? []].flat()) seedState(state, spec);
  return state;
}

/**
 * Writes seed files. Keys are relative to `viking://user/<user>/` (user
 * default `default`) unless they are full `viking://` URIs; account default
 * `default`.
 */
export function seedState(state: ServerState, spec: SeedSpec): void {
  const account = spec.account ?? 'default';
  const user = spec.user ?? 'default';
  const modTime = new Date(state.now()).toISOString();
  state.vfs.mkdir(account, joinUri(['user', user]));
  for (const [path, file] of Object.entries(spec.files)) {
    const uri = path.startsWith('viking://')
      ? path.replace(/\/+$/, '')
      : joinUri(['user', user, ...path.split('/').filter(Boolean)]);
    state.vfs.write(account, uri, typeof file === 'string' ? { content: file } : file, modTime);
  }
}

/** Gets or auto-creates a session, making its directory visible in `fs/ls`. */
export function ensureSession(
  state: ServerState,
  identity: Identity,
  sessionId: string,
  init?: Parameters<SessionStore['getOrCreate']>[2],
): SessionRecord {
  state.vfs.mkdir(identity.account, sessionUri(identity.user, sessionId));
  return state.sessions.getOrCreate(identity, sessionId, init);
}
