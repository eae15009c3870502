/**
 * What a recall knows of the server before it asks, and what it learns
 * from the answers: which tier the server supports (tierCache.ts) and the
 * caller's user space, which the find tier searches under
 * (openviking/userSpace.ts). Both are small cache files.
 *
 * Read when the recall is planned (synchronous, no network: the prompt
 * stage's `planRecall`, which the hooks module runs against its file
 * snapshot, D30), written after the answer (`afterAnswer`), so the search in
 * between (cascade.ts) touches no file: one read, one network phase, one
 * write, in that order.
 *
 * @module
 */
import type { Credentials } from '../config/types.js';
import { cachedUserSpace, rememberUserSpace, userSpaceCacheFile } from '../openviking/userSpace.js';
import { rememberFallbackTier, startingTier, tierCacheFile, type RecallTier } from './tierCache.js';

type Identity = Pick<Credentials, 'baseUrl' | 'apiKey' | 'account' | 'user'>;

/** What the caches say now: the tier to start with, and the user space when one is cached. */
export interface RecallKnown {
  tier: RecallTier;
  space?: string;
}

/** What a search found out that the caches did not say: a tier the server lacks, the space it looked up. */
export interface RecallLearned {
  fallbackTier?: Exclude<RecallTier, 'context'>;
  space?: string;
}

/** The caches a recall reads, for a caller that reads them ahead (the hooks module's start, for the first prompt). */
export function recallCacheFiles(dataDir: string): string[] {
  return [tierCacheFile(dataDir), userSpaceCacheFile(dataDir)];
}

export function readRecallKnown(dataDir: string, credentials: Identity, now: number): RecallKnown {
  const tier = startingTier(dataDir, credentials.baseUrl, now);
  const space = cachedUserSpace({ dataDir, credentials, now });
  return space === undefined ? { tier } : { tier, space };
}

/** Writes what was learned (nothing when nothing was: the common case costs no file). */
export async function rememberRecall(
  dataDir: string,
  credentials: Identity,
  learned: RecallLearned,
  now: number,
): Promise<void> {
  // Both writes start before either awaits: each reads its file first (the hooks module's snapshot rule, D30).
  await Promise.all([
    learned.fallbackTier === undefined
      ? undefined
      : rememberFallbackTier(dataDir, credentials.baseUrl, learned.fallbackTier, now),
    learned.space === undefined ? undefined : rememberUserSpace({ dataDir, credentials, now }, learned.space),
  ]);
}
