/**
 * Vocabulary of the OpenViking client: result values, request bodies and the
 * lenient views of the responses the plugin reads. No runtime code.
 *
 * Wire facts come from openviking-api.md (source API of docs/host-facts.md, which follows the server's
 * code where its docs differ). Fields the plugin does not read are not typed;
 * responses may carry more keys and nulls, which are tolerated.
 *
 * @module
 */

/** Every client call resolves to one of these; none throws. */
export type OvResult<T> = OvSuccess<T> | OvFailure;

export interface OvSuccess<T> {
  ok: true;
  status: number;
  result: T;
}

export interface OvFailure {
  ok: false;
  /** HTTP status; 0 when no HTTP answer arrived (network error, timeout). */
  status: number;
  /** Server error code (e.g. `NOT_FOUND`), or a local one: `NETWORK`, `TIMEOUT`, `DEADLINE`, `BAD_RESPONSE`, `BAD_REQUEST` (refused before sending). */
  code: string;
  message: string;
  /** The single retry classifier's verdict (see retry.ts). */
  retryable: boolean;
  /** Set on a `NETWORK` failure when no byte of the request left this machine (transportError.ts `unsent`): the server cannot have it. */
  unsent?: true;
  /** On a `NETWORK` failure: the system or TLS error code behind it (`ECONNREFUSED`, `ENOTFOUND`, …), for doctor. */
  cause?: string;
  details?: Record<string, unknown>;
}

export interface HealthInfo {
  status?: string;
  healthy?: boolean;
  version?: string;
  auth_mode?: 'dev' | 'api_key' | 'trusted' | string;
  account_id?: string;
  user_id?: string;
  role?: 'user' | 'admin' | 'root' | string;
}

export interface SystemStatus {
  initialized?: boolean;
  user?: string;
}

export interface LsEntry {
  uri: string;
  name?: string;
  rel_path?: string;
  isDir?: boolean;
  size?: number;
  modTime?: string;
  abstract?: string;
}

export interface LsOptions {
  recursive?: boolean;
  output?: 'agent' | 'original';
  simple?: boolean;
  absLimit?: number;
  nodeLimit?: number;
}

/** `POST /api/v1/search/search` with `mode:"context"` (extra keys are a 400). */
export interface ContextSearchBody {
  query: string;
  mode: 'context';
  purpose?: 'chat' | 'coding';
  score_threshold?: number;
  session_id?: string;
  dedup_turns?: number;
  max_tokens?: number;
  query_expansion?: 'off' | 'auto';
  quotas?: Partial<Record<'events' | 'entities' | 'preferences' | 'experiences' | 'resources' | 'skills', number>>;
  peer_scope?: 'actor' | 'all';
  /** Taken off the scores of other peers' memories. */
  other_peer_penalty?: number;
  exclude_uris?: string[];
}

/** `POST /api/v1/search/recall` (deprecated tier 2; extra keys are a 400). */
export interface RecallBody {
  query: string;
  quotas?: Partial<Record<'events' | 'entities' | 'preferences' | 'experiences', number>>;
  max_chars?: number;
  min_score?: number;
  render?: boolean;
  peer_scope?: 'actor' | 'all';
  other_peer_penalty?: number;
  exclude_uris?: string[];
}

export interface ContextEntry {
  uri: string;
  category?: string;
  score?: number;
  detail?: string;
  text?: string;
  origin?: string;
}

export interface ContextSearchResult {
  entries: ContextEntry[];
  rendered: string;
  digest: string;
  stats?: Record<string, unknown> & { rewrite?: string };
}

/** `POST /api/v1/search/find` (extra keys are a 400). */
export interface FindBody {
  query: string;
  target_uri?: string | string[];
  context_type?: string | string[];
  limit?: number;
  score_threshold?: number;
}

export interface FindItem {
  uri: string;
  context_type?: string;
  level?: number;
  score?: number;
  abstract?: string;
}

export interface FindResult {
  memories: FindItem[];
  resources: FindItem[];
  skills: FindItem[];
  total?: number;
}

/** A message part as OpenViking accepts it. */
export type MessagePart =
  | { type: 'text'; text: string }
  | {
      type: 'tool';
      tool_id?: string;
      tool_name?: string;
      tool_input?: Record<string, unknown> | null;
      tool_output?: string;
      tool_status?: 'pending' | 'running' | 'completed' | 'error';
    };

export interface SessionMessage {
  role: 'user' | 'assistant';
  parts: MessagePart[];
  created_at?: string;
  peer_id?: string;
}

