/**
 * A small disposable cache file: `{ <key>: { value, expiresAt } }` in the
 * data directory's `cache/`. Used for facts that cost a round trip and
 * rarely change (the user space of a server + identity, which recall tier a
 * server supports). Entries expire, so a wrong answer heals by itself, and a
 * lost update between two concurrent writers only costs a later round trip.
 *
 * Never throws: a missing, corrupt or unwritable file reads as empty.
 * Reads are synchronous: the file is a few hundred bytes read on the
 * prompt and start hooks' clock, where four thread-pool round trips (open,
 * stat, read, close) cost ~3 ms measured and a blocking read microseconds.
 *
 * @module
 */
import { hash64Hex } from './fastHash.js';
import { join } from 'node:path';
import { readJsonSync, writeJsonAtomic } from './atomic.js';
import { isRecord } from '../util/json.js';

/** Most keys one cache file keeps (oldest-expiring dropped first). */
const MAX_KEYS = 64;

/** `<dataDir>/cache/<name>.json`. */
export function cacheFile(dataDir: string, name: string): string {
  return join(dataDir, 'cache', `${name}.json`);
}

/** A stable key for parts that may include secrets (only a 64-bit hash is stored; see fastHash.ts). */
export function cacheKey(...parts: ReadonlyArray<string | undefined>): string {
  return hash64Hex(parts.map((part) => part ?? '').join('\n'));
}

/** The live value under `key`, if `accept` narrows it. */
export function readCached<T>(
  file: string,
  key: string,
  now: number,
  accept: (value: unknown) => value is T,
): T | undefined {
  const entry = readEntries(file)[key];
  if (!isRecord(entry) || typeof entry['expiresAt'] !== 'number' || entry['expiresAt'] <= now) return undefined;
  return accept(entry['value']) ? entry['value'] : undefined;
}

/** One value to store under `key` until `expiresAt`. */
export interface CacheEntry {
  key: string;
  value: unknown;
  expiresAt: number;
}

/** Stores `value` under `key` until `expiresAt`, dropping expired keys; failures are ignored. */
export function writeCached(file: string, key: string, value: unknown, expiresAt: number, now: number): Promise<void> {
  return writeCachedEntries(file, [{ key, value, expiresAt }], now);
}

/**
 * Stores every entry in one write (the file is read before the first await:
 * the hooks module runs this against its file snapshot, D30).
 */
export async function writeCachedEntries(file: string, entries: readonly CacheEntry[], now: number): Promise<void> {
  const keys = new Set(entries.map((entry) => entry.key));
  const live = Object.entries(readEntries(file)).filter(
    ([name, entry]) =>
      !keys.has(name) && isRecord(entry) && typeof entry['expiresAt'] === 'number' && entry['expiresAt'] > now,
  );
  live.sort(
    ([, a], [, b]) =>
      Number((b as Record<string, unknown>)['expiresAt']) - Number((a as Record<string, unknown>)['expiresAt']),
  );
  const next = Object.fromEntries([
    ...entries.map(({ key, value, expiresAt }) => [key, { value, expiresAt }]),
    ...live.slice(0, Math.max(0, MAX_KEYS - entries.length)),
  ]);
  await writeJsonAtomic(file, next, { fsync: false }).catch(() => undefined); // a cache that cannot be written is just a miss next time
}

function readEntries(file: string): Record<string, unknown> {
  const value = readJsonSync(file);
  return isRecord(value) ? value : {};
}
