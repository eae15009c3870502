/**
 * The keyword gate (src/transcript/secretKeywords.ts): the one-pass
 * alternation finds exactly the keywords one `includes` per keyword finds,
 * for the real rules' keywords, on texts dense with them, their overlaps
 * (`sk-ant-` holds `sk-`, `ops_eyj` holds `eyj`) and their near misses; and
 * a process switches to it only after ALTERNATION_AFTER characters.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALTERNATION_AFTER, createKeywordGate } from '../../src/transcript/secretKeywords.js';
import { CREDENTIAL_WORDS } from '../../src/transcript/secretNames.js';
import { SECRET_RULES } from '../../src/transcript/secrets.js';
import { secretParts } from '../support/secret-parts.js';

const KEYWORDS = [...SECRET_RULES.flatMap((rule) => rule.keywords), ...CREDENTIAL_WORDS];
const { random } = secretParts(0x4b);

/** Texts of keywords, pieces of keywords and ordinary words run together, seeded. */
function denseTexts(count: number): string[] {
  const pieces = [...KEYWORDS, ...KEYWORDS.map((keyword) => keyword.slice(1)), ...KEYWORDS.map((k) => k.slice(0, -1))];
  const words = ['the', 'task', ' ', '\n', '-', '_', '.', 'a', 'ask', '://x', '--', 'sk', 'k-'];
  return Array.from({ length: count }, () => {
    let text = '';
    for (let i = 0; i < 40; i++) {
      const from = random('01', 1) === '0' ? pieces : words;
      text += from[Number.parseInt(random('0123456789', 4), 10) % from.length];
    }
    return text;
  });
}

const sorted = (found: ReadonlySet<string>): string[] => [...found].sort();

describe('the keyword gate', () => {
  it('the alternation finds what includes finds, on texts dense with keywords and their overlaps', () => {
    const gate = createKeywordGate(KEYWORDS);
    const texts = [...denseTexts(400), ...KEYWORDS, 'sk-ant-', 'ops_eyj', 'xsk-ant-api', ''];
    for (const text of texts) expect(sorted(gate.byAlternation(text)), text).toEqual(sorted(gate.byIncludes(text)));
    // Not vacuous: most texts hold several keywords.
    expect(texts.filter((text) => gate.byIncludes(text).size >= 3).length).toBeGreaterThan(300);
  });

  it('and on session text (this repository README, lower-cased)', () => {
    const gate = createKeywordGate(KEYWORDS);
    const text = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').toLowerCase();
    expect(sorted(gate.byAlternation(text))).toEqual(sorted(gate.byIncludes(text)));
  });

  it('a keyword shadowed by a longer one at the same place still counts', () => {
    const gate = createKeywordGate(['sk-', 'sk-ant-', 'ant', 'k-a']);
    expect(sorted(gate.byAlternation('key sk-ant-x'))).toEqual(['ant', 'k-a', 'sk-', 'sk-ant-']);
  });

  it('present() gives the same answer before and after the switch to the alternation', () => {
    const gate = createKeywordGate(KEYWORDS);
    const text = 'run it with sk-ant-api03 and --password, then cookie: a=b';
    const before = sorted(gate.present(text));
    gate.present('x'.repeat(ALTERNATION_AFTER));
    expect(sorted(gate.present(text))).toEqual(before);
    expect(before).toEqual(expect.arrayContaining(['sk-ant-', 'sk-', '--', 'cookie', 'pass']));
  });
});
