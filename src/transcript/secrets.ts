/**
 * Secret redaction: credentials that turn up in prompts, tool inputs and tool
 * output are replaced by `[REDACTED:<kind>]` before anything leaves the
 * machine. Three passes, in this order:
 * 1. private key blocks (PEM and PGP), found with a forward scan instead of a
 *    lazy `[\s\S]*?`; an unterminated block is redacted to the end;
 * 2. token formats with a shape of their own (secretRules.ts, after the
 *    gitleaks rule set): the plain ones as one alternation (one pass over
 *    the text), the others each only when one of its keywords occurs;
 * 3. values of credential-named assignments (secretNames.ts).
 *
 * Every pattern stays linear on a 1 MB line (tests/transcript/redos.test.ts),
 * and all of them are compiled once, on the first text that needs them, so a
 * process that never redacts pays nothing.
 *
 * @module
 */
import { AWS_BARE_SECRET, TOKEN_RULES } from './secretRules.js';
import type { TokenRuleSpec } from './secretRules.js';
import { credentialNameKind, redactNamedSecrets } from './secretNames.js';

/** The marker that replaces a secret. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

interface CompiledRule {
  spec: TokenRuleSpec;
  pattern: RegExp;
}

interface CompiledRules {
  /** The plain rules (no flags, groups or predicates) as ONE alternation: one pass instead of ~40. */
  combined: RegExp;
  combinedKinds: string[];
  /** The rest, each gated by its keywords. */
  gated: CompiledRule[];
}

let compiled: CompiledRules | undefined;

function captureGroups(source: string): number {
  return (new RegExp(`${source}|`).exec('')?.length ?? 1) - 1;
}

function compiledRules(): CompiledRules {
  if (compiled !== undefined) return compiled;
  const all = [...TOKEN_RULES, AWS_BARE_SECRET];
  const plain = all.filter((spec) => spec.flags === undefined && spec.keepPrefix !== true && spec.keep === undefined && captureGroups(spec.source) === 0);
  compiled = {
    combined: new RegExp(plain.map((spec) => `(${spec.source})`).join('|'), 'g'),
    combinedKinds: plain.map((spec) => spec.kind),
    gated: all.filter((spec) => !plain.includes(spec)).map((spec) => ({ spec, pattern: new RegExp(spec.source, `g${spec.flags ?? ''}`) })),
  };
  return compiled;
}

function applyCombined(text: string, rules: CompiledRules): string {
  return text.replace(rules.combined, (...args: unknown[]) => {
    const groups = args.slice(1, 1 + rules.combinedKinds.length);
    const index = groups.findIndex((group) => group !== undefined);
    return redactionMarker(rules.combinedKinds[index] ?? 'secret');
  });
}

function applyRule(text: string, { spec, pattern }: CompiledRule): string {
  return text.replace(pattern, (match: string, ...groups: unknown[]) => {
    if (spec.keep?.(match) === true) return match;
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
  const rules = compiledRules();
  let result = applyCombined(redactPrivateKeyBlocks(text), rules);
  const lower = result.toLowerCase();
  for (const rule of rules.gated) {
    if (rule.spec.keywords.some((keyword) => lower.includes(keyword))) result = applyRule(result, rule);
  }
  return redactNamedSecrets(result, redactionMarker);
}

/** The redaction kind for a value stored under `key`, or undefined when the key is not a credential name. */
export function secretKindForKey(key: string): string | undefined {
  return credentialNameKind(key);
}
