/**
 * The shape of a secret rule (secrets.ts runs them), and where the rules
 * come from.
 *
 * Provenance. The token formats (secretRules.ts, codeSecretRules.ts,
 * serviceSecretRules.ts) follow the default rule set of gitleaks, a
 * maintained detector: github.com/gitleaks/gitleaks, `config/gitleaks.toml`.
 * They were first adapted in November 2026 (commit a4345ab) from a version
 * not recorded then; they were compared rule by rule with gitleaks v8.30.1
 * (tag 83d9cd68, 2026-03-12; its `config/gitleaks.toml` last changed in
 * 09242ce9, 2025-11-20, and is the same at master b58d3f10, 2026-07-22),
 * and each rule names the gitleaks rule ids it adapts (`upstream`); a rule
 * without them is the plugin's own (a format gitleaks lacks, or a
 * credential found by where it stands: contextSecretRules.ts). What of
 * gitleaks' 222 rules is left out, and why, is in DESIGN D41; compared again
 * with master b58d3f10 (the same file), 12 more were taken and three formats
 * gitleaks lacks added (OpenRouter, LangSmith, Vercel; DESIGN D17).
 *
 * Every rule is rewritten, never copied, under two constraints of our own
 * (DESIGN D17):
 * - linear time on a 1 MB line: every pattern starts at a literal or behind a
 *   one-character lookbehind that admits only the first position of a token
 *   run (`TOKEN_START`), and its open-ended part is `x{n}x*` over one class
 *   (tests/transcript/redos.test.ts);
 * - cheap on the hook path: a rule runs only when one of its `keywords`
 *   (lower case) occurs in the lower-cased text, gitleaks' own pre-filter,
 *   found for all rules at once (secretKeywords.ts), and the patterns are
 *   compiled once, on first use (secrets.ts).
 * Each rule has a positive and a near miss in tests/security/secret-rules.test.ts,
 * which also checks that it is that rule that fires.
 *
 * @module
 */

export interface TokenRuleSpec {
  /** Unique: names the rule here and in its test. */
  id: string;
  /** The gitleaks rule ids (v8.30.1) it is adapted from; absent: the plugin's own. */
  upstream?: readonly string[];
  /** Names the redaction: `[REDACTED:<kind>]`. */
  kind: string;
  /** Lower-case substrings, one of which must occur for the rule to run. */
  keywords: readonly string[];
  /** Source of a global regex. */
  source: string;
  /** Extra flags besides `g` (e.g. `i`). */
  flags?: string;
  /** When set, the first capture group is kept verbatim in front of the marker (`Bearer `, `https://user:`). */
  keepPrefix?: boolean;
  /** A match this predicate accepts is left alone (a port number in `http://host:8080/…@`, `-u 1000:1000`); `after` is the text that follows it (up to 256 characters). */
  keep?: (match: string, after: string) => boolean;
}

/** Starts only where a token run starts: not after a letter, digit, `_` or `-`. */
export const TOKEN_START = String.raw`(?<![A-Za-z0-9_-])`;
