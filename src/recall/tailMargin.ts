/**
 * A recall block keeps its first memories and drops a tail that scores
 * well below them (DESIGN D43). With a sentence-embedding model every
 * memory of a project scores close to every prompt about code (OpenViking
 * 0.5.2 reports (1 + cosine) / 2: 0.6–0.8 for all-MiniLM-L6-v2), so the
 * server's threshold lets ten memories through where one or two answer;
 * the rest cost the model's context and bury the answer. The first
 * `ALWAYS_KEPT` stay whatever their scores (cutting them cost hit@3 on the
 * benchmark's tune split: a margin on every item, 0.06, took it from 82.4%
 * to 78.8%); a later one stays only within `TAIL_MARGIN` of the best. The
 * margin is relative, so it does not depend on where a model's scores sit.
 * The scores compared are the items' own, or the relevances they were
 * ranked by (rerank.ts) when given. Items without a score are kept. Pure.
 *
 * @module
 */
import type { RecalledItem } from './types.js';

export const ALWAYS_KEPT = 3;
export const TAIL_MARGIN = 0.05;

/** `items` without a low tail; `scores[i]`, when given, is item i's score (its relevance). */
export function trimTail(
  items: readonly RecalledItem[],
  scores: readonly (number | undefined)[] = items.map((item) => item.score),
): RecalledItem[] {
  const top = scores[0];
  if (top === undefined) return [...items];
  return items.filter((_, index) => {
    const score = scores[index];
    return index < ALWAYS_KEPT || score === undefined || score >= top - TAIL_MARGIN;
  });
}
