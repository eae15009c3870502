/**
 * Secret redaction: credentials that turn up in prompts, tool inputs and tool
 * output are replaced by `[REDACTED:<kind>]` before anything leaves the
 * machine. Three passes, in this order:
 * 1. private key blocks (PEM and PGP), found with a forward scan instead of a
 *    lazy `[\s\S]*?`; an unterminated block is redacted to the end;
 * 2. token formats with a shape of their own (secretRules.ts,
 *    codeSecretRules.ts, serviceSecretRules.ts, after the gitleaks rule set:
 *    secretRuleSpec.ts),
 *    then credentials by where they stand (contextSecretRules.ts), each
 *    rule only when one of its keywords occurs;
 * 3. values of credential-named assignments (secretNames.ts).
 *
 * Every pattern stays linear on a 1 MB line (tests/transcript/redos.test.ts),
 * and each is compiled once, on the first text that holds one of its
 * keywords, so an ordinary prompt compiles next to none; which keywords a
 * text holds is found once for all rules (secretKeywords.ts). Measured
 * (DESIGN D17, bench/redaction.ts): a short prompt 2.5–5 µs (first call in a
 * process 0.1–0.2 ms), 4,000 characters ~86 µs, a 50 KB chunk ~2.2 ms, a
 * 240-part session ~4.7 ms. One alternation of all rules was ~0.3 ms faster
 * on 50 KB but cost ~1.5 ms to compile on every hook process's first prompt.
 *
 * @module
 */
import { AWS_BARE_SECRET, CONTEXT_RULES } from './contextSecretRules.js';
import type { TokenRuleSpec } from './secretRuleSpec.js';
import { CODE_TOKEN_RULES } from './codeSecretRules.js';
import { TOKEN_RULES } from './secretRules.js';
import { SERVICE_TOKEN_RULES } from './serviceSecretRules.js';
import { CREDENTIAL_WORDS, credentialNameKind, redactNamedSecrets } from './secretNames.js';
import { redactionMarker } from './redactionMarker.js';
import { createKeywordGate } from './secretKeywords.js';

/** Every token rule, in the order they run (an earlier one wins: Anthropic before OpenAI, a JWT before `Bearer`). */
export const SECRET_RULES: readonly TokenRuleSpec[] = [
  ...TOKEN_RULES,
  ...CODE_TOKEN_RULES,
  ...SERVICE_TOKEN_RULES,
  ...CONTEXT_RULES,
  AWS_BARE_SECRET,
];

/** The gate in front of every rule and the name pass: which of their keywords a text holds. */
const keywordGate = createKeywordGate([...SECRET_RULES.flatMap((rule) => rule.keywords), ...CREDENTIAL_WORDS]);

/** Each rule's pattern, compiled the first time its keywords occur (a short prompt compiles none). */
const compiled = new Map<TokenRuleSpec, RegExp>();

/** `text` with one rule's matches redacted (its `keep` and `keepPrefix` honoured), as redactSecrets runs it. */
export function applyTokenRule(text: string, spec: TokenRuleSpec): string {
  let pattern = compiled.get(spec);
  if (pattern === undefined) {
    pattern = new RegExp(spec.source, `g${spec.flags ?? ''}`);
    compiled.set(spec, pattern);
  }
  return text.replace(pattern, (match: string, ...groups: unknown[]) => {
    if (spec.keep !== undefined) {
      const offset = groups.find((group): group is number => typeof group === 'number') ?? 0;
      if (spec.keep(match, text.slice(offset + match.length, offset + match.length + 256))) return match;
    }
    const prefix = spec.keepPrefix === true && typeof groups[0] === 'string' ? groups[0] : '';
    return prefix + redactionMarker(spec.kind);
  });
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,64}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,64}PRIVATE KEY(?: BLOCK)?-----/g;

/** PEM and PGP private keys; an unterminated block is redacted to the end of the text. */
function redactPrivateKeyBlocks(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text;
  const begin = new RegExp(PEM_BEGIN);
  const end = new RegExp(PEM_END);
  const marker = redactionMarker('private-key');
  let result = '';
  let position = 0;
  for (let opened = begin.exec(text); opened !== null; opened = begin.exec(text)) {
    result += text.slice(position, opened.index) + marker;
    end.lastIndex = opened.index + opened[0].length;
    const closed = end.exec(text);
    if (closed === null) return result;
    position = closed.index + closed[0].length;
    begin.lastIndex = position;
  }
  return result + text.slice(position);
}

/** Replaces every recognised secret in `text` by `[REDACTED:<kind>]`. Pure and linear-time. */
export function redactSecrets(text: string): string {
  if (text.length < 8) return text;
  let result = redactPrivateKeyBlocks(text);
  const present = keywordGate.present(result.toLowerCase());
  for (const rule of SECRET_RULES) {
    if (rule.keywords.some((keyword) => present.has(keyword))) result = applyTokenRule(result, rule);
  }
  return CREDENTIAL_WORDS.some((word) => present.has(word)) ? redactNamedSecrets(result, redactionMarker) : result;
}

/** The redaction kind for a value stored under `key`, or undefined when the key is not a credential name. */
export function secretKindForKey(key: string): string | undefined {
  return credentialNameKind(key);
}
