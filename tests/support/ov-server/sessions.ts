/**
 * Session state and the commit/context semantics of `session.py`
 * (contract §2.1): auto-creation, ordered message appends with post-write
 * `pending_tokens`, commit that archives all but `keep_recent_count` live
 * messages (accepted / skipped with a reason), background-task records, and
 * the archive re-hydration read. Every message ever added is kept in arrival
 * order so tests can assert exactly-once delivery.
 *
 * @module
 */
import { z } from 'zod';
import type { ArchiveRecord, CommitRecord, Identity, SessionSnapshot, StoredMessage } from './types.js';
import { bodyIssue, parseOrThrow, validationError } from './validation.js';
import { messageTokens, partText, type PreparedMessage } from './messages.js';
import { estimateTokens } from './tokens.js';
import { joinUri } from './uri.js';
import type { TaskStore } from './tasks.js';

export interface SessionRecord {
  account: string;
  user: string;
  sessionId: string;
  createdAt: string;
  updatedAt: string;
  live: StoredMessage[];
  all: StoredMessage[];
  archives: ArchiveRecord[];
  commits: CommitRecord[];
  recallLog: Array<{ turn: number; uris: string[] }>;
  /** Unset times are "" (0.5.2's `SessionMeta`, docs/host-facts.md F39). */
  lastCommitAt: string;
  lastMessageAt: string;
  /** Set when the session's `auto_commit_policy` archived something (autoCommit.ts). */
  lastAutoCommitAt: string;
  /** Tokens of the messages added since the last accepted commit (a commit resets it, a kept tail too). */
  pending: number;
  memoryPolicy: unknown;
  autoCommitPolicy: unknown;
  memoryExtractionConfig: unknown;
  /** `total` plus per category, added to by each completed commit task (tasks.ts). */
  memoriesExtracted: Record<string, number>;
}

const commitSchema = z.object({
  keep_recent_count: z.number().int().min(0).max(10000).optional(),
  retention_mode: z.literal('turn_budget').nullable().optional(),
  keep_recent_turn_count: z.number().int().min(0).optional(),
  retained_message_token_budget: z.number().int().min(1).optional(),
  min_raw_tail_steps: z.number().int().min(0).optional(),
  extraction_metadata: z
    .object({ event: z.object({ tags: z.array(z.string()).optional() }).optional() })
    .nullable()
    .optional(),
  telemetry: z.union([z.boolean(), z.record(z.string(), z.boolean())]).optional(),
});

/** What 0.5.2 reports for a session created without a `memory_extraction_config`. */
export const DEFAULT_EXTRACTION_CONFIG = { events: { tags: [] as string[] } };

const TURN_BUDGET_FIELDS = ['keep_recent_turn_count', 'retained_message_token_budget', 'min_raw_tail_steps'] as const;

export function sessionUri(user: string, sessionId: string): string {
  return joinUri(['user', user, 'sessions', sessionId]);
}

export class SessionStore {
  private readonly records = new Map<string, SessionRecord>();
  private nextSeq = 1;

  constructor(
    private readonly now: () => number,
    /** Each archive's commit task and its memory extraction (phase 2). */
    readonly tasks: TaskStore,
    /**
     * Working memory on: each archive gets its overview, which `…/context`
     * answers. Off is 0.5.2's default, which writes none, so
     * `latest_archive_overview` stays "" (docs/host-facts.md F41).
     */
    readonly workingMemory = false,
  ) {}

  /** Every session (the idle scanner walks them). */
  all(): IterableIterator<SessionRecord> {
    return this.records.values();
  }

  get(identity: Pick<Identity, 'account' | 'user'>, sessionId: string): SessionRecord | undefined {
    return this.records.get(keyOf(identity, sessionId));
  }

  getOrCreate(
    identity: Pick<Identity, 'account' | 'user'>,
    sessionId: string,
    init: Partial<Pick<SessionRecord, 'memoryPolicy' | 'autoCommitPolicy' | 'memoryExtractionConfig'>> = {},
  ): SessionRecord {
    const existing = this.get(identity, sessionId);
    if (existing !== undefined) return existing;
    const nowIso = this.isoNow();
    const record: SessionRecord = {
      account: identity.account,
      user: identity.user,
      sessionId,
      createdAt: nowIso,
      updatedAt: nowIso,
      live: [],
      all: [],
      archives: [],
      commits: [],
      recallLog: [],
      lastCommitAt: '',
      lastMessageAt: '',
      lastAutoCommitAt: '',
      pending: 0,
      memoryPolicy: init.memoryPolicy ?? null,
      autoCommitPolicy: init.autoCommitPolicy ?? null,
      memoryExtractionConfig: init.memoryExtractionConfig ?? null,
      memoriesExtracted: { total: 0 },
    };
    this.records.set(keyOf(identity, sessionId), record);
    return record;
  }

