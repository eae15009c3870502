/**
 * Which `viking://user/<space>` holds the caller's memories.
 *
 * `viking://~` would be simpler but fails for the ROOT role, i.e. for every
 * request in dev mode (openviking-api.md §3), so the space is resolved the
 * way §2.3 describes: the caller's user id from `system/status`, checked
 * against the listing of `viking://user`. The answer is cached per server
 * URL + identity in the data directory, so later sessions (and recall's
 * find fallback) skip both round trips. Past its day the last answer is
 * still kept (for a month), so a start can read with it while it checks
 * the space again, in parallel instead of one round trip after the other.
 *
 * @module
 */
import type { ClientIdentity, OpenVikingClient } from './types.js';
import { cacheFile, cacheKey, readCached, writeCachedEntries } from '../store/keyedCache.js';

/** Spaces change only when the server's users do; a day is plenty. */
export const USER_SPACE_TTL_MS = 24 * 60 * 60_000;
/** How long the last answer stays usable as a guess once its day is over. */
const LAST_KNOWN_TTL_MS = 30 * USER_SPACE_TTL_MS;

/** Top-level names under `viking://user` that are never a user space. */
const RESERVED = new Set(['memories', 'skills']);

/** User ids are single segments (openviking-api.md §3). */
const USER_ID = /^[A-Za-z0-9_.@-]+$/;

export interface UserSpaceCacheRef {
  dataDir: string;
  /** The server and the identity asking (the configuration's credentials). */
  credentials: Pick<ClientIdentity, 'baseUrl' | 'apiKey' | 'account' | 'user'>;
  now: number;
}

function isSpace(value: unknown): value is string {
  return typeof value === 'string' && USER_ID.test(value);
}

/** The file holding the answers. */
export function userSpaceCacheFile(dataDir: string): string {
  return cacheFile(dataDir, 'user-space');
}

function keyOf(ref: Pick<UserSpaceCacheRef, 'credentials'>): string {
  const { baseUrl, apiKey, account, user } = ref.credentials;
  return cacheKey(baseUrl, apiKey, account, user);
}

/** The cached space, without any network. */
export function cachedUserSpace(ref: UserSpaceCacheRef): string | undefined {
  return readCached(userSpaceCacheFile(ref.dataDir), keyOf(ref), ref.now, isSpace);
}

/** The last resolved space, even past its day (a guess to read with while checking it again). */
export function lastKnownUserSpace(ref: UserSpaceCacheRef): string | undefined {
  return readCached(userSpaceCacheFile(ref.dataDir), `${keyOf(ref)}:last`, ref.now, isSpace);
}

/** The space as the server says it now (two parallel calls, no file). Undefined when the server cannot say. */
export async function lookUpUserSpace(client: OpenVikingClient): Promise<string | undefined> {
  const [status, listing] = await Promise.all([
    client.systemStatus(),
    client.ls('viking://user', { output: 'original' }),
  ]);
  if (!status.ok && !listing.ok) return undefined;
  const fallback = status.ok && isSpace(status.result.user) ? status.result.user : 'default';
  const names = listing.ok
    ? listing.result.filter((entry) => entry.isDir !== false).map((entry) => entry.name ?? lastSegment(entry.uri))
    : [];
  return chooseSpace(names, fallback);
}

/** Caches `space` for its day, and as the last known one for a month (one write). */
export function rememberUserSpace(ref: UserSpaceCacheRef, space: string): Promise<void> {
  const key = keyOf(ref);
  return writeCachedEntries(
    userSpaceCacheFile(ref.dataDir),
    [
      { key, value: space, expiresAt: ref.now + USER_SPACE_TTL_MS },
      { key: `${key}:last`, value: space, expiresAt: ref.now + LAST_KNOWN_TTL_MS },
    ],
    ref.now,
  );
}

/** The cached space, else looked up over the network and cached. Undefined when the server cannot say. */
export async function resolveUserSpace(client: OpenVikingClient, ref: UserSpaceCacheRef): Promise<string | undefined> {
  const cached = cachedUserSpace(ref);
  if (cached !== undefined) return cached;
  const space = await lookUpUserSpace(client);
  if (space !== undefined) await rememberUserSpace(ref, space);
  return space;
}

/** §2.3 step 4: the fallback if listed, else `default` if listed, else the only candidate, else the fallback. */
export function chooseSpace(names: readonly string[], fallback: string): string | undefined {
  const candidates = names.filter((name) => isSpace(name) && !name.startsWith('.') && !RESERVED.has(name));
  if (candidates.includes(fallback)) return fallback;
  if (candidates.includes('default')) return 'default';
  if (candidates.length === 1) return candidates[0];
  return isSpace(fallback) ? fallback : undefined;
}

function lastSegment(uri: string): string {
  return uri.replace(/\/+$/, '').split('/').pop() ?? '';
}
