/**
 * What a contract case runs against (issue 37 item 4): one OpenViking
 * server, the double (`tests/support/ov-server`) or the real one, in one
 * auth mode, seen through plain HTTP as the plugin sees it. A case asks the
 * target for a tenant of its own (a fresh account with one user: in `dev`
 * mode the identity headers name it, in `api_key` mode the admin API makes
 * its user key, as an operator would), so cases never see each other's
 * data, even in `dev` mode where a search without a target sees the whole
 * account (docs/host-facts.md F37).
 *
 * The same cases run against both servers (tests/contract/double.test.ts
 * and tests/real/contract.real.test.ts), so every property a case checks
 * is one the two servers share.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';

export type Mode = 'dev' | 'api_key';

export interface ContractTarget {
  /** `double` (tests/support/ov-server) or `real` (openviking-server). */
  kind: 'double' | 'real';
  mode: Mode;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** api_key mode: the root key (refused on data routes, used for the admin API). */
  rootKey?: string;
}

/** One case's own account and user, and the headers that speak for it. */
export interface Tenant {
  account: string;
  user: string;
  /** dev: `X-OpenViking-Account`/`-User`; api_key: `Authorization: Bearer <user key>`. */
  headers: Record<string, string>;
  /** api_key mode: the user key. */
  key?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  body: any;
}

/** A request, answered whatever its status (fetch: plain HTTP, no keep-alive tricks). */
export async function request(
  target: ContractTarget,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<Answer> {
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...(options.headers ?? {}) },
    ...(payload !== undefined ? { body: payload } : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (an SSE stream, an empty body): cases read `text`
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** A name no other case or run uses: `<label>-<12 hex>`, a valid OpenViking identifier. */
export function uniqueName(label: string): string {
  return `${label}-${randomBytes(6).toString('hex')}`;
}

/** A fresh tenant: dev mode names it in headers; api_key mode creates the account and its admin user's key. */
export async function newTenant(target: ContractTarget, label: string): Promise<Tenant> {
  const account = uniqueName(`acct-${label}`);
  const user = uniqueName(label);
  if (target.mode === 'dev')
    return { account, user, headers: { 'X-OpenViking-Account': account, 'X-OpenViking-User': user } };
  const made = await adminPost(target, '/api/v1/admin/accounts', { account_id: account, admin_user_id: user });
  const key = String(made.user_key);
  return { account, user, key, headers: { Authorization: `Bearer ${key}` } };
}

/** A fresh tenant and a session id of its own (`cb-<12 hex>`, as the plugin names sessions). */
export async function freshSession(target: ContractTarget, label: string): Promise<{ tenant: Tenant; id: string }> {
  return { tenant: await newTenant(target, label), id: uniqueName('cb') };
}

/** Another user of `tenant`'s account (api_key mode: a `user`-role key; dev mode: headers). */
export async function secondUser(target: ContractTarget, tenant: Tenant, label: string): Promise<Tenant> {
  const user = uniqueName(label);
  if (target.mode === 'dev')
    return {
      account: tenant.account,
      user,
      headers: { 'X-OpenViking-Account': tenant.account, 'X-OpenViking-User': user },
    };
  const made = await adminPost(target, `/api/v1/admin/accounts/${encodeURIComponent(tenant.account)}/users`, {
    user_id: user,
    role: 'user',
  });
  const key = String(made.user_key);
  return { account: tenant.account, user, key, headers: { Authorization: `Bearer ${key}` } };
}

async function adminPost(target: ContractTarget, path: string, body: unknown): Promise<Record<string, unknown>> {
  if (target.rootKey === undefined) throw new Error('the admin API needs the root key (api_key mode)');
  const answer = await request(target, 'POST', path, { headers: { 'X-API-Key': target.rootKey }, body });
  if (answer.status !== 200 || answer.body?.status !== 'ok' || typeof answer.body?.result?.user_key !== 'string')
    throw new Error(`${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.body.result as Record<string, unknown>;
}

/** `tenant`'s call: its headers plus `extra`. */
export function as(
  target: ContractTarget,
  tenant: Tenant,
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
): Promise<Answer> {
  return request(target, method, path, { headers: { ...tenant.headers, ...extra }, body });
}

/**
 * A session's record (`GET /api/v1/sessions/{id}` or below), looked at again
 * past OpenViking 0.5.2's transient 400: a read racing a write of the
 * session's files (its first write, or a commit's) answers INVALID_ARGUMENT
 * "Expecting value: line 1 column 1 (char 0)" (F27). Any other answer, or
 * that one after 10 s, is returned as it came.
 */
export async function readSession(target: ContractTarget, tenant: Tenant, path: string): Promise<Answer> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await as(target, tenant, 'GET', path);
    if (answer.status !== 400 || !answer.text.includes('Expecting value') || Date.now() >= deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Writes a memory file the way a test's hands seed one on both servers:
 * `POST /api/v1/content/write` (`create`, waiting for its index), then the
 * file is searchable.
 */
export async function writeFile(target: ContractTarget, tenant: Tenant, uri: string, content: string): Promise<void> {
  const written = await as(target, tenant, 'POST', '/api/v1/content/write', {
    uri,
    content,
    mode: 'create',
    wait: true,
  });
  if (written.status !== 200) throw new Error(`content/write ${uri} answered ${written.status}: ${written.text}`);
}

/** `viking://user/<user>/<path>` of `tenant`. */
export function home(tenant: Tenant, path = ''): string {
  return `viking://user/${tenant.user}${path === '' ? '' : `/${path}`}`;
}
