/**
 * Auth modes `dev`, `api_key` and `trusted` as `resolve_identity` applies
 * them (contract §1.2): key extraction (`X-API-Key` wins over
 * `Authorization: Bearer`), ROOT's 403 on tenant data APIs, trusted mode's
 * required identity headers, and the actor-peer header check.
 *
 * @module
 */
import type { AuthOptions, Identity, Role } from './types.js';
import { OvError, invalidArgument, permissionDenied } from './errors.js';
import { assertPeerId } from './uri.js';

/** How a route treats identity: session routes ignore the actor peer; `none` needs no auth at all. */
export type RouteAuth = 'none' | 'tenant' | 'session';

const ROOT_PATHS = new Set(['/api/v1/system/status', '/api/v1/system/wait', '/api/v1/debug/health']);
const ROOT_PREFIXES = [
  '/api/v1/admin',
  '/api/v1/observer',
  '/api/v1/console',
  '/api/v1/tasks',
  '/api/v1/system/backend',
  '/api/v1/system/sync',
];

export type HeaderBag = Record<string, string | undefined>;

/** `X-API-Key`, else the value after exactly `Bearer `, else undefined. */
export function extractApiKey(headers: HeaderBag): string | undefined {
  const apiKey = headers['x-api-key']?.trim();
  if (apiKey) return apiKey;
  const authorization = headers['authorization'];
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim() || undefined;
  return undefined;
}

/** Paths a ROOT key may call in api_key mode. */
export function isRootAllowedPath(path: string): boolean {
  return ROOT_PATHS.has(path) || ROOT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Resolves the caller of a data route, or throws 401/403/400 as the server would. */
export function resolveIdentity(
  auth: AuthOptions,
  headers: HeaderBag,
  path: string,
  kind: Exclude<RouteAuth, 'none'>,
): Identity {
  const identity = baseIdentity(auth, headers, path);
  if (auth.mode === 'api_key' && identity.role === 'root' && !isRootAllowedPath(path)) {
    throw permissionDenied(
      'ROOT API keys cannot access tenant-scoped data APIs in api_key mode. Use a user/admin API key for data access, or trusted mode for upstream identity assertion.',
    );
  }
  const peer = headerValue(headers, 'x-openviking-actor-peer');
  if (kind === 'tenant' && peer !== undefined)
    return { ...identity, actorPeer: assertPeerId(peer, 'X-OpenViking-Actor-Peer') };
  return identity;
}

/**
 * `/health` identity: only when a key header was sent. In api_key mode 0.5.2
 * checks it: a key that does not resolve is a 401 (docs/host-facts.md F35);
 * in the other modes an unresolvable key just means no identity fields.
 */
export function healthIdentity(auth: AuthOptions, headers: HeaderBag): Identity | undefined {
  if (extractApiKey(headers) === undefined) return undefined;
  if (auth.mode === 'api_key') return baseIdentity(auth, headers, '/health');
  try {
    return baseIdentity(auth, headers, '/health');
  } catch {
    // an unresolvable key just means no identity fields in /health
    return undefined;
  }
}

function baseIdentity(auth: AuthOptions, headers: HeaderBag, path: string): Identity {
  const account = headerValue(headers, 'x-openviking-account');
  const user = headerValue(headers, 'x-openviking-user');
  const key = extractApiKey(headers);
  switch (auth.mode) {
    case 'dev':
      return { account: account ?? 'default', user: user ?? 'default', role: 'root' };
    case 'api_key':
      return apiKeyIdentity(auth, key);
    case 'trusted':
      return trustedIdentity(auth, headers, key, account, user, path);
  }
}

/** api_key mode: the key is the identity; account/user headers are stripped, even beside the root key. */
function apiKeyIdentity(auth: AuthOptions, key: string | undefined): Identity {
  if (key === undefined) throw new OvError('UNAUTHENTICATED', 'Missing API Key when resolving identity.');
  if (key === auth.rootKey) return { account: 'default', user: 'default', role: 'root' };
  const known = auth.keys?.[key];
  if (known === undefined) throw new OvError('UNAUTHENTICATED', 'Invalid API key');
  return { account: known.account, user: known.user, role: known.role };
}

function trustedIdentity(
  auth: AuthOptions,
  headers: HeaderBag,
  key: string | undefined,
  account: string | undefined,
  user: string | undefined,
  path: string,
): Identity {
  if (auth.rootKey !== undefined && key !== auth.rootKey)
    throw new OvError('UNAUTHENTICATED', 'Invalid API Key for trusted mode');
  const isAdminPath = path.startsWith('/api/v1/admin');
  if ((account === undefined || user === undefined) && !isAdminPath) {
    throw invalidArgument('Trusted mode requires X-OpenViking-Account and X-OpenViking-User headers');
  }
  const asked = headerValue(headers, 'x-openviking-role');
  const role: Role = auth.rootKey !== undefined && (asked === 'admin' || asked === 'user') ? asked : 'user';
  return { account: account ?? 'default', user: user ?? 'default', role };
}

/** Trimmed header value; empty counts as absent. */
function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
