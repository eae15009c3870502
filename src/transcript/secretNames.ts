/**
 * Credentials found by their NAME rather than their shape: `.env` lines
 * (`DB_PASS=…`, `HF_TOKEN=…`), YAML and JSON (`POSTGRES_PASSWORD: x`,
 * `"client_secret": "…"`), properties files, query strings, `--password=…`,
 * HTTP headers (`X-API-Key: …`), `.npmrc` (`_authToken=…`), connection
 * strings (`AccountKey=…;`).
 *
 * A name counts when its LAST word is a credential word (`password`,
 * `token`, `secret`, `api key`, …): `passwordLabel`, `password_placeholder`,
 * `API_KEY_ENV`, `privateKeyPath` and `secretName` name something else. A
 * value counts unless it is plainly not a secret: a placeholder (`${VAR}`,
 * `<your-token>`), a variable or call in code (`token = getToken()`,
 * `password=password)`), a type (`password: string`), an env var name
 * (`"OPENVIKING_API_KEY"`). Unquoted values after `:` or ` = ` are taken
 * only where code cannot be (end of line, UPPER_CASE names, headers).
 *
 * Linear: the candidate pattern starts only where a name run starts, the
 * name is at most 64 characters and the value at most 512.
 *
 * @module
 */
import { isRedacted } from './redactionMarker.js';

/** Last words that make a name a credential on their own. */
const STRONG_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'secret',
  'secrets',
  'token',
  'apikey',
  'credential',
  'credentials',
  'accesskey',
  'secretkey',
  'privatekey',
  'authtoken',
  'accesstoken',
  'refreshtoken',
  'sessiontoken',
  'clientsecret',
  'connectionstring',
]);

const GLUED_SUFFIX = /(?:password|passwd|passphrase|secret|token|apikey)$/;

/** Words that make a trailing `key` a credential (`api key`, `account key`, not `sort key`). */
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'secret',
  'private',
  'account',
  'auth',
  'client',
  'encryption',
  'signing',
  'master',
  'shared',
  'app',
  'service',
  'license',
  'subscription',
  'storage',
  'admin',
  'session',
  'consumer',
  'webhook',
  'hmac',
  'jwt',
]);

/** Names repeat (in code, and in hostile input); their verdicts are kept, a bounded number. */
const kindCache = new Map<string, string | undefined>();
const KIND_CACHE_SIZE = 512;

/** The credential kind of a name (`DB_PASSWORD` → password), or undefined when it names something else. */
export function credentialNameKind(name: string): string | undefined {
  if (name.length > 64) return undefined;
  if (kindCache.has(name)) return kindCache.get(name);
  if (kindCache.size >= KIND_CACHE_SIZE) kindCache.clear();
  const kind = kindOfName(name);
  kindCache.set(name, kind);
  return kind;
}

function kindOfName(name: string): string | undefined {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  const last = words.at(-1);
  if (last === undefined) return undefined;
  if (last === 'key') return KEY_QUALIFIERS.has(words.at(-2) ?? '') ? kindOfWords(words.at(-2) ?? '', last) : undefined;
  if (last === 'auth') return name.startsWith('_') ? 'token' : undefined; // `.npmrc` `_auth=`
  if (last === 'string') return words.at(-2) === 'connection' && words.length > 2 ? 'secret' : undefined; // `DB_CONNECTION_STRING`
  if (last === 'pat') return words.length > 1 && /^[A-Z0-9_]+$/.test(name) ? 'token' : undefined; // `AZURE_DEVOPS_PAT`, not `pat = re.compile(…)`
  if (STRONG_WORDS.has(last)) return kindOfWords('', last);
  const glued = GLUED_SUFFIX.exec(last)?.[0]; // `PGPASSWORD`, `NPMTOKEN`
  return glued === undefined ? undefined : kindOfWords('', glued);
}

function kindOfWords(qualifier: string, last: string): string {
  if (last.startsWith('pass') || last === 'pwd') return 'password';
  if (last === 'key') return qualifier === 'api' ? 'api-key' : qualifier === 'private' ? 'private-key' : 'secret';
  if (last.endsWith('token')) return 'token';
  if (last === 'apikey') return 'api-key';
  if (last === 'privatekey') return 'private-key';
  return 'secret';
}

