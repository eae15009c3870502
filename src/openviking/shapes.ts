/**
 * The lenient readers of each OpenViking result the plugin uses.
 *
 * One function per result type in types.ts. Each copies only the typed
 * fields (so `__proto__`-style keys or megabytes of unread fields never travel
 * further), tolerates extra keys and nulls, and throws `ShapeError` on a shape
 * the plugin could not use. Wire shapes: openviking-api.md §1.6 and §2.
 *
 * @module
 */
import type {
  AddMessagesResult,
  CommitResult,
  ContextEntry,
  ContextSearchResult,
  FindItem,
  FindResult,
  HealthInfo,
  LsEntry,
  SessionContext,
  SessionInfo,
  AutoCommitPolicy,
  SystemStatus,
  MemoryCounts,
  TaskInfo,
} from './types.js';
import {
  ShapeError,
  arrayOf,
  compact,
  isRecord,
  listOf,
  optionalBoolean,
  optionalNumber,
  optionalString,
  record,
  requiredString,
} from '../util/json.js';

export function readHealth(value: unknown): HealthInfo {
  const body = record(value, 'health');
  const s = (key: string) => optionalString(body, key, 'health');
  return compact({
    status: s('status'),
    healthy: optionalBoolean(body, 'healthy', 'health'),
    version: s('version'),
    auth_mode: s('auth_mode'),
    account_id: s('account_id'),
    user_id: s('user_id'),
    role: s('role'),
  });
}

export function readSystemStatus(value: unknown): SystemStatus {
  const body = record(value, 'result');
  return compact({
    initialized: optionalBoolean(body, 'initialized', 'result'),
    user: optionalString(body, 'user', 'result'),
  });
}

/** `simple=true` listings are bare URI strings; they become entries with only `uri`. */
export function readLsEntries(value: unknown): LsEntry[] {
  return arrayOf(value, 'result', (item, path) => {
    if (typeof item === 'string') return { uri: item };
    const entry = record(item, path);
    return compact({
      uri: requiredString(entry, 'uri', path),
      name: optionalString(entry, 'name', path),
      rel_path: optionalString(entry, 'rel_path', path),
      isDir: optionalBoolean(entry, 'isDir', path),
      size: optionalNumber(entry, 'size', path),
      modTime: optionalString(entry, 'modTime', path),
      abstract: optionalString(entry, 'abstract', path),
    });
  });
}

export function readText(value: unknown): string {
  if (typeof value !== 'string') throw new ShapeError('result', 'string', value);
  return value;
}

function readContextEntry(value: unknown, path: string): ContextEntry {
  const entry = record(value, path);
  const s = (key: string) => optionalString(entry, key, path);
  return compact({
    uri: requiredString(entry, 'uri', path),
    category: s('category'),
    score: optionalNumber(entry, 'score', path),
    detail: s('detail'),
    text: s('text'),
    origin: s('origin'),
  });
}

/** Shared by the context face and the deprecated `/search/recall` (same result shape). */
export function readContextSearch(value: unknown): ContextSearchResult {
  const body = record(value, 'result');
  const stats = body['stats'];
  if (stats !== undefined && stats !== null && !isRecord(stats)) throw new ShapeError('result.stats', 'object', stats);
  return compact({
    entries: listOf(body, 'entries', 'result', readContextEntry),
    rendered: optionalString(body, 'rendered', 'result') ?? '',
    digest: optionalString(body, 'digest', 'result') ?? '',
    stats: stats ?? undefined,
  });
}

function readFindItem(value: unknown, path: string): FindItem {
  const item = record(value, path);
  return compact({
    uri: requiredString(item, 'uri', path),
    context_type: optionalString(item, 'context_type', path),
    level: optionalNumber(item, 'level', path),
    score: optionalNumber(item, 'score', path),
    abstract: optionalString(item, 'abstract', path),
  });
}

export function readFind(value: unknown): FindResult {
  const body = record(value, 'result');
  return compact({
    memories: listOf(body, 'memories', 'result', readFindItem),
    resources: listOf(body, 'resources', 'result', readFindItem),
    skills: listOf(body, 'skills', 'result', readFindItem),
    total: optionalNumber(body, 'total', 'result'),
  });
}

