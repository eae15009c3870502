/**
 * The printable filter (util/printable.ts, issue 29 item 2): what a
 * terminal would act on or a reader would not see goes, text stays.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { printable, printableLine } from '../../src/util/printable.js';

describe('printable', () => {
  it('drops C0 but tab and newline (ESC, CR, BEL), DEL, C1, bidi controls and tag characters', () => {
    expect(printable('a\u001b]52;c;eA==\u0007b')).toBe('a]52;c;eA==b');
    expect(printable('a\u001b[2Jb\rc')).toBe('a[2Jbc');
    expect(printable('a\u007fb\u0085c\u009b31md')).toBe('abc31md');
    expect(printable('\u202eabc\u202c \u2066x\u2069 \u200e\u200f\u061c')).toBe('abc x ');
    expect(printable('tag\u{E0041}\u{E007F}s')).toBe('tags');
  });

  it('keeps tab, newline, accents, CJK, emoji and their joiners', () => {
    const text = 'ça\tva\n日本語 👩‍💻 zero\u200bwidth';
    expect(printable(text)).toBe(text);
  });

  it('printableLine: also one line (tabs and newlines as one space)', () => {
    expect(printableLine('viking://a\n[PASS] forged\t\tline\r')).toBe('viking://a [PASS] forged line');
  });
});
