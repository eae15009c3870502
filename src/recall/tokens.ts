/**
 * The token estimate the server uses for its own budgets (openviking-api.md
 * §2.2 `max_tokens`): a codepoint ≥ U+3000 (CJK and beyond) counts 1.5
 * tokens, everything else a quarter. Using the same rule on the client keeps
 * a Chinese profile from blowing a budget that an ASCII one would respect.
 *
 * @module
 */

const WIDE_CODEPOINT = 0x3000;

/** Estimated tokens of `text` (rounded up). */
export function estimateTokens(text: string): number {
  let wide = 0;
  let narrow = 0;
  for (const char of text) {
    if ((char.codePointAt(0) ?? 0) >= WIDE_CODEPOINT) wide++;
    else narrow++;
  }
  return Math.ceil(wide * 1.5 + narrow / 4);
}

/** The longest prefix of `text` (whole codepoints) within `budgetTokens`. */
export function clipToTokens(text: string, budgetTokens: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    used += (char.codePointAt(0) ?? 0) >= WIDE_CODEPOINT ? 1.5 : 0.25;
    if (used > budgetTokens) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/** The longest prefix of `text` of at most `maxUnits` UTF-16 code units that does not split a surrogate pair. */
export function clipToUnits(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const end = Math.max(0, Math.floor(maxUnits));
  const code = text.charCodeAt(end - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}
