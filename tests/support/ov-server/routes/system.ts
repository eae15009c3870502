/**
 * Liveness and identity routes (contract §1.6): `/health` (not enveloped;
 * identity fields only when a key resolved), `/ready`,
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
  route('GET', '/ready', 'none', () => ({
    status: 200,
    body: {
      status: 'ready',
      checks: { agfs: 'ok', vectordb: 'ok', api_key_manager: 'ok', embedding: 'ok', ollama: 'skipped' },
    },
  })),
  route('GET', '/api/v1/system/status', 'tenant', (ctx) => ok({ initialized: true, user: ctx.identity.user })),
  route('GET', '/api/v1/tasks/{task_id}', 'tenant', (ctx) => {
    const task = ctx.state.sessions.tasks.view(ctx.params['task_id'] ?? '');
    if (task === undefined) throw notFound('Task not found or expired');
    return ok(task);
  }),
];