  /** Appends validated messages in order and returns them stamped. */
  append(record: SessionRecord, prepared: PreparedMessage[]): StoredMessage[] {
    const stored = prepared.map((message) => ({ ...message, seq: this.nextSeq++ }));
    record.live.push(...stored);
    record.all.push(...stored);
    record.pending += stored.reduce((sum, message) => sum + messageTokens(message), 0);
    if (stored.length > 0) record.lastMessageAt = record.updatedAt = this.isoNow();
    return stored;
  }

  /** 0.5.2's `pending_tokens`: what was added since the last accepted commit, not the live tail's size. */
  pendingTokens(record: SessionRecord): number {
    return record.pending;
  }

  /** `POST .../commit`: validates the body, archives, and returns the result object. */
  commit(record: SessionRecord, body: unknown): Record<string, unknown> {
    const options = parseOrThrow(commitSchema, body ?? {});
    const misplaced = TURN_BUDGET_FIELDS.filter(
      (field) => options[field] !== undefined && options.retention_mode !== 'turn_budget',
    );
    if (misplaced.length > 0)
      throw validationError(
        misplaced.map((field) => bodyIssue([field], `${field} requires retention_mode='turn_budget'`)),
      );
    const keep =
      options.retention_mode === 'turn_budget'
        ? keepCountForTurns(record.live, options.keep_recent_turn_count ?? 3)
        : (options.keep_recent_count ?? 0);
    // 0.5.2 without a tracer answers "" (docs/host-facts.md F41).
    const base = { session_id: record.sessionId, trace_id: '' };
    if (record.live.length === 0)
      return this.skip(record, body, keep, {
        ...base,
        effective_enable_working_memory: this.workingMemory,
        reason: 'no_messages',
      });
    const archivedCount = record.live.length - keep;
    if (archivedCount <= 0) {
      return this.skip(record, body, keep, {
        ...base,
        effective_enable_working_memory: this.workingMemory,
        reason: 'all_within_keep_window',
        estimated_active_tokens: this.pendingTokens(record),
        budget_exceeded: false,
      });
    }
    const archive = this.archive(record, record.live.splice(0, archivedCount));
    record.pending = 0;
    const task = this.tasks.commitTask(
      {
        account: record.account,
        user: record.user,
        sessionId: record.sessionId,
        memoriesExtracted: record.memoriesExtracted,
      },
      archive,
    );
    record.commits.push({
      status: 'accepted',
      keepRecentCount: keep,
      archiveUri: archive.uri,
      taskId: task.task_id,
      at: archive.createdAt,
      body,
    });
    record.lastCommitAt = record.updatedAt = archive.createdAt;
    return {
      ...base,
      status: 'accepted',
      task_id: task.task_id,
      archive_uri: archive.uri,
      archived: true,
      effective_enable_working_memory: this.workingMemory,
      estimated_active_tokens: this.pendingTokens(record),
      budget_exceeded: false,
    };
  }

  /** `GET .../context`: the latest archive overview plus the newest live messages that fit. */
  context(record: SessionRecord, tokenBudget: number): Record<string, unknown> {
    const latest = record.archives[record.archives.length - 1];
    const overview = latest?.overview ?? '';
    const archiveTokens = estimateTokens(overview);
    const includeArchive = overview !== '' && archiveTokens <= tokenBudget;
    let remaining = tokenBudget - (includeArchive ? archiveTokens : 0);
    const messages: StoredMessage[] = [];
    for (const message of [...record.live].reverse()) {
      const tokens = messageTokens(message);
      if (tokens > remaining) break;
      remaining -= tokens;
      messages.unshift(message);
    }
    const activeTokens = messages.reduce((sum, message) => sum + messageTokens(message), 0);
    return {
      latest_archive_overview: includeArchive ? overview : '',
      pre_archive_abstracts: [],
      messages: messages.map(publicMessage),
      estimatedTokens: activeTokens + (includeArchive ? archiveTokens : 0),
      stats: {
        totalArchives: record.archives.length,
        includedArchives: includeArchive ? 1 : 0,
        droppedArchives: record.archives.length - (includeArchive ? 1 : 0),
        failedArchives: 0,
        activeTokens,
        archiveTokens: includeArchive ? archiveTokens : 0,
      },
    };
  }

