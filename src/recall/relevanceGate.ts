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
import { contentWords, type RankedItem } from './rerank.js';

/** Whether the best of `ranked` (ordered by relevance) reaches `floor`; a floor of 0 or less lets everything through. */
export function relevantEnough(ranked: readonly RankedItem[], floor: number): boolean {
  if (floor <= 0) return true;
  const best = ranked[0];
  return best !== undefined && best.relevance >= floor;
}

/** Below this relevance, the best memories must share a word with the query (anchoredEnough). */
export const UNANCHORED_FLOOR = 0.72;

/** How many of the first candidates may hold the shared word. */
export const ANCHOR_DEPTH = 3;

/**
 * Whether a weak match is anchored in the query's words: a best relevance
 * at or above `floor` passes; below it, one of the first `ANCHOR_DEPTH`
 * candidates must share a content word with the query (the same word, its
 * plural, or the same first five letters: "deploy"/"deployment"). A
 * paraphrase close enough to answer scores above the floor; one that
 * shares neither a word nor that closeness is the nearest memory of a
 * subject the prompt is not about (see the module comment and D43).
 */
export function anchoredEnough(ranked: readonly RankedItem[], query: string, floor = UNANCHORED_FLOOR): boolean {
  const best = ranked[0];
  if (best === undefined) return false;
  if (best.relevance >= floor) return true;
  const asked = contentWords(query);
  if (asked.length === 0) return true;
  return ranked
    .slice(0, ANCHOR_DEPTH)
    .some((entry) =>
      contentWords(entry.item.text).some((word) => asked.some((queryWord) => sameStem(word, queryWord))),
    );
}

/** The same word, one the other's plural, or (five letters or more) the same first five letters. */
function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long === `${short}s` || long === `${short}es`) return true;
  return short.length >= 5 && long.startsWith(short.slice(0, 5));
}
