/**
 * Credentials found by where they stand rather than by a shape of their
 * own: JWTs, `Authorization`/`Bearer` headers, passwords in URLs and on
 * command lines (`curl -u`, `mysql -p…`, `sshpass`, `redis-cli -a`,
 * `--password …`), in files (`.netrc`, `.pgpass`, Docker's config.json,
 * PuTTY keys, base64 PEM keys), cookies, Azure SAS signatures, a bare AWS
 * secret key. The same rules as the token formats (secretRuleSpec.ts); most
 * are the plugin's own, the few adapted from gitleaks name its rule.
 *
 * @module
 */
import { TOKEN_START as B, type TokenRuleSpec } from './secretRuleSpec.js';

export const CONTEXT_RULES: readonly TokenRuleSpec[] = [
  {
    id: 'jwt',
    upstream: ['jwt'],
    kind: 'jwt',
    keywords: ['eyj'],
    source: String.raw`${B}eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*`,
  },
  {
    id: 'bearer-token',
    kind: 'bearer-token',
    keywords: ['bearer'],
    source: String.raw`\b(Bearer[ \t]{1,8})[A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*=*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    id: 'authorization',
    upstream: ['curl-auth-header'],
    kind: 'authorization',
    keywords: ['authorization'],
    source: String.raw`(authorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?(?:basic|token|bot|digest|negotiate|ntlm)[ \t]{1,8})[A-Za-z0-9._~+/=-]{6}[A-Za-z0-9._~+/=-]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    // `scheme://user:password@host`; the user may be empty (`redis://:pw@host`) and the password may hold `/` (not `:`).
    id: 'url-password',
    kind: 'url-password',
    keywords: ['://'],
    source: String.raw`(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{0,20}://[^\s:/@]{0,128}:)[^\s:@]{1,256}(?=@)`,
    flags: 'i',
    keepPrefix: true,
    keep: looksLikePortAndPath,
  },
  {
    // `curl -u user:pass`, `--user user:pass` (not `docker run -u 1000:1000`).
    id: 'curl-user',
    upstream: ['curl-auth-user'],
    kind: 'password',
    keywords: ['-u', '--user'],
    source: String.raw`((?:^|[ \t])(?:-u|--user)(?:[ \t]{1,8}|=)["']?[^\s:"'@]{1,128}:)[^\s"'@]{1,256}`,
    flags: 'm',
    keepPrefix: true,
    keep: (match) => /[ \t=]["']?[0-9]+:[0-9]+$/.test(match),
  },
  {
    // `mysql -u root -pS3cret db` (the password is glued to -p; `-p` alone prompts).
    id: 'mysql-password',
    kind: 'password',
    keywords: ['mysql', 'mariadb'],
    source: String.raw`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-p)[^\s-][^\s]*`,
    keepPrefix: true,
  },
  {
    id: 'sshpass-password',
    kind: 'password',
    keywords: ['sshpass'],
    source: String.raw`(\bsshpass[ \t]{1,8}-p[ \t]{0,8}["']?)[^\s"']{1,256}`,
    keepPrefix: true,
  },
  // `redis-cli -h cache -a S3cret` (`-a` takes the password; `--pass` is the flag rule below).
  {
    id: 'redis-cli-password',
    kind: 'password',
    keywords: ['redis-cli'],
    source: String.raw`(\bredis-cli\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-a[ \t]{1,4}["']?)[^\s"'-][^\s"']{0,255}`,
    keepPrefix: true,
  },
  {
    // `.netrc`: `machine host login alice password s3cret`, on one line or several.
    id: 'netrc-password',
    kind: 'password',
    keywords: ['machine'],
    source: String.raw`(\bmachine[ \t]{1,8}[^\s]{1,253}(?:[ \t\r\n]{1,20}(?:login|account|port)[ \t]{1,8}[^\s]{1,256}){0,3}[ \t\r\n]{1,20}password[ \t]{1,8})[^\s]{1,256}`,
    keepPrefix: true,
  },
  {
    // Azure DevOps and other personal access tokens in upper-case names: `AZURE_DEVOPS_EXT_PAT=…`, `ADO_PAT: …` (`pat` alone in code is a pattern).
    id: 'pat-variable',
    kind: 'token',
    keywords: ['_pat'],
    source: String.raw`((?<![A-Za-z0-9_])[A-Z][A-Z0-9_]{0,60}_PAT["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[^\s"'$<{][^\s"']{7,255}`,
    keepPrefix: true,
  },
  {
    // `.pgpass` lines `host:port:database:user:password` (port a number or `*`); gated by the usual ports or the file's name.
    id: 'pgpass-password',
    kind: 'password',
    keywords: ['pgpass', ':5432:', ':5433:', ':6432:', ':*:'],
    source: String.raw`^((?:[^\s:]{1,253}|\*):(?:[0-9]{1,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:)[^\s]{1,256}$`,
    flags: 'm',
    keepPrefix: true,
  },
  {
    // Docker's `~/.docker/config.json`: `"auths": {"registry": {"auth": "<base64 user:password>"}}`.
    id: 'docker-config-auth',
    kind: 'docker-auth',
    keywords: ['"auth"'],
    source: String.raw`("auth"[ \t]{0,8}:[ \t]{0,8}")[A-Za-z0-9+/]{8}[A-Za-z0-9+/]*={0,2}(?=")`,
    keepPrefix: true,
  },
  {
    // `Cookie: session=…; csrftoken=…` and `Set-Cookie:` in headers and curl output: the values.
    id: 'cookie',
    kind: 'cookie',
    keywords: ['cookie'],
    source: String.raw`(\b(?:set-)?cookie[ \t]{0,4}:[ \t]{0,4})(?=[^\s=;"']{1,128}=)[^\r\n"']{1,4096}`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    // Azure SAS (`…?sv=…&sig=<base64, URL-encoded>`), also inside `SharedAccessSignature=` connection strings.
    id: 'azure-sas',
    kind: 'azure-sas',
    keywords: ['sig='],
    source: String.raw`([?&;]sig=)[A-Za-z0-9%+/=]{16}[A-Za-z0-9%+/=]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    // PuTTY `.ppk`: the lines after `Private-Lines: N` (the `Public-Lines` stay).
    id: 'putty-private-key',
    kind: 'private-key',
    keywords: ['private-lines'],
    source: String.raw`(Private-Lines:[ \t]{0,4}[0-9]{1,3}[ \t]{0,4}\r?\n)(?:[A-Za-z0-9+/=]{1,128}\r?\n){0,63}[A-Za-z0-9+/=]{1,128}(?=\r?\n|$)`,
    keepPrefix: true,
  },
  {
    // A PEM private key in base64 (kubeconfig `client-key-data`, Kubernetes secrets): `-----BEGIN <kind> PRIVATE KEY` encoded.
    id: 'base64-private-key',
    kind: 'private-key',
    keywords: ['ls0tls1crudjtib'],
    source: String.raw`LS0tLS1CRUdJTiB(?:SU0EgUFJJVkFURSBLRVkt|QUklWQVRFIEtFWS0t|FQyBQUklWQVRFIEtFWS0t|PUEVOU1NIIFBSSVZBVEUgS0VZLS0t|EU0EgUFJJVkFURSBLRVkt|FTkNSWVBURUQgUFJJVkFURSBLRVkt|QR1AgUFJJVkFURSBLRVkgQkxPQ0st)[A-Za-z0-9+/=]*`,
  },
  {
    // `--password hunter2`, `--api-key abc`, `redis-cli --pass pw` (the `--password=…` form is an assignment, secretNames.ts).
    id: 'password-flag',
    kind: 'password',
    keywords: ['--'],
    source: String.raw`((?:^|[ \t])--(?:[a-z0-9]{1,20}-){0,3}(?:password|passwd|passphrase|pass|token|secret|api-key|apikey|access-key|secret-key)[ \t]{1,8}["']?)[^\s"'-][^\s"']{0,255}`,
    flags: 'im',
    keepPrefix: true,
  },
];

/**
 * `http://host:8080/path@x` is a port and a path holding `@`, not a
 * password: kept when the part before the colon looks like a host (a dot,
 * `localhost` or an address) and no dotted host follows the `@`. Else a
 * password that begins with digits and holds `/` (`postgres://app:12/ab@db`)
 * is redacted (issue 20 item 7; it was read as a port and kept).
 */
function looksLikePortAndPath(match: string, after: string): boolean {
  const authority = match.slice(match.indexOf('://') + 3);
  if (!/^[^:]*:[0-9]{1,5}\//.test(authority)) return false;
  const beforeColon = authority.slice(0, authority.indexOf(':'));
  const hostLike = beforeColon.includes('.') || /^localhost$/i.test(beforeColon) || /^\[/.test(beforeColon);
  const credentialsFollowed = /^@(?:localhost|[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+)(?:[:/?#\s]|$)/i.test(after);
  return hostLike && !credentialsFollowed;
}

/**
 * AWS secret access keys printed without a name (`aws sts … --output text`,
 * `aws configure list`): a run of exactly 40 base64 characters with upper
 * case, lower case and a digit or `/`/`+` (a git SHA is lower-case hex).
 * Runs only when the text mentions AWS or an access key id.
 */
export const AWS_BARE_SECRET: TokenRuleSpec = {
  id: 'aws-secret-key-bare',
  kind: 'aws-secret-key',
  keywords: ['akia', 'asia', 'aws'],
  source: String.raw`\b[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`,
  keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match) && /[0-9/+]/.test(match)),
};
