/**
 * Liveness and identity (openviking-api.md §1.2, §1.6; docs/host-facts.md
 * F35): `/health` (bare, and in api_key mode a checked key: the identity
 * fields of a good one, 401 for a bad one), `/ready`, `system/status`, and
 * the auth rules every data route shares (401 without or with a wrong
 * key, 403 for the root key, account/user headers ignored beside a key).
 * Doctor, the status line and the user-space lookup read these.
 *
 * @module
 */
import { expect } from 'vitest';
import { as, newTenant, request, secondUser } from '../target.js';
import { errorOf, okResult, type ContractCase } from './case.js';

/** A data route of each family the plugin calls, each answered 401/403 alike before its handler. */
const DATA_ROUTES: ReadonlyArray<[method: string, path: string, body?: unknown]> = [
  ['GET', '/api/v1/fs/ls?uri=viking%3A%2F%2Fuser&output=original'],
  ['GET', '/api/v1/content/read?uri=viking%3A%2F%2Fuser%2Fx%2Fmemories%2Fprofile.md'],
  ['POST', '/api/v1/search/find', { query: 'x', limit: 1 }],
  ['POST', '/api/v1/search/search', { query: 'x', mode: 'context' }],
  ['POST', '/api/v1/sessions/contract-auth/messages/batch', { messages: [{ role: 'user', content: 'x' }] }],
  ['GET', '/api/v1/sessions/contract-auth'],
];

export const systemCases: readonly ContractCase[] = [
  {
    name: '/health: a bare body, no identity without a key',
    covers: ['GET /health'],
    async run(target) {
      const answer = await request(target, 'GET', '/health');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'ok', healthy: true, auth_mode: target.mode });
      expect(typeof answer.body.version).toBe('string');
      expect(answer.body).not.toHaveProperty('result');
      for (const key of ['account_id', 'user_id', 'role']) expect(answer.body).not.toHaveProperty(key);
      if (target.mode === 'dev') {
        const named = await request(target, 'GET', '/health', { headers: { 'X-OpenViking-User': 'someone' } });
        expect(named.body).not.toHaveProperty('user_id');
      }
    },
  },
  {
    name: "/health checks a key: a user key's identity and role, the root key's, 401 for a wrong one",
    covers: ['GET /health'],
    modes: ['api_key'],
    async run(target) {
      const admin = await newTenant(target, 'health');
      const user = await secondUser(target, admin, 'health-user');
      const ofAdmin = await request(target, 'GET', '/health', { headers: admin.headers });
      expect(ofAdmin.body).toMatchObject({ account_id: admin.account, user_id: admin.user, role: 'admin' });
      const ofUser = await request(target, 'GET', '/health', { headers: { 'X-API-Key': user.key ?? '' } });
      expect(ofUser.body).toMatchObject({ account_id: user.account, user_id: user.user, role: 'user' });
      const ofRoot = await request(target, 'GET', '/health', { headers: { 'X-API-Key': target.rootKey ?? '' } });
      expect(ofRoot.status).toBe(200);
      expect(ofRoot.body).toMatchObject({ account_id: 'default', user_id: 'default', role: 'root' });
      const wrong = await request(target, 'GET', '/health', { headers: { Authorization: 'Bearer not-a-key' } });
      errorOf(wrong, 401, 'UNAUTHENTICATED', 'a wrong key at /health');
    },
  },
  {
    name: '/ready: 200 ready with its checks, no auth',
    covers: ['GET /ready'],
    async run(target) {
      const answer = await request(target, 'GET', '/ready');
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('ready');
      expect(Object.keys(answer.body.checks)).toEqual(
        expect.arrayContaining(['agfs', 'vectordb', 'api_key_manager', 'embedding']),
      );
    },
  },
  {
    name: 'system/status: initialized, and the caller user (a key wins over account/user headers)',
    covers: ['GET /api/v1/system/status'],
    async run(target) {
      const tenant = await newTenant(target, 'status');
      expect(okResult(await as(target, tenant, 'GET', '/api/v1/system/status'))).toEqual({
        initialized: true,
        user: tenant.user,
      });
      if (target.mode === 'api_key') {
        const spoofed = await as(target, tenant, 'GET', '/api/v1/system/status', undefined, {
          'X-OpenViking-Account': 'elsewhere',
          'X-OpenViking-User': 'someone-else',
        });
        expect(okResult(spoofed).user).toBe(tenant.user);
        expect(
          okResult(
            await request(target, 'GET', '/api/v1/system/status', { headers: { 'X-API-Key': target.rootKey ?? '' } }),
          ).user,
        ).toBe('default');
      } else {
        const anonymous = await request(target, 'GET', '/api/v1/system/status');
        expect(okResult(anonymous).user).toBe('default');
      }
    },
  },
  {
    name: 'api_key: 401 without a key or with a wrong one, 403 for the root key, on every data route',
    covers: ['auth api_key'],
    modes: ['api_key'],
    async run(target) {
      for (const [method, path, body] of DATA_ROUTES) {
        const what = `${method} ${path}`;
        const missing = errorOf(await request(target, method, path, { body }), 401, 'UNAUTHENTICATED', what);
        expect(missing.message).toMatch(/api key/i);
        errorOf(
          await request(target, method, path, { body, headers: { Authorization: 'Bearer wrong-key' } }),
          401,
          'UNAUTHENTICATED',
          what,
        );
        errorOf(
          await request(target, method, path, { body, headers: { Authorization: `Bearer ${target.rootKey}` } }),
          403,
          'PERMISSION_DENIED',
          what,
        );
      }
    },
  },
  {
    name: 'api_key: X-API-Key wins over Authorization; Bearer alone works; another user’s space is 403',
    covers: ['auth api_key'],
    modes: ['api_key'],
    async run(target) {
      const tenant = await newTenant(target, 'keys');
      const other = await secondUser(target, tenant, 'keys-other');
      const both = await request(target, 'GET', '/api/v1/system/status', {
        headers: { 'X-API-Key': tenant.key ?? '', Authorization: 'Bearer wrong-key' },
      });
      expect(okResult(both).user).toBe(tenant.user);
      const wrongFirst = await request(target, 'GET', '/api/v1/system/status', {
        headers: { 'X-API-Key': 'wrong-key', Authorization: `Bearer ${tenant.key}` },
      });
      errorOf(wrongFirst, 401, 'UNAUTHENTICATED');
      const peek = await as(
        target,
        other,
        'GET',
        `/api/v1/fs/ls?uri=${encodeURIComponent(`viking://user/${tenant.user}`)}`,
      );
      errorOf(peek, 403, 'PERMISSION_DENIED', "a user key listing another user's space");
    },
  },
  {
    name: 'the root key may ask system/status and tasks (a missing task is 404, not 403)',
    covers: ['auth api_key', 'GET /api/v1/tasks/{task_id}'],
    modes: ['api_key'],
    async run(target) {
      const root = { 'X-API-Key': target.rootKey ?? '' };
      expect(okResult(await request(target, 'GET', '/api/v1/system/status', { headers: root }))).toMatchObject({
        initialized: true,
      });
      const task = await request(target, 'GET', '/api/v1/tasks/no-such-task', { headers: root });
      expect(errorOf(task, 404, 'NOT_FOUND').message).toBe('Task not found or expired');
    },
  },
];
