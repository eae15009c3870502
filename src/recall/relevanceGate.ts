/**
 * A recall whose best candidate is not relevant enough injects nothing
 * (DESIGN D43). The server answers every prompt with its nearest memories,
 * however far they are: "what's the weather in berlin" gets the project's
 * closest ten. The gate reads the relevance the candidates were ranked by
 * (rerank.ts: the server's score plus what the text shares with the query),
 * so a memory that shares the query's rare words passes at a lower score
 * than one that shares none.
 *
 * The floor is absolute, so it depends on where the embedding model's
 * scores sit (OpenViking 0.5.2 reports (1 + cosine) / 2); it is the knob
 * `recallMinRelevance` (`OPENVIKING_RECALL_MIN_RELEVANCE`), off (0) by
 * default. Measured on the recall benchmark with all-MiniLM-L6-v2 (D43): on
 * tune a floor up to 0.71 cost no right answer and took injection on
 * prompts that no memory answers from 87% to 52–61%, but on held-out 0.69
 * cost hit@3 (75.4% → 73.8%) for 80% → 71%: the no-answer prompts that are
 * left are near the project's subjects, and scores alone do not tell them
 * from the answered ones. Pure.
 *
 * @module
 */
import type { RankedItem } from './rerank.js';

/** Whether the best of `ranked` (ordered by relevance) reaches `floor`; a floor of 0 or less lets everything through. */
export function relevantEnough(ranked: readonly RankedItem[], floor: number): boolean {
  if (floor <= 0) return true;
  const best = ranked[0];
  return best !== undefined && best.relevance >= floor;
}
