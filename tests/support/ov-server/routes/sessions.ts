/**
 * Session routes (contract §2.1): create, get (404 unless `auto_create`),
 * add one message, add a batch (≤100), commit (404 for unknown sessions,
 * never auto-created), archive context, delete. Adds auto-create the
 * session. Session routes ignore the actor-peer header (`auth: 'session'`).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { addMessageSchema, prepareBatch, prepareMessage } from '../messages.js';
import { OvError, notFound } from '../errors.js';
import { parseOrThrow, validationError } from '../validation.js';
import { ok, queryBool, queryInt, route, type RequestContext, type Route } from '../router.js';
import { sessionUri, type SessionRecord } from '../sessions.js';
import { ensureSession } from '../state.js';

const autoCommitPolicySchema = z.strictObject({
  pending_token_threshold: z.number().int().optional(),
  message_count_threshold: z.number().int().optional(),
  idle_timeout_seconds: z.number().int().optional(),
  keep_recent_count: z.number().int().optional(),
  min_commit_interval_seconds: z.number().int().optional(),
});

const createSchema = z.object({
  session_id: z.string().min(1).optional(),
  memory_policy: z.record(z.string(), z.unknown()).optional(),
  auto_commit_policy: autoCommitPolicySchema.optional(),
  memory_extraction_config: z.object({ events: z.object({ tags: z.array(z.string()).optional() }).optional() }).optional(),
  telemetry: z.unknown().optional(),
});

function sessionIdOf(ctx: RequestContext): string {
  return ctx.params['session_id'] ?? '';
}

function existing(ctx: RequestContext): SessionRecord {
  const record = ctx.state.sessions.get(ctx.identity, sessionIdOf(ctx));
  if (record === undefined) throw notFound(`Session not found: ${sessionIdOf(ctx)}`);
  return record;
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
    const sessionId = body.session_id ?? randomUUID();
    if (ctx.state.sessions.get(ctx.identity, sessionId) !== undefined) throw new OvError('ALREADY_EXISTS', `Session already exists: ${sessionId}`);
    const record = ensureSession(ctx.state, ctx.identity, sessionId, {
      memoryPolicy: body.memory_policy ?? null,
      autoCommitPolicy: body.auto_commit_policy ?? null,
      memoryExtractionConfig: body.memory_extraction_config ?? null,
    });
    return ok({
      session_id: sessionId,
      uri: sessionUri(record.user, sessionId),
      user: { account_id: record.account, user_id: record.user },
      auto_commit_policy: record.autoCommitPolicy,
      memory_extraction_config: record.memoryExtractionConfig,
    });
  }),
  route('GET', '/api/v1/sessions/{session_id}', 'session', (ctx) => {
    const record = queryBool(ctx, 'auto_create', false) ? autoCreated(ctx) : existing(ctx);
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
    return ok({ session_id: record.sessionId, message_count: record.live.length, pending_tokens: ctx.state.sessions.pendingTokens(record) });
  }),
  route('POST', '/api/v1/sessions/{session_id}/messages/batch', 'session', (ctx) => {
    const prepared = prepareBatch(ctx.body, ctx.identity, nowIso(ctx));
    const record = autoCreated(ctx);
    const added = ctx.state.sessions.append(record, prepared).length;
    return ok({ session_id: record.sessionId, message_count: record.live.length, added, pending_tokens: ctx.state.sessions.pendingTokens(record) });
  }),
  route('POST', '/api/v1/sessions/{session_id}/commit', 'session', (ctx) => ok(ctx.state.sessions.commit(existing(ctx), ctx.body))),
  route('GET', '/api/v1/sessions/{session_id}/context', 'session', (ctx) => {
    const budget = queryInt(ctx, 'token_budget', 128000);
    if (budget < 0) throw validationError([{ loc: ['query', 'token_budget'], message: 'Input should be greater than or equal to 0', type: 'greater_than_equal' }]);
    return ok(ctx.state.sessions.context(existing(ctx), budget));
  }),
];
