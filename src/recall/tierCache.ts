/**
 * Remembers, per server URL, which recall tier the server supports, so a
 * legacy server costs the failed round trip once an hour rather than on
 * every prompt. Unlike the reference plugins (a machine-wide 6 h marker set
 * by loose text matching, openviking-api.md §9.15) the decision is keyed by
 * URL and expires after an hour, so an upgraded server is used again soon.
 *
 * @module
 */
import { cacheFile, cacheKey, readCached, writeCached } from '../store/keyedCache.js';

/** `context`: POST search/search mode=context; `recall`: the deprecated search/recall; `find`: two raw finds. */
export type RecallTier = 'context' | 'recall' | 'find';

export const TIER_DECISION_TTL_MS = 60 * 60_000;

const CACHE_NAME = 'recall-tier';

function isFallbackTier(value: unknown): value is RecallTier {
  return value === 'recall' || value === 'find';
}

/** The file holding the decisions. */
export function tierCacheFile(dataDir: string): string {
  return cacheFile(dataDir, CACHE_NAME);
}

/** The tier to start with for `baseUrl` (`context` unless a fresh fallback decision exists). */
export function startingTier(dataDir: string, baseUrl: string, now: number): RecallTier {
  return readCached(tierCacheFile(dataDir), cacheKey(baseUrl), now, isFallbackTier) ?? 'context';
}

/** Records that `baseUrl` needs `tier` for the next hour. */
export async function rememberFallbackTier(
  dataDir: string,
  baseUrl: string,
  tier: Exclude<RecallTier, 'context'>,
  now: number,
): Promise<void> {
  await writeCached(tierCacheFile(dataDir), cacheKey(baseUrl), tier, now + TIER_DECISION_TTL_MS, now);
}
