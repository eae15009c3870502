/**
 * Session routes (contract §2.1, §10): create (with `auto_commit_policy`),
 * the policy's `PATCH .../config`, get (404 unless `auto_create`),
 * add one message, add a batch (≤100), commit (404 for unknown sessions,
 * never auto-created), archive context, delete. Adds auto-create the
 * session. Session routes ignore the actor-peer header (`auth: 'session'`).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { addMessageSchema, prepareBatch, prepareMessage } from '../messages.js';
import { OvError, invalidArgument, notFound } from '../errors.js';
import { bodyIssue, parseOrThrow } from '../validation.js';
import { maybeAutoCommit, normalizePolicy } from '../autoCommit.js';
import { ok, okCompact, queryBool, queryInt, route, type RequestContext, type Route } from '../router.js';
import { DEFAULT_EXTRACTION_CONFIG, sessionUri, type SessionRecord } from '../sessions.js';
import { ensureSession } from '../state.js';

const createSchema = z.object({
  session_id: z.string().min(1).optional(),
  memory_policy: z.record(z.string(), z.unknown()).optional(),
  auto_commit_policy: z.unknown().optional(),
  memory_extraction_config: z
    .object({ events: z.object({ tags: z.array(z.string()).optional() }).optional() })
    .optional(),
  telemetry: z.unknown().optional(),
});

const configSchema = z.object({ auto_commit_policy: z.unknown().optional() });

/** What a server from before §10 answers to the field: pydantic's 422 for an unknown key. */
function olderServerRefusal(): OvError {
  const issue = bodyIssue(['auto_commit_policy'], 'Extra inputs are not permitted', 'extra_forbidden');
  return new OvError(
    'INVALID_ARGUMENT',
    `Invalid request parameters: body.auto_commit_policy: ${issue.message}`,
    { validation_errors: [issue] },
    422,
  );
}

function sessionIdOf(ctx: RequestContext): string {
  return ctx.params['session_id'] ?? '';
}

/**
 * The session, else 404: `Session not found: <id>` as the service raises it
 * (commit, context, delete), or `Session <id> not found` where 0.5.2's
 * handler answers itself (`get`, `PATCH …/config`: `asResponse`).
 */
function existing(ctx: RequestContext, handlerAnswers = false): SessionRecord {
  const id = sessionIdOf(ctx);
  const record = ctx.state.sessions.get(ctx.identity, id);
  if (record !== undefined) return record;
  if (handlerAnswers) throw notFound(`Session ${id} not found`).asResponse();
  throw notFound(`Session not found: ${id}`, { type: 'session', resource: id });
}

function autoCreated(ctx: RequestContext): SessionRecord {
  return ensureSession(ctx.state, ctx.identity, sessionIdOf(ctx));
}

function nowIso(ctx: RequestContext): string {
  return new Date(ctx.state.now()).toISOString();
}

export const sessionRoutes: readonly Route[] = [
  route('POST', '/api/v1/sessions', 'session', (ctx) => {
    const body = parseOrThrow(createSchema, ctx.body ?? {});
    if (body.auto_commit_policy !== undefined && !ctx.state.autoCommit.supported) throw olderServerRefusal();
    const policy = normalizePolicy(body.auto_commit_policy);
    const sessionId = body.session_id ?? randomUUID();
    if (ctx.state.sessions.get(ctx.identity, sessionId) !== undefined)
      throw new OvError('ALREADY_EXISTS', `Session already exists: ${sessionId}`);
    const record = ensureSession(ctx.state, ctx.identity, sessionId, {
      memoryPolicy: body.memory_policy ?? null,
      autoCommitPolicy: policy,
      memoryExtractionConfig: body.memory_extraction_config ?? null,
    });
    return ok({
      session_id: sessionId,
      uri: sessionUri(record.user, sessionId),
      user: { account_id: record.account, user_id: record.user },
      auto_commit_policy: record.autoCommitPolicy,
      memory_extraction_config: record.memoryExtractionConfig ?? DEFAULT_EXTRACTION_CONFIG,
    });
  }),
  route('GET', '/api/v1/sessions/{session_id}', 'session', (ctx) => {
    const record = queryBool(ctx, 'auto_create', false) ? autoCreated(ctx) : existing(ctx, true);
    return ok(ctx.state.sessions.meta(record));
  }),
  route('DELETE', '/api/v1/sessions/{session_id}', 'session', (ctx) => {
    existing(ctx);
    ctx.state.sessions.remove(ctx.identity, sessionIdOf(ctx));
    ctx.state.vfs.remove(ctx.identity.account, sessionUri(ctx.identity.user, sessionIdOf(ctx)), true);
    return ok({ session_id: sessionIdOf(ctx), deleted: true });
  }),
  route('POST', '/api/v1/sessions/{session_id}/messages', 'session', (ctx) => {
    const prepared = prepareMessage(parseOrThrow(addMessageSchema, ctx.body), ctx.identity, nowIso(ctx));
    const record = autoCreated(ctx);
    ctx.state.sessions.append(record, prepared);
    const answer = {
      session_id: record.sessionId,
      message_count: record.live.length,
      pending_tokens: ctx.state.sessions.pendingTokens(record),
    };
    maybeAutoCommit(ctx.state.sessions, record, ctx.state.now());
    return ok(answer);
  }),
  route('POST', '/api/v1/sessions/{session_id}/messages/batch', 'session', (ctx) => {
    const prepared = prepareBatch(ctx.body, ctx.identity, nowIso(ctx));
    const record = autoCreated(ctx);
    const added = ctx.state.sessions.append(record, prepared).length;
    const answer = {
      session_id: record.sessionId,
      message_count: record.live.length,
      added,
      pending_tokens: ctx.state.sessions.pendingTokens(record),
    };
    maybeAutoCommit(ctx.state.sessions, record, ctx.state.now());
    return ok(answer);
  }),
  route('PATCH', '/api/v1/sessions/{session_id}/config', 'session', (ctx) => {
    if (!ctx.state.autoCommit.supported) throw notFound('Not Found').asResponse();
    const body = parseOrThrow(configSchema, ctx.body ?? {});
    const record = existing(ctx, true);
    if ('auto_commit_policy' in body) record.autoCommitPolicy = normalizePolicy(body.auto_commit_policy);
    return okCompact({
      session_id: record.sessionId,
      auto_commit_policy: record.autoCommitPolicy,
      memory_extraction_config: record.memoryExtractionConfig ?? DEFAULT_EXTRACTION_CONFIG,
    });
  }),
  route('POST', '/api/v1/sessions/{session_id}/commit', 'session', (ctx) =>
    okCompact(ctx.state.sessions.commit(existing(ctx), ctx.body)),
  ),
  route('GET', '/api/v1/sessions/{session_id}/context', 'session', (ctx) => {
    const budget = queryInt(ctx, 'token_budget', 128000);
    if (budget < 0)
      throw invalidArgument('token_budget must be greater than or equal to 0', {
        field: 'token_budget',
        value: budget,
      }).asResponse();
    return ok(ctx.state.sessions.context(existing(ctx), budget));
  }),
];
