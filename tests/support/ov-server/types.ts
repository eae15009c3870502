/**
 * Vocabulary of the OpenViking test server: options, identities, stored
 * state and request-log records. No runtime code.
 *
 * The server imitates the wire contract in openviking-api.md (source API, docs/host-facts.md)
 * (which follows OpenViking's code where its docs differ). Tests read these
 * shapes to assert what the plugin sent and what the server kept.
 *
 * @module
 */

export type AuthMode = 'dev' | 'api_key' | 'trusted';
export type Role = 'root' | 'admin' | 'user';

/** Who a request speaks as, after auth resolution. */
export interface Identity {
  account: string;
  user: string;
  role: Role;
  /** Validated `X-OpenViking-Actor-Peer`, on non-session routes only. */
  actorPeer?: string;
}

export interface KeyIdentity {
  account: string;
  user: string;
  role: Role;
}

export interface AuthOptions {
  mode: AuthMode;
  /** api_key mode: key → identity (role `root` keys behave like the root key). */
  keys?: Record<string, KeyIdentity>;
  /** api_key: the ROOT key; trusted: when set, every request must carry it. */
  rootKey?: string;
}

/** A seeded file: its text, and optionally the L0 abstract used by search. */
export type SeedFile = string | { content: string; abstract?: string; tags?: string[] };

export interface SeedSpec {
  account?: string;
  /** Files relative to `viking://user/<user>/` unless the key is a full `viking://` URI. */
  user?: string;
  files: Record<string, SeedFile>;
}

export interface OvServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  auth?: AuthOptions;
  seed?: SeedSpec | SeedSpec[];
  /** Clock in epoch ms; default Date.now. */
  now?: () => number;
  /** Answer MCP POSTs with plain JSON instead of SSE frames (FastMCP default is SSE). */
  mcpJsonResponse?: boolean;
  /**
   * The MCP protocol revisions the server's MCP library speaks, newest first
   * (the real server's are its Python `mcp` package's; a server built on
   * another release speaks others). `initialize` answers the client's
   * revision when listed, else the first, as that library negotiates.
   * Default: the SDK's own list.
   */
  mcpProtocolVersions?: readonly string[];
  /**
   * After a commit archives messages, write one deterministic memory per
   * archive under `memories/events/` (default false, so search results only
   * change when a test seeds them).
   */
  extractOnCommit?: boolean;
  /**
   * Working memory on: each archive gets a deterministic overview, answered
   * as `latest_archive_overview` by `…/context`. Off by default, as on 0.5.2,
   * whose archives then have none (docs/host-facts.md F41).
   */
  workingMemory?: boolean;
  /** Reported by /health and the MCP health tool. */
  version?: string;
  /**
   * Server-side automatic commits (contract §10, autoCommit.ts). `supported`
   * (default true) false: an older server (create rejects `auto_commit_policy`,
   * no `PATCH .../config` route). `idleScanMs`: run the idle scanner at this
   * interval (off by default, as on the real server).
   */
  autoCommit?: { supported?: boolean; idleScanMs?: number };
}

/** A part as stored after validation and normalisation. */
export type StoredPart = Record<string, unknown> & { type: string };

export interface StoredMessage {
  id: string;
  role: string;
  parts: StoredPart[];
  created_at: string;
  peer_id?: string;
  turn_id?: string;
  message_kind?: string;
  source_message_ids?: string[];
  /** Server-wide arrival order, for exactly-once assertions across sessions. */
  seq: number;
}

export interface ArchiveRecord {
  index: number;
  uri: string;
  messages: StoredMessage[];
  overview: string;
  createdAt: string;
}

export interface CommitRecord {
  status: 'accepted' | 'skipped';
  reason?: string;
  keepRecentCount: number;
  archiveUri?: string;
  taskId?: string;
  at: string;
  body: unknown;
  /** Set when the server's own `auto_commit_policy` made this commit (autoCommit.ts). */
  auto?: 'threshold' | 'idle';
}

/** A read-only snapshot of one session, as `server.sessions()` returns it. */
export interface SessionSnapshot {
  account: string;
  user: string;
  sessionId: string;
  uri: string;
  createdAt: string;
  /** Live (not yet archived) messages, oldest first. */
  messages: StoredMessage[];
  /** Every message ever added, archived or live, in arrival order. */
  allMessages: StoredMessage[];
  archives: ArchiveRecord[];
  commits: CommitRecord[];
  pendingTokens: number;
  /** URIs recorded by the recall dedup ledger, with the turn they were injected at. */
  recallLog: Array<{ turn: number; uris: string[] }>;
}

/** One request as the server saw it. Headers keep their values (auth included) for security tests. */
export interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  rawBody: string;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
  /** 0 while unanswered, or when the fault never answered (hang, reset). */
  status: number;
  startedAt: number;
  /** When the server began to act on it (after any latency fault): a store happens then, answered or not. */
  handledAt?: number;
  durationMs?: number;
  /** Which fault, if any, shaped the answer. */
  fault?: 'latency' | 'error' | 'hang' | 'reset' | 'legacy' | 'no-recall';
}

export interface RequestFilter {
  method?: string;
  /** Exact path, or a pattern tested against the path. */
  path?: string | RegExp;
  status?: number;
}
