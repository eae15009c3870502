/**
 * The admin API as operators (and tests) make keys with it
 * (tests/support/real-server/admin.ts does the same on openviking-server):
 * `POST /api/v1/admin/accounts` `{account_id, admin_user_id}` makes an
 * account and its first user, role `admin`, and answers that user's key;
 * `POST /api/v1/admin/accounts/{account}/users` `{user_id, role}` adds a
 * user. Only ROOT may call them (403 `Requires role: root`); an account or
 * user that exists is 409 ALREADY_EXISTS. The keys join the server's
 * api_key table, so they work at once.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { OvError, permissionDenied } from '../errors.js';
import { ok, route, type RequestContext, type Route } from '../router.js';
import { parseOrThrow } from '../validation.js';
import { assertPeerId } from '../uri.js';
import type { Role } from '../types.js';

const accountSchema = z.object({ account_id: z.string(), admin_user_id: z.string() });
const userSchema = z.object({ user_id: z.string(), role: z.enum(['admin', 'user']).default('user') });

function requireRoot(ctx: RequestContext): void {
  if (ctx.identity.role !== 'root') throw permissionDenied('Requires role: root');
}

function accountExists(ctx: RequestContext, account: string): boolean {
  return Object.values(ctx.state.auth.keys ?? {}).some((identity) => identity.account === account);
}

/** A new key for `user` of `account`, in the shape 0.5.2 prints them (base64url account.user.secret). */
function issueKey(ctx: RequestContext, account: string, user: string, role: Role): string {
  const encode = (text: string): string => Buffer.from(text).toString('base64url');
  const key = `${encode(account)}.${encode(user)}.${randomBytes(32).toString('hex')}`;
  ctx.state.auth.keys = { ...(ctx.state.auth.keys ?? {}), [key]: { account, user, role } };
  return key;
}

export const adminRoutes: readonly Route[] = [
  route('POST', '/api/v1/admin/accounts', 'tenant', (ctx) => {
    requireRoot(ctx);
    const body = parseOrThrow(accountSchema, ctx.body ?? {});
    const account = assertPeerId(body.account_id, 'account_id');
    const user = assertPeerId(body.admin_user_id, 'admin_user_id');
    if (accountExists(ctx, account))
      throw new OvError('ALREADY_EXISTS', `Account already exists: ${account}`, { resource: account, type: 'account' });
    return ok({ account_id: account, admin_user_id: user, user_key: issueKey(ctx, account, user, 'admin') });
  }),
  route('POST', '/api/v1/admin/accounts/{account_id}/users', 'tenant', (ctx) => {
    requireRoot(ctx);
    const account = ctx.params['account_id'] ?? '';
    const body = parseOrThrow(userSchema, ctx.body ?? {});
    const user = assertPeerId(body.user_id, 'user_id');
    const taken = Object.values(ctx.state.auth.keys ?? {}).some(
      (identity) => identity.account === account && identity.user === user,
    );
    if (taken) throw new OvError('ALREADY_EXISTS', `User already exists: ${user}`, { resource: user, type: 'user' });
    return ok({ account_id: account, user_id: user, user_key: issueKey(ctx, account, user, body.role) });
  }),
];
