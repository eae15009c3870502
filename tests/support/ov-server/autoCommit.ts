/**
 * Server-side automatic commits (contract §10, `auto_commit_policy`): the
 * policy's normalisation (defaults for missing fields, clamping, integers
 * only), the threshold check after each message write, and the idle
 * scanner, which runs only when the server enables it (`autoCommit.idleScanMs`
 * here; `memory.session_auto_commit.idle_enabled` on the real server).
 * An auto commit archives like `POST .../commit` with the policy's
 * `keep_recent_count` and is recorded with `auto: 'threshold' | 'idle'`.
 *
 * `autoCommit.supported: false` makes an older server: the create route
 * rejects the field, the config route does not exist.
 *
 * @module
 */
import { z } from 'zod';
import type { SessionRecord, SessionStore } from './sessions.js';
import { bodyIssue, validationError } from './validation.js';

export interface AutoCommitPolicy {
  pending_token_threshold: number;
  message_count_threshold: number;
  idle_timeout_seconds: number;
  keep_recent_count: number;
  min_commit_interval_seconds: number;
}

/** Defaults and clamps of `openviking/session/auto_commit_policy.py` (contract §10). */
const FIELDS: Readonly<Record<keyof AutoCommitPolicy, { default: number; max: number }>> = {
  pending_token_threshold: { default: 150_000, max: 1_000_000 },
  message_count_threshold: { default: 100, max: 1000 },
  idle_timeout_seconds: { default: 86_400, max: 604_800 },
  keep_recent_count: { default: 0, max: 1000 },
  min_commit_interval_seconds: { default: 0, max: 604_800 },
};

const NULL_FIELD_MESSAGE =
  'auto_commit_policy fields must be integers; use auto_commit_policy=null to disable automatic commits';

/** `extra="forbid"`; every field an optional integer. */
export const autoCommitPolicySchema = z.strictObject({
  pending_token_threshold: z.number().int().optional(),
  message_count_threshold: z.number().int().optional(),
  idle_timeout_seconds: z.number().int().optional(),
  keep_recent_count: z.number().int().optional(),
  min_commit_interval_seconds: z.number().int().optional(),
});

/** The least non-zero idle timeout 0.5.2 accepts on a write (`validate_idle_timeout_input`). */
export const MIN_IDLE_TIMEOUT_SECONDS = 300;

/**
 * The stored policy for a request value: null disables; explicit null fields,
 * unknown keys, non-integers and an idle timeout between 1 and 299 s are
 * refused with pydantic's messages (docs/host-facts.md F41).
 */
export function normalizePolicy(value: unknown): AutoCommitPolicy | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && Object.values(value as Record<string, unknown>).some((field) => field === null)) {
    throw validationError([bodyIssue(['auto_commit_policy'], `Value error, ${NULL_FIELD_MESSAGE}`)]);
  }
  const parsed = autoCommitPolicySchema.safeParse(value);
  if (!parsed.success)
    throw validationError(
      parsed.error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) =>
              bodyIssue(['auto_commit_policy', key], 'Extra inputs are not permitted', 'extra_forbidden'),
            )
          : [
              bodyIssue(
                ['auto_commit_policy', ...issue.path.map(String)],
                'Input should be a valid integer',
                'int_type',
              ),
            ],
      ),
    );
  const idle = parsed.data.idle_timeout_seconds;
  if (idle !== undefined && idle !== 0 && idle < MIN_IDLE_TIMEOUT_SECONDS)
    throw validationError([
      bodyIssue(
        ['auto_commit_policy', 'idle_timeout_seconds'],
        `Value error, auto_commit_policy.idle_timeout_seconds must be 0 or at least ${MIN_IDLE_TIMEOUT_SECONDS}`,
      ),
    ]);
  const policy = {} as AutoCommitPolicy;
  for (const [key, rule] of Object.entries(FIELDS) as Array<
    [keyof AutoCommitPolicy, { default: number; max: number }]
  >) {
    policy[key] = Math.min(rule.max, Math.max(0, parsed.data[key] ?? rule.default));
  }
  return policy;
}

function policyOf(record: SessionRecord): AutoCommitPolicy | null {
  const policy = record.autoCommitPolicy;
  return policy !== null && typeof policy === 'object' ? (policy as AutoCommitPolicy) : null;
}

function intervalElapsed(record: SessionRecord, policy: AutoCommitPolicy, now: number): boolean {
  const last = record.lastCommitAt === '' ? 0 : Date.parse(record.lastCommitAt);
  return now - last >= policy.min_commit_interval_seconds * 1000;
}

function autoCommit(
  store: SessionStore,
  record: SessionRecord,
  policy: AutoCommitPolicy,
  kind: 'threshold' | 'idle',
  now: number,
): void {
  const result = store.commit(record, { keep_recent_count: policy.keep_recent_count });
  const entry = record.commits[record.commits.length - 1];
  if (entry !== undefined) entry.auto = kind;
  if (result['status'] === 'accepted') record.lastAutoCommitAt = new Date(now).toISOString();
}

/** After a message write (`maybe_schedule_auto_commit`): commits when a threshold (0 = off) is reached. */
export function maybeAutoCommit(store: SessionStore, record: SessionRecord, now: number): void {
  const policy = policyOf(record);
  if (policy === null || !intervalElapsed(record, policy, now)) return;
  const byTokens = policy.pending_token_threshold > 0 && store.pendingTokens(record) >= policy.pending_token_threshold;
  const byCount = policy.message_count_threshold > 0 && record.live.length >= policy.message_count_threshold;
  if ((byTokens || byCount) && record.live.length > policy.keep_recent_count)
    autoCommit(store, record, policy, 'threshold', now);
}

/** One pass of the idle scanner: sessions with live messages and no write for `idle_timeout_seconds`. */
export function scanIdleSessions(store: SessionStore, records: Iterable<SessionRecord>, now: number): void {
  for (const record of records) {
    const policy = policyOf(record);
    if (policy === null || policy.idle_timeout_seconds <= 0 || record.live.length <= policy.keep_recent_count) continue;
    const lastWrite = record.lastMessageAt === '' ? 0 : Date.parse(record.lastMessageAt);
    if (now - lastWrite >= policy.idle_timeout_seconds * 1000 && intervalElapsed(record, policy, now))
      autoCommit(store, record, policy, 'idle', now);
  }
}