export interface AddMessagesResult {
  session_id: string;
  message_count?: number;
  added?: number;
  pending_tokens?: number;
}

export interface SessionInfo {
  session_id: string;
  message_count?: number;
  total_message_count?: number;
  commit_count?: number;
  pending_tokens?: number;
  last_commit_at?: string | null;
  last_message_at?: string | null;
  /** The session's server-side commit policy (openviking-api.md §10); null: none; absent: the server predates it. */
  auto_commit_policy?: AutoCommitPolicy | null;
  /** Memories extracted by every commit of the session so far: `total` and per category (DESIGN F25). */
  memories_extracted?: MemoryCounts;
}

/** Memories by category (`events`, `preferences`, …; a session's record adds `total`). */
export type MemoryCounts = Record<string, number>;

/** `GET /api/v1/tasks/{id}` of a commit task, the fields the plugin reads (DESIGN F24). */
export interface TaskInfo {
  task_id: string;
  /** `pending`, `running`, `cancelling`, `completed`, `failed`, `cancelled`. */
  status: string;
  /** Why it failed. */
  error?: string;
  /** Completed: this commit's memories by category (no `total`: sum them). */
  memories_extracted?: MemoryCounts;
  /** Completed, when something was written: `<archive_uri>/memory_diff.json`, which names each memory. */
  memory_diff_uri?: string;
  archive_uri?: string;
}

/** `auto_commit_policy` (openviking-api.md §10): integers; missing fields take the server's defaults. */
export interface AutoCommitPolicy {
  pending_token_threshold?: number;
  message_count_threshold?: number;
  idle_timeout_seconds?: number;
  keep_recent_count?: number;
  min_commit_interval_seconds?: number;
}

export interface CommitBody {
  keep_recent_count?: number;
}

export interface CommitResult {
  session_id: string;
  status: 'accepted' | 'skipped' | string;
  task_id?: string | null;
  archive_uri?: string | null;
  archived?: boolean;
  reason?: string;
}

export interface SessionContext {
  latest_archive_overview?: string;
  estimatedTokens?: number;
}

/** Who the client speaks as, and where. Built by the configuration layer. */
export interface ClientIdentity {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:1933`. */
  baseUrl: string;
  apiKey?: string;
  account?: string;
  user?: string;
  /** Sent as `X-OpenViking-Actor-Peer` on non-session routes. */
  actorPeer?: string;
  /** `openviking-codebuddy/<version>`. */
  userAgent: string;
}

export interface ClientOptions extends ClientIdentity {
  http: import('./http.js').HttpTransport;
  now: () => number;
  /** Per-call timeout. */
  timeoutMs: number;
  /** Absolute epoch-ms after which no call starts and running calls are cut (the stage's deadline). */
  deadlineAt?: number;
}

/** One typed function per endpoint the plugin uses. Every method resolves; none throws. */
export interface OpenVikingClient {
  readonly baseUrl: string;
  /** @param timeoutMs - this call's own limit, when it is not the client's. */
  health(timeoutMs?: number): Promise<OvResult<HealthInfo>>;
  systemStatus(): Promise<OvResult<SystemStatus>>;
  ls(uri: string, options?: LsOptions): Promise<OvResult<LsEntry[]>>;
  read(uri: string): Promise<OvResult<string>>;
  searchContext(body: ContextSearchBody, timeoutMs?: number): Promise<OvResult<ContextSearchResult>>;
  recall(body: RecallBody): Promise<OvResult<ContextSearchResult>>;
  find(body: FindBody): Promise<OvResult<FindResult>>;
  getSession(sessionId: string): Promise<OvResult<SessionInfo>>;
  addMessage(sessionId: string, message: SessionMessage): Promise<OvResult<AddMessagesResult>>;
  addMessages(sessionId: string, messages: SessionMessage[]): Promise<OvResult<AddMessagesResult>>;
  commit(sessionId: string, body?: CommitBody): Promise<OvResult<CommitResult>>;
  /** A commit's background task (memory extraction): its status and, once completed, what it extracted. */
  getTask(taskId: string): Promise<OvResult<TaskInfo>>;
  /** `PATCH .../config` with the session's commit policy; answers the effective one. */
  setCommitPolicy(sessionId: string, policy: AutoCommitPolicy): Promise<OvResult<AutoCommitPolicy | null>>;
  sessionContext(sessionId: string, tokenBudget: number): Promise<OvResult<SessionContext>>;
}
