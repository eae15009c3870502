/**
 * Keys on a real server in `api_key` mode, made the way an operator makes
 * them: the root key creates an account with its first (admin) user through
 * `POST /api/v1/admin/accounts`, which answers that user's key; more users
 * come from `POST /api/v1/admin/accounts/{account}/users`. The root key
 * itself is refused on data routes (docs/host-facts.md F16), so the plugin
 * is always given a user key.
 *
 * @module
 */
import type { RealServer } from './index.js';

/** What the admin calls need of a server: its URL and root key (a shared server's record is enough). */
export type AdminTarget = Pick<RealServer, 'url' | 'rootKey'>;

export interface UserKey {
  account: string;
  user: string;
  key: string;
}

async function adminPost(server: AdminTarget, path: string, body: unknown): Promise<Record<string, unknown>> {
  if (server.rootKey === undefined) throw new Error('admin calls need a server in api_key mode');
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': server.rootKey },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { status?: string; result?: Record<string, unknown>; error?: unknown };
  if (!response.ok || envelope.status !== 'ok' || envelope.result === undefined)
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(envelope.error ?? envelope)}`);
  return envelope.result;
}

function keyOf(result: Record<string, unknown>, path: string): string {
  const key = result.user_key ?? result.api_key ?? result.key;
  if (typeof key !== 'string' || key === '') throw new Error(`${path} answered no user key: ${JSON.stringify(result)}`);
  return key;
}

/** A new account whose admin user is `user`, and that user's key. */
export async function createAccount(server: AdminTarget, account: string, user: string): Promise<UserKey> {
  const path = '/api/v1/admin/accounts';
  const result = await adminPost(server, path, { account_id: account, admin_user_id: user });
  return { account, user, key: keyOf(result, path) };
}

/** Another (non-admin) user of `account`, and its key. */
export async function createUser(server: AdminTarget, account: string, user: string): Promise<UserKey> {
  const path = `/api/v1/admin/accounts/${encodeURIComponent(account)}/users`;
  const result = await adminPost(server, path, { user_id: user, role: 'user' });
  return { account, user, key: keyOf(result, path) };
}
