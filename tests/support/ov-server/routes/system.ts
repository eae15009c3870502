/**
 * Liveness and identity routes (contract §1.6): `/health` (not enveloped;
 * identity fields only when a key was sent, and in api_key mode a key that
 * does not resolve is a 401: docs/host-facts.md F35), `/ready`,
 * `/api/v1/system/status`, and task polling for commit task ids.
 *
 * @module
 */
import { healthIdentity } from '../auth.js';
import { notFound } from '../errors.js';
import { ok, route, type Route } from '../router.js';

export const systemRoutes: readonly Route[] = [
  route('GET', '/health', 'none', (ctx) => {
    const identity = healthIdentity(ctx.state.auth, ctx.headers);
    const base = { status: 'ok', healthy: true, version: ctx.state.version, auth_mode: ctx.state.auth.mode };
    const who =
      identity === undefined ? {} : { account_id: identity.account, user_id: identity.user, role: identity.role };
    return { status: 200, body: { ...base, ...who } };
  }),
  route('GET', '/ready', 'none', (ctx) => ({
    status: 200,
    body: {
      status: 'ready',
      checks: {
        agfs: { status: 'ok', checks: { filesystem: 'ok' } },
        vectordb: 'ok',
        api_key_manager: ctx.state.auth.mode === 'api_key' ? 'ok' : 'not_configured',
        embedding: 'ok',
        ollama: 'not_configured',
      },
    },
  })),
  route('GET', '/api/v1/system/status', 'tenant', (ctx) => ok({ initialized: true, user: ctx.identity.user })),
  route('GET', '/api/v1/tasks/{task_id}', 'tenant', (ctx) => {
    const task = ctx.state.sessions.tasks.view(ctx.params['task_id'] ?? '');
    if (task === undefined) throw notFound('Task not found or expired');
    return ok(task);
  }),
];