/** A reply without `session_id` is read as being about the session that was asked for. */
export function readAddMessages(value: unknown, sessionId: string): AddMessagesResult {
  const body = record(value, 'result');
  const n = (key: string) => optionalNumber(body, key, 'result');
  return compact({
    session_id: optionalString(body, 'session_id', 'result') ?? sessionId,
    message_count: n('message_count'),
    added: n('added'),
    pending_tokens: n('pending_tokens'),
  });
}

export function readSessionInfo(value: unknown, sessionId: string): SessionInfo {
  const body = record(value, 'result');
  const n = (key: string) => optionalNumber(body, key, 'result');
  const nullableTime = (key: string) => (body[key] === null ? null : optionalString(body, key, 'result'));
  return compact({
    session_id: optionalString(body, 'session_id', 'result') ?? sessionId,
    message_count: n('message_count'),
    total_message_count: n('total_message_count'),
    commit_count: n('commit_count'),
    pending_tokens: n('pending_tokens'),
    last_commit_at: nullableTime('last_commit_at'),
    last_message_at: nullableTime('last_message_at'),
    auto_commit_policy: readPolicyField(body),
    memories_extracted: readCounts(body['memories_extracted']),
  });
}

/** Non-negative whole counts by name; anything else (or an odd key) is left out. */
function readCounts(value: unknown): MemoryCounts | undefined {
  if (!isRecord(value)) return undefined;
  const counts: MemoryCounts = {};
  for (const [name, count] of Object.entries(value)) {
    if (name === '__proto__' || typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) continue;
    counts[name] = count;
  }
  return counts;
}

/** A task record (`to_dict()`): the status, and for a commit's task its result's counts and diff. */
export function readTask(value: unknown, taskId: string): TaskInfo {
  const body = record(value, 'result');
  const result = isRecord(body['result']) ? body['result'] : {};
  const error = body['error'];
  return compact({
    task_id: optionalString(body, 'task_id', 'result') ?? taskId,
    status: requiredString(body, 'status', 'result'),
    error: typeof error === 'string' ? error : undefined,
    memories_extracted: readCounts(result['memories_extracted']),
    memory_diff_uri: optionalString(result, 'memory_diff_uri', 'result.result'),
    archive_uri: optionalString(result, 'archive_uri', 'result.result'),
  });
}

const POLICY_KEYS = [
  'pending_token_threshold',
  'message_count_threshold',
  'idle_timeout_seconds',
  'keep_recent_count',
  'min_commit_interval_seconds',
] as const;

/** `auto_commit_policy` of a session or config answer: null when none, undefined when the server does not say. */
function readPolicyField(body: Record<string, unknown>): AutoCommitPolicy | null | undefined {
  const value = body['auto_commit_policy'];
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const policy: AutoCommitPolicy = {};
  for (const key of POLICY_KEYS) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'number' && Number.isFinite(field)) policy[key] = field;
  }
  return policy;
}

/** The `PATCH .../config` answer: the effective policy. */
export function readCommitPolicy(value: unknown): AutoCommitPolicy | null {
  return readPolicyField(record(value, 'result')) ?? null;
}

/** `status` is required: callers branch on `accepted` versus `skipped`. */
export function readCommit(value: unknown, sessionId: string): CommitResult {
  const body = record(value, 'result');
  const nullable = (key: string) => (body[key] === null ? null : optionalString(body, key, 'result'));
  return compact({
    session_id: optionalString(body, 'session_id', 'result') ?? sessionId,
    status: requiredString(body, 'status', 'result'),
    task_id: nullable('task_id'),
    archive_uri: nullable('archive_uri'),
    archived: optionalBoolean(body, 'archived', 'result'),
    reason: optionalString(body, 'reason', 'result'),
  });
}

export function readSessionContext(value: unknown): SessionContext {
  const body = record(value, 'result');
  return compact({
    latest_archive_overview: optionalString(body, 'latest_archive_overview', 'result'),
    estimatedTokens: optionalNumber(body, 'estimatedTokens', 'result'),
  });
}
