/**
 * Which of the secret rules' keywords occur in a text: the gate in front of
 * every rule (DESIGN D17). Two ways to answer, the same answer:
 * - `includes` per keyword: no set-up, but one pass over the text for each of
 *   the ~160 keywords (~2 ms of a 50 KB chunk's ~4 ms);
 * - one alternation of all keywords, longest first, run once over the text:
 *   a fifth of that, but compiling it and its first run cost ~0.3 ms.
 * A process takes the first until it has gated {@link ALTERNATION_AFTER}
 * characters in all, then the second: a hook's prompt (a few hundred
 * characters) never compiles it, capture's session chunks pay it once.
 *
 * The alternation finds every keyword: it is tried at every position where
 * one starts, and where several start at one position, the longest that
 * matches holds all the shorter ones (they are its prefixes), so each found
 * keyword counts with every keyword inside it.
 *
 * @module
 */

/** Characters gated in a process before the alternation pays for itself. */
export const ALTERNATION_AFTER = 16_384;

export interface KeywordGate {
  /** The keywords that occur in `lower` (lower-cased text). */
  present(lower: string): ReadonlySet<string>;
  /** The same by the alternation alone, whatever the volume (tests compare the two). */
  byAlternation(lower: string): ReadonlySet<string>;
  /** The same by one `includes` per keyword. */
  byIncludes(lower: string): ReadonlySet<string>;
}

/** A gate over `keywords` (lower case, deduplicated here). */
export function createKeywordGate(keywords: readonly string[]): KeywordGate {
  const distinct = [...new Set(keywords)];
  let gated = 0;
  let alternation: { pattern: RegExp; within: Map<string, readonly string[]> } | undefined;

  const byIncludes = (lower: string): ReadonlySet<string> =>
    new Set(distinct.filter((keyword) => lower.includes(keyword)));

  const byAlternation = (lower: string): ReadonlySet<string> => {
    alternation ??= compileAlternation(distinct);
    const { pattern, within } = alternation;
    const found = new Set<string>();
    pattern.lastIndex = 0;
    for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
      if (!found.has(match[0])) for (const keyword of within.get(match[0]) ?? []) found.add(keyword);
      pattern.lastIndex = match.index + 1;
    }
    return found;
  };

  return {
    present(lower) {
      gated += lower.length;
      return gated > ALTERNATION_AFTER ? byAlternation(lower) : byIncludes(lower);
    },
    byAlternation,
    byIncludes,
  };
}

function compileAlternation(keywords: readonly string[]): {
  pattern: RegExp;
  within: Map<string, readonly string[]>;
} {
  const longestFirst = [...keywords].sort((a, b) => b.length - a.length);
  const escaped = longestFirst.map((keyword) => keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const within = new Map(keywords.map((keyword) => [keyword, keywords.filter((inner) => keyword.includes(inner))]));
  return { pattern: new RegExp(escaped.join('|'), 'g'), within };
}
