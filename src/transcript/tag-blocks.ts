/**
 * Removes `<tag …>…</tag>` blocks in linear time. Injected context, host
 * markup and `<private>` sections are all "a named tag and everything inside
 * it", possibly with attributes, nested, unclosed or stray. A lazy regex like
 * `<x>[\s\S]*?</x>` rescans the rest of the text for every unclosed opener and
 * goes quadratic on a 1 MB line; this scanner visits each tag once, pairs tags
 * with a stack, and cuts the merged spans.
 *
 * @module
 */

/** What to do with an opening tag that is never closed. */
export type UnclosedPolicy =
  /** Drop from the opener to the end of the text (privacy: a cut-off `<private>` hides the rest). */
  | 'drop-rest'
  /** Drop only the opener itself and keep what follows (host blocks: the text is probably the user's). */
  | 'drop-tag';

export type TagBlockStripper = (text: string) => string;

interface OpenTag {
  name: string;
  start: number;
  end: number;
}

/**
 * Attributes may not contain `<` or `>`, so a tag match never runs past the
 * next `<`: attempts from different `<`s never rescan the same characters.
 */
function tagPattern(names: readonly string[]): RegExp {
  const alternatives = names.map((name) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|');
  return new RegExp(`<(/?)(${alternatives})(?=[\\s/>])[^<>]*>`, 'gi');
}

/**
 * Builds a stripper for the given tag names (matched case-insensitively, with
 * a name boundary: `<private>` but not `<privateer>`).
 */
export function createTagBlockStripper(names: readonly string[], unclosed: UnclosedPolicy): TagBlockStripper {
  const pattern = tagPattern(names);
  return (text) => {
    if (!text.includes('<')) return text;
    const cuts = findCuts(text, new RegExp(pattern), unclosed);
    return cuts.length === 0 ? text : applyCuts(text, cuts);
  };
}

/** Spans [start, end) to remove, in any order, possibly overlapping. */
function findCuts(text: string, pattern: RegExp, unclosed: UnclosedPolicy): Array<[number, number]> {
  const cuts: Array<[number, number]> = [];
  const stack: OpenTag[] = [];
  const openCount = new Map<string, number>();
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const tag = match[0];
    const name = (match[2] ?? '').toLowerCase();
    const start = match.index;
    const end = start + tag.length;
    if (match[1] !== '/') {
      if (tag.endsWith('/>')) cuts.push([start, end]);
      else {
        stack.push({ name, start, end });
        openCount.set(name, (openCount.get(name) ?? 0) + 1);
      }
      continue;
    }
    if ((openCount.get(name) ?? 0) === 0) {
      cuts.push([start, end]); // a stray closer: drop the tag alone
      continue;
    }
    // Pop down to the nearest opener of this name; openers skipped over lie inside the block.
    let opener = stack.pop();
    while (opener !== undefined) {
      openCount.set(opener.name, (openCount.get(opener.name) ?? 1) - 1);
      if (opener.name === name) break;
      opener = stack.pop();
    }
    if (opener !== undefined) cuts.push([opener.start, end]);
  }
  const firstUnclosed = stack[0];
  if (firstUnclosed !== undefined) {
    if (unclosed === 'drop-rest') cuts.push([firstUnclosed.start, text.length]);
    else for (const opener of stack) cuts.push([opener.start, opener.end]);
  }
  return cuts;
}

function applyCuts(text: string, cuts: Array<[number, number]>): string {
  cuts.sort((a, b) => a[0] - b[0]);
  let result = '';
  let position = 0;
  for (const [start, end] of cuts) {
    if (start > position) result += text.slice(position, start);
    if (end > position) position = end;
  }
  return result + text.slice(position);
}
