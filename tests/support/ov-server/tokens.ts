/**
 * OpenViking's token estimate (contract §2.2, §7.2): a codepoint ≥ 0x3000
 * (CJK and friends) counts 1.5 tokens, everything else counts chars/4. Used
 * for `pending_tokens`, the context-search budget and session context.
 *
 * @module
 */

/** Estimated tokens of `text`, rounded up. */
export function estimateTokens(text: string): number {
  let wide = 0;
  let narrow = 0;
  for (const char of text) {
    if ((char.codePointAt(0) ?? 0) >= 0x3000) wide += 1;
    else narrow += 1;
  }
  return Math.ceil(wide * 1.5 + narrow / 4);
}
