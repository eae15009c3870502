/**
 * Client-side ranking for the last recall tier (two raw `search/find`
 * calls), after openviking-api.md §2.2 tier 3: keep items at or above the
 * score threshold, boost leaves and the categories the query asks about,
 * add a little lexical overlap, dedupe, take the top `limit`. A leaf is a
 * file (`level` 2, or a `.md` URI when the level is not given); a folder's
 * `.overview.md` (level 1) or `.abstract.md` (level 0), which OpenViking
 * 0.5.2's find returns beside the files (docs/host-facts.md F38), is not.
 *
 * @module
 */
import type { FindItem, FindResult } from '../openviking/types.js';
import type { RecalledItem } from './types.js';

const TEMPORAL =
  /\b(?:when|yesterday|today|last|ago|recent(?:ly)?|before|after|date|week|month)\b|昨天|今天|上次|之前|最近/i;
const PREFERENCE = /\b(?:prefer(?:s|red|ence)?|like|favou?rite|style|usually|always|never)\b|喜欢|偏好|习惯/i;

export interface RankOptions {
  query: string;
  scoreThreshold: number;
  limit: number;
  maxContentChars: number;
}

/** All items of several find results, ranked and cut to `limit`. */
export function rankFindItems(results: readonly FindResult[], options: RankOptions): RecalledItem[] {
  const queryTerms = termsOf(options.query);
  const temporal = TEMPORAL.test(options.query);
  const preference = PREFERENCE.test(options.query);
  const scored = results
    .flatMap((result) => [...result.memories, ...result.skills])
    .filter((item) => (item.score ?? 0) >= options.scoreThreshold)
    .map((item) => ({ item, rank: rankOf(item, queryTerms, temporal, preference) }))
    .sort((a, b) => b.rank - a.rank);
  const seen = new Set<string>();
  const picked: RecalledItem[] = [];
  for (const { item } of scored) {
    const key = dedupeKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push(toRecalled(item, options.maxContentChars));
    if (picked.length >= options.limit) break;
  }
  return picked;
}

function rankOf(item: FindItem, queryTerms: Set<string>, temporal: boolean, preference: boolean): number {
  let rank = Math.min(1, Math.max(0, item.score ?? 0));
  if (isLeaf(item)) rank += 0.12;
  if (temporal && item.uri.includes('/events/')) rank += 0.1;
  if (preference && item.uri.includes('/preferences/')) rank += 0.08;
  if (queryTerms.size > 0) {
    const docTerms = termsOf(`${item.uri} ${item.abstract ?? ''}`);
    let shared = 0;
    for (const term of queryTerms) if (docTerms.has(term)) shared++;
    rank += 0.2 * (shared / queryTerms.size);
  }
  return rank;
}

function isLeaf(item: FindItem): boolean {
  if (item.level !== undefined) return item.level === 2;
  return item.uri.endsWith('.md') && !/\/\.[^/]*$/.test(item.uri);
}

function dedupeKey(item: FindItem): string {
  if (/\/(?:events|cases)\//.test(item.uri)) return `uri:${item.uri}`;
  const abstract = item.abstract?.trim().toLowerCase();
  return abstract ? `abstract:${abstract}` : `uri:${item.uri}`;
}

function toRecalled(item: FindItem, maxContentChars: number): RecalledItem {
  const abstract = (item.abstract ?? '').replace(/\s+/g, ' ').trim();
  const text = abstract.length > maxContentChars ? `${abstract.slice(0, maxContentChars)}...` : abstract;
  const category = categoryOf(item.uri);
  return {
    uri: item.uri,
    text,
    ...(category ? { category } : {}),
    ...(item.score !== undefined ? { score: item.score } : {}),
  };
}

/** `events`, `preferences`, … from `…/memories/<category>/…`; `skills` for skill URIs. */
export function categoryOf(uri: string): string | undefined {
  const memory = /\/memories\/([a-z]+)\//.exec(uri)?.[1];
  if (memory) return memory;
  return /\/skills\//.test(uri) ? 'skills' : undefined;
}

function termsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((term) => term.length >= 3),
  );
}
