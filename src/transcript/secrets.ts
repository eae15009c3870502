/**
 * Secret redaction: credentials that turn up in prompts, tool inputs and tool
 * output are replaced by `[REDACTED:<kind>]` before anything leaves the
 * machine.
 *
 * Every pattern is built to stay linear on a 1 MB line: it starts at a literal
 * (or a single-character lookbehind that admits only the first position of a
 * token run), and its repeated part is one character class that cannot overlap
 * what follows it, so a failed attempt costs at most one pass over one token.
 * PEM blocks are found with a forward scan instead of a lazy `[\s\S]*?`.
 * Open-ended runs are written `x{n}x*`, not `x{n,}`: V8 runs a plain `*` loop
 * over one class without backtracking state, which is ~50x faster on a long run.
 *
 * @module
 */

interface SecretRule {
  /** Names the redaction; a function when the match decides (e.g. `sk-ant-` vs `sk-`). */
  kind: string | ((match: string) => string);
  pattern: RegExp;
  /** Capture group kept verbatim in front of the marker (a header name, `key=`). */
  keepPrefixGroup?: number;
}

/** The marker that replaces a secret. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

const TOKEN_RULES: readonly SecretRule[] = [
  {
    kind: (match) => (match.startsWith('sk-ant-') ? 'anthropic-key' : 'openai-key'),
    pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*/g,
  },
  { kind: 'stripe-key', pattern: /(?<![A-Za-z0-9_])[rs]k_(?:live|test)_[A-Za-z0-9]{16}[A-Za-z0-9]*/g },
  { kind: 'aws-access-key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}/g },
  { kind: 'github-token', pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}/g },
  { kind: 'slack-token', pattern: /(?<![A-Za-z0-9-])xox[abprs]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*/g },
  { kind: 'google-api-key', pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}/g },
  { kind: 'npm-token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}/g },
  {
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*/g,
  },
  { kind: 'bearer-token', pattern: /\b(Bearer[ \t]{1,8})[A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*=*/gi, keepPrefixGroup: 1 },
  {
    kind: 'url-password',
    pattern: /(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/@]{1,128}:)[^\s/@]{1,256}(?=@)/gi,
    keepPrefixGroup: 1,
  },
  {
    kind: 'aws-secret-key',
    pattern: /(aws_secret_access_key["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    keepPrefixGroup: 1,
  },
];

/**
 * `name = "value"`, `name: 'value'` and `NAME=value` where the name contains a
 * credential word. Unquoted values are taken only right after `=` (env files,
 * query strings, CLI flags) so that `password: string` in a type stays intact.
 */
const ASSIGNMENT_PATTERN =
  /(pass(?:word|wd|phrase)|secret|api[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key)([A-Za-z0-9_-]{0,32})(["']?[ \t]{0,3}[:=][ \t]{0,3})(?:"(?!\[REDACTED)([^"\n]{3,512})"|'(?!\[REDACTED)([^'\n]{3,512})'|(?<==)([^\s"'`&;,<>()[\]{}]{3,512}))/gi;

/** The redaction kind named by a credential word (`password`, `api_key`, `access_token`, …). */
function credentialKind(word: string): string {
  const lower = word.toLowerCase();
  if (lower.startsWith('pass')) return 'password';
  if (lower.includes('secret')) return 'secret';
  if (lower.startsWith('api')) return 'api-key';
  if (lower.startsWith('private')) return 'private-key';
  return 'token';
}

function redactAssignments(text: string): string {
  return text.replace(
    ASSIGNMENT_PATTERN,
    (match, word: string, suffix: string, separator: string, dq?: string, sq?: string, bare?: string) => {
      // `secretary = "…"`, `passwordless='…'`: an ordinary word that starts with a credential word.
      if (/^[a-z]/.test(suffix) && word === word.toLowerCase()) return match;
      const marker = redactionMarker(credentialKind(word));
      const head = `${word}${suffix}${separator}`;
      if (dq !== undefined) return `${head}"${marker}"`;
      if (sq !== undefined) return `${head}'${marker}'`;
      return bare === undefined ? match : `${head}${marker}`;
    },
  );
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,64}PRIVATE KEY-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,64}PRIVATE KEY-----/g;

/** PEM private keys; an unterminated block is redacted to the end of the text. */
function redactPrivateKeyBlocks(text: string): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
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

function applyRule(text: string, rule: SecretRule): string {
  return text.replace(rule.pattern, (match: string, ...groups: unknown[]) => {
    const kind = typeof rule.kind === 'function' ? rule.kind(match) : rule.kind;
    const prefix = rule.keepPrefixGroup === undefined ? '' : String(groups[rule.keepPrefixGroup - 1] ?? '');
    return prefix + redactionMarker(kind);
  });
}

/** Replaces every recognised secret in `text` by `[REDACTED:<kind>]`. Pure and linear-time. */
export function redactSecrets(text: string): string {
  let result = redactPrivateKeyBlocks(text);
  for (const rule of TOKEN_RULES) result = applyRule(result, rule);
  return redactAssignments(result);
}

/** Object keys whose string value is a credential whatever it looks like (`{"password": "hunter2"}`). */
const SECRET_KEY_NAME =
  /^(?:[A-Za-z0-9]*[_-])?(pass(?:word|wd|phrase)|secret|api[_-]?key|apikey|token|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key)$/i;

/** The redaction kind for a value stored under `key`, or undefined when the key is not a credential name. */
export function secretKindForKey(key: string): string | undefined {
  if (key.length > 64) return undefined;
  const snake = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2'); // githubToken → github_Token
  const word = SECRET_KEY_NAME.exec(snake)?.[1];
  return word === undefined ? undefined : credentialKind(word);
}