  /** The `GET /sessions/{id}` result. */
  meta(record: SessionRecord): Record<string, unknown> {
    return {
      session_id: record.sessionId,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
      created_by_account_id: record.account,
      created_by_user_id: record.user,
      message_count: record.live.length,
      commit_count: record.archives.length,
      memories_extracted: { ...record.memoriesExtracted },
      last_commit_at: record.lastCommitAt,
      llm_token_usage: {
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
        cached_tokens: 0,
        reasoning_tokens: 0,
      },
      embedding_token_usage: { total_tokens: 0 },
      pending_tokens: this.pendingTokens(record),
      keep_recent_count: 0,
      retention_mode: '',
      keep_recent_turn_count: 0,
      retained_message_token_budget: 0,
      min_raw_tail_steps: 1,
      memory_policy: record.memoryPolicy,
      auto_commit_policy: record.autoCommitPolicy,
      last_message_at: record.lastMessageAt,
      last_auto_commit_at: record.lastAutoCommitAt,
      last_idle_commit_accepted_at: '',
      total_message_count: record.all.length,
      uri: sessionUri(record.user, record.sessionId),
      user: { account_id: record.account, user_id: record.user },
      memory_extraction_config: record.memoryExtractionConfig ?? DEFAULT_EXTRACTION_CONFIG,
    };
  }

  remove(identity: Pick<Identity, 'account' | 'user'>, sessionId: string): boolean {
    return this.records.delete(keyOf(identity, sessionId));
  }

  snapshot(): SessionSnapshot[] {
    return [...this.records.values()].map((record) =>
      structuredClone({
        account: record.account,
        user: record.user,
        sessionId: record.sessionId,
        uri: sessionUri(record.user, record.sessionId),
        createdAt: record.createdAt,
        messages: record.live,
        allMessages: record.all,
        archives: record.archives,
        commits: record.commits,
        pendingTokens: this.pendingTokens(record),
        recallLog: record.recallLog,
      }),
    );
  }

  private skip(
    record: SessionRecord,
    body: unknown,
    keep: number,
    fields: Record<string, unknown> & { reason: string },
  ): Record<string, unknown> {
    record.commits.push({ status: 'skipped', reason: fields.reason, keepRecentCount: keep, at: this.isoNow(), body });
    return { ...fields, status: 'skipped', task_id: null, archive_uri: null, archived: false };
  }

  private archive(record: SessionRecord, messages: StoredMessage[]): ArchiveRecord {
    const index = record.archives.length + 1;
    const name = `archive_${String(index).padStart(3, '0')}`;
    const archive: ArchiveRecord = {
      index,
      uri: `${sessionUri(record.user, record.sessionId)}/history/${name}`,
      messages,
      overview: this.workingMemory ? archiveOverview(index, messages) : '',
      createdAt: this.isoNow(),
    };
    record.archives.push(archive);
    return archive;
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}

/**
 * The deterministic overview of an archive: a heading and one line per
 * message (`role: first 160 chars`), at most 20 lines.
 */
export function archiveOverview(index: number, messages: StoredMessage[]): string {
  const lines = messages.slice(0, 20).map((message) => {
    const text = message.parts.map(partText).join(' ').replace(/\s+/g, ' ').trim();
    return `- ${message.role}: ${text.slice(0, 160)}`;
  });
  const more = messages.length > 20 ? [`- ... ${messages.length - 20} more messages`] : [];
  return [
    `# Session archive ${String(index).padStart(3, '0')}`,
    '',
    `${messages.length} messages archived.`,
    '',
    ...lines,
    ...more,
  ].join('\n');
}

function publicMessage(message: StoredMessage): Record<string, unknown> {
  const { seq: _seq, ...rest } = message;
  return rest;
}

/** How many newest messages make up the last `turns` user turns. */
function keepCountForTurns(live: StoredMessage[], turns: number): number {
  if (turns <= 0) return 0;
  let seen = 0;
  for (let i = live.length - 1; i >= 0; i -= 1) {
    if (live[i]?.role === 'user' && ++seen === turns) return live.length - i;
  }
  return live.length;
}

function keyOf(identity: Pick<Identity, 'account' | 'user'>, sessionId: string): string {
  return `${identity.account}\u0000${identity.user}\u0000${sessionId}`;
}
