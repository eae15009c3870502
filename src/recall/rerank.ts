/**
 * The server's candidates re-ranked here, before the block is cut (DESIGN
 * D43). OpenViking 0.5.2 orders a context search by the embedding's score
 * alone, and with a sentence-embedding model those scores are compressed
 * (every memory of a project scores 0.6–0.8 for a prompt about code), so
 * the right memory is often the fourth or the eighth. Three signals the
 * client has for free, in the entries' own text and URIs, move it up:
 *
 * - *Words the query shares with the memory*: the character trigrams of the
 *   query's words (a trigram survives "deploy"/"deployment",
 *   "migrations"/"migration" and code identifiers, in any script, without
 *   a stemmer), each weighted by how rare it is among the candidates, as
 *   the share of the query's weight the memory covers (0–1), times
 *   `lexical`. A word every candidate has says nothing.
 * - *The project's own memory* (a URI under a peer folder: another
 *   project's never gets here, projectScope.ts) over the user's general
 *   ones, by `project`: a prompt typed in a project is about it more
 *   often than not, and the user's general preferences are phrased to
 *   match any prompt a little.
 * - *An experience* (a situation and the approach that worked) is phrased
 *   as generally as a lesson is, so it lands near many prompts without
 *   answering them: `experience` off its score.
 *
 * The server's score stays what the block shows; the sum is the item's
 * relevance, which orders it and which the gate (relevanceGate.ts) and the
 * tail (tailMargin.ts) read. Chosen on the recall benchmark's tune split,
 * reported on held-out (D43). An item without a score keeps its place
 * (nothing is re-ranked). Pure; well under a millisecond for 20
 * candidates.
 *
 * @module
 */
import type { RecalledItem } from './types.js';

/** The weights of the signals (see the module comment). */
export interface RerankWeights {
  lexical: number;
  project: number;
  experience: number;
}

export const RERANK_WEIGHTS: RerankWeights = { lexical: 0.175, project: 0.05, experience: 0.04 };

/** An item and the relevance it is ranked by. */
export interface RankedItem {
  item: RecalledItem;
  relevance: number;
}

/** Words that carry no subject: a query's share is taken over the others. */
const STOP_WORDS = new Set(
  (
    'about after again all also and any are because been before being but can could did does doing done down each ' +
    'for from further get gets got had has have having her here hers him his how into its just let lets more most ' +
    'much need needs not now off once only other our ours out over own same she should some such than that the their ' +
    'them then there these they this those through too under until use used using very want was way were what when ' +
    'where which while who whom why will with would you your yours thing things really actually still please like make'
  ).split(' '),
);

const WORD_BREAK = /[^\p{L}\p{N}]+/u;
const WORD_BREAKS = /[^\p{L}\p{N}]+/gu;

const PEER_FOLDER = /^viking:\/\/user\/[^/]+\/peers\/[^/]+\//;

/** The items ordered by relevance (see the module comment); ties keep the server's order. */
export function rerank(
  items: readonly RecalledItem[],
  query: string,
  weights: RerankWeights = RERANK_WEIGHTS,
): RankedItem[] {
  if (items.some((item) => item.score === undefined))
    return items.map((item) => ({ item, relevance: item.score ?? 0 }));
  const docs = items.map((item) => wordLine(item.text));
  // One pass: which candidates hold each query trigram; its weight is how rare it is among them.
  const covered = new Array<number>(items.length).fill(0);
  const holding: number[] = [];
  let total = 0;
  for (const gram of queryTrigrams(query)) {
    holding.length = 0;
    for (let index = 0; index < docs.length; index++) if (docs[index]!.includes(gram)) holding.push(index);
    const weight = Math.log(1 + items.length / (1 + holding.length));
    for (const index of holding) covered[index]! += weight;
    total += weight;
  }
  return items
    .map((item, index) => {
      const relevance =
        (item.score ?? 0) +
        (total > 0 ? (weights.lexical * covered[index]!) / total : 0) +
        (PEER_FOLDER.test(item.uri) ? weights.project : 0) -
        (item.category === 'experiences' ? weights.experience : 0);
      return { item, relevance, index };
    })
    .sort((a, b) => b.relevance - a.relevance || a.index - b.index)
    .map(({ item, relevance }) => ({ item, relevance }));
}

/** `text` lower-cased as its words, one space between and around them: a query trigram is found in it with `includes`. */
function wordLine(text: string): string {
  return ` ${text.toLowerCase().replace(WORD_BREAKS, ' ')} `;
}

/** The words of `text` that name a subject: lower-cased, three letters or more, stop words out (the words `queryTrigrams` reads). */
export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(WORD_BREAK)
    .filter((word) => [...word].length >= 3 && !STOP_WORDS.has(word));
}

/** The trigrams of the query's words of three letters or more, each word padded by a space at both ends; stop words out. */
export function queryTrigrams(query: string): Set<string> {
  const grams = new Set<string>();
  for (const word of contentWords(query)) {
    const padded = [...` ${word} `];
    for (let at = 0; at + 3 <= padded.length; at++) grams.add(padded.slice(at, at + 3).join(''));
  }
  return grams;
}