/**
 * A credential word, the rest of its name, a separator, then a
 * double-quoted, single-quoted or bare value. The part of the name before the
 * word (`Account` in `AccountKey`) is read backwards in code: a pattern that
 * started at every name would cost ~6x more on ordinary text.
 * Groups: 1 word, 2 rest of the name, 3 closing quote of the name, 4 space
 * before the separator, 5 separator (with the spaces after it), 6/7/8 value.
 */
export const CREDENTIAL_WORDS = [
  'pass',
  'pwd',
  'secret',
  'token',
  'key',
  'auth',
  'credential',
  'connectionstring',
] as const;
const CANDIDATE_SOURCE = String.raw`(${CREDENTIAL_WORDS.join('|')})([A-Za-z0-9_.-]{0,40})(["']?)([ \t]{0,3})((?::=|=>|[:=])[ \t]{0,3})(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|([^\s"'\x60&;,<>()[\]{}|]{1,512}))`;
/** `[A-Za-z0-9_.-]`, without a regex call per character. */
function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}
/** Longest name looked at. */
const MAX_NAME = 64;
/** Longest YAML value read to its line's end. */
const MAX_YAML_VALUE = 512;
let candidatePattern: RegExp | undefined;

/** A value that stands for a secret rather than being one. */
const PLACEHOLDER =
  /^(?:[$%{<@]|\*{3,}$|x{3,}$|\.\.\.|…|null$|none$|nil$|undefined$|true$|false$|your[_-])|\{\{|\$\{|process\.env|os\.environ|getenv/i;
/** An env var name in quotes (`API_KEY_ENV = "OPENVIKING_API_KEY"`). */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** `self.token`, `config.apiKey`: a member chain in code. */
const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** A type after `name:` (TypeScript, Python, Go …), with generic arguments (`Optional[str]`, `Array<string>`). */
const TYPE_EXPR = String.raw`(?:string|number|boolean|bool|any|unknown|never|void|object|str|int|float|bytes|char|optional|secretstr|[A-Z][A-Za-z0-9]*)(?:\[[\w., |[\]]{0,100}\])?(?:\[\])?`;
/**
 * A declaration rather than a value: a type or a union of types, optional,
 * with a default that is not a literal (`Optional[str] = None`,
 * `str | None = None`, `string;`, `string; }` closing a one-line interface).
 */
const TYPE_LINE = new RegExp(
  String.raw`^${TYPE_EXPR}(?:[ \t]*\|[ \t]*${TYPE_EXPR}){0,8}\??(?:[ \t]*=[ \t]*(?:None|null|nil|undefined|[A-Za-z_$][\w$.]{0,100}(?:\(\))?))?[ \t]*[,;]?(?:[ \t]*\})?$`,
);
/** A sentence after `password:` in a prompt ("the password: how do I reset it?"), not a value. */
const PROSE = /^\S+(?:\s+\S+){3,}$|\s\S+[?.!]$/;
const UPPER_NAME = /^[A-Z0-9_.-]*[A-Z][A-Z0-9_.-]*$/;
/** What follows a keyword argument or a default value in code. */
const CODE_FOLLOWER = new Set([',', ')', ';', '}', ']']);
const HEADER_NAME = /^(?:x-[A-Za-z0-9-]+|api-key|private-token|[A-Za-z]+-(?:key|token|secret))$/i;

/** Whether the bare value `value` of `name` (then `after`, the next character) is a secret. */
function bareIsSecret(name: string, spaceBefore: string, separator: string, value: string, after: string): boolean {
  if (after === '(' || after === '[') return false; // a call or an index: code
  if (HEADER_NAME.test(name)) return value.length >= 4;
  const upper = UPPER_NAME.test(name);
  const sep = separator.trim();
  if (sep === '=' && spaceBefore === '') {
    // env file, CLI flag, query string, properties; or a keyword argument in code (`password=password)`).
    if (upper || !CODE_FOLLOWER.has(after)) return true;
    return !(IDENTIFIER.test(value) || MEMBER_CHAIN.test(value));
  }
  if (MEMBER_CHAIN.test(value)) return false;
  return upper && !IDENTIFIER.test(value); // `DB_PASS = s3cret` but not `token := getToken` / `x => y`
}

/**
 * A YAML-style `name: value`: the value is the rest of the line (a password
 * may hold `&` or `,`), unless the line reads as code or a type
 * (`token: string | null`, `password: pw,`, `token: AccessToken`).
 * Returns the secret's length from `start`, or 0.
 */
function yamlValueLength(text: string, start: number, lineEnd: number, upper: boolean): number {
  if (lineEnd - start > MAX_YAML_VALUE) return 0; // bounded, so many candidates on one long line stay linear
  const line = text
    .slice(start, lineEnd)
    .replace(/[ \t]+#.*$/, '')
    .trimEnd();
  if (line === '' || PLACEHOLDER.test(line)) return 0;
  if (!upper && (TYPE_LINE.test(line) || /[,;{(]$|=>| \| |</.test(line) || MEMBER_CHAIN.test(line) || PROSE.test(line)))
    return 0;
  return line.length;
}

function valueIsPlaceholder(value: string): boolean {
  return isRedacted(value) || PLACEHOLDER.test(value) || ENV_NAME.test(value);
}

/** Replaces the values of credential-named assignments by `[REDACTED:<kind>]`. */
export function redactNamedSecrets(text: string, marker: (kind: string) => string): string {
  candidatePattern ??= new RegExp(CANDIDATE_SOURCE, 'gi');
  const pattern = candidatePattern;
  pattern.lastIndex = 0;
  let result = '';
  let position = 0;
  const lineEndAfter = lineEnds(text);
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const found = namedSecretAt(text, match, lineEndAfter);
    if (found === undefined) continue;
    const redacted = found.quoted ? `${found.quoted[0]}${marker(found.kind)}${found.quoted[1]}` : marker(found.kind);
    result += text.slice(position, found.start) + redacted;
    position = found.start + found.length;
    pattern.lastIndex = Math.max(pattern.lastIndex, position);
  }
  return position === 0 ? text : result + text.slice(position);
}

/** The end of the line `start` is on; the latest answer kept, so each line is searched once. */
function lineEnds(text: string): (start: number) => number {
  let lineEnd = -1;
  return (start) => {
    if (lineEnd < start) {
      lineEnd = text.indexOf('\n', start);
      if (lineEnd === -1) lineEnd = text.length;
    }
    return lineEnd;
  };
}

/** A credential's value that a candidate match assigns: where it is, its kind, the quotes kept around it. */
interface NamedSecret {
  start: number;
  length: number;
  kind: string;
  /** The quotes around a quoted value, kept around the marker. */
  quoted?: [string, string];
}

/** The secret value a candidate assigns, or undefined when the name is no credential's or the value is none. */
function namedSecretAt(
  text: string,
  match: RegExpExecArray,
  lineEndAfter: (start: number) => number,
): NamedSecret | undefined {
  const [whole, word = '', rest = '', quote = '', spaceBefore = '', separator = '', dq, sq, bare] = match;
  const nameStart = nameStartBefore(text, match.index);
  if (readsVariable(text, nameStart)) return undefined;
  const bareName = (text.slice(nameStart, match.index) + word + rest).replace(/^[-.]+/, '');
  const kind = credentialNameKind(bareName);
  const value = dq ?? sq ?? bare ?? '';
  if (kind === undefined || valueIsPlaceholder(value.trim())) return undefined;
  const start = match.index + word.length + rest.length + quote.length + spaceBefore.length + separator.length;
  if (bare === undefined)
    return {
      start,
      length: value.length + 2,
      kind,
      quoted: [whole.charAt(start - match.index), whole.charAt(whole.length - 1)],
    };
  const after = text.charAt(match.index + whole.length);
  const length =
    separator.trim() === ':' && !HEADER_NAME.test(bareName)
      ? yamlValueLength(text, start, lineEndAfter(start), UPPER_NAME.test(bareName))
      : bareSecretLength(bareName, spaceBefore, separator, value, after);
  return length === 0 ? undefined : { start, length, kind };
}

/** Where the name that ends in the match's word starts (at most MAX_NAME characters back). */
function nameStartBefore(text: string, index: number): number {
  let start = index;
  while (start > 0 && index - start < MAX_NAME && isNameChar(text.charCodeAt(start - 1))) start--;
  return start;
}

/** `$PWD:/app`, `${API_TOKEN}`: a variable's value is read there, not written. */
function readsVariable(text: string, nameStart: number): boolean {
  const before = text.charAt(nameStart - 1);
  return before === '$' || (before === '{' && text.charAt(nameStart - 2) === '$');
}

/** An unquoted value outside YAML: all of it when it reads as a secret, else none. */
function bareSecretLength(name: string, spaceBefore: string, separator: string, value: string, after: string): number {
  return bareIsSecret(name, spaceBefore, separator, value, after) ? value.length : 0;
}
