/**
 * The test server's deterministic relevance score, standing in for
 * OpenViking's embeddings. Documented so tests can seed memories that a
 * prompt will (or will not) match:
 *
 *   terms(text) = lower-cased words split on non-letters/digits, each CJK
 *                 character (≥ U+3000) its own term, English stop words
 *                 dropped, a light suffix strip (-ing, -ed, -es, -s);
 *   score(q, d) = |terms(q) ∩ terms(d)| / |terms(q)|, rounded to 4 places,
 *                 0 when the query has no terms.
 *
 * A document's terms come from its URI path, its abstract and its content.
 *
 * @module
 */

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by do does did for from has have how i in is it its me my of on or our so that the their them ' +
    'they this to was we what when where which who why will with you your'
  ).split(' '),
);

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The set of scoring terms of `text`. */
export function terms(text: string): Set<string> {
  const out = new Set<string>();
  const addWord = (word: string): void => {
    if (word !== '' && !STOP_WORDS.has(word)) out.add(stem(word));
  };
  for (const chunk of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    let word = '';
    for (const char of chunk) {
      if ((char.codePointAt(0) ?? 0) < 0x3000) {
        word += char;
        continue;
      }
      addWord(word);
      word = '';
      out.add(char);
    }
    addWord(word);
  }
  return out;
}

/** Fraction of the query's terms found in the document's terms. */
export function scoreTerms(query: Set<string>, document: Set<string>): number {
  if (query.size === 0) return 0;
  let hits = 0;
  for (const term of query) if (document.has(term)) hits += 1;
  return Math.round((hits / query.size) * 10000) / 10000;
}
