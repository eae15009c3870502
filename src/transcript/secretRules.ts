/**
 * The credential formats secrets.ts redacts, as data: one entry per token
 * format with a distinctive shape (a vendor prefix, a fixed layout).
 *
 * The list follows the rule set of gitleaks (config/gitleaks.toml), a
 * maintained detector, rewritten here under two constraints of our own:
 * - linear time on a 1 MB line: every pattern starts at a literal or behind a
 *   one-character lookbehind that admits only the first position of a token
 *   run, and its open-ended part is `x{n}x*` over one class;
 * - cheap on the hook path: a rule runs only when one of its `keywords`
 *   (lower case) occurs in the lower-cased text, gitleaks' own pre-filter,
 *   and the patterns are compiled once, on first use (secrets.ts).
 * Credentials that have no shape of their own (`DB_PASS=…`, YAML passwords)
 * are found by name instead (secretNames.ts).
 *
 * @module
 */

export interface TokenRuleSpec {
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
const B = String.raw`(?<![A-Za-z0-9_-])`;

export const TOKEN_RULES: readonly TokenRuleSpec[] = [
  // AI providers. Anthropic before OpenAI: both start with `sk-`.
  { kind: 'anthropic-key', keywords: ['sk-ant-'], source: String.raw`${B}sk-ant-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*` },
  {
    // `sk-proj-…`/`sk-svcacct-…` may hold `-` and `_`; a bare `sk-` key is one alphanumeric run (not `sk-learn-…`).
    kind: 'openai-key',
    keywords: ['sk-'],
    source: String.raw`${B}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*|[A-Za-z0-9]{20}[A-Za-z0-9]*(?![A-Za-z0-9_-]))`,
  },
  { kind: 'groq-key', keywords: ['gsk_'], source: String.raw`${B}gsk_[A-Za-z0-9]{40}[A-Za-z0-9]*` },
  { kind: 'xai-key', keywords: ['xai-'], source: String.raw`${B}xai-[A-Za-z0-9]{60}[A-Za-z0-9]*` },
  { kind: 'perplexity-key', keywords: ['pplx-'], source: String.raw`${B}pplx-[A-Za-z0-9]{40}[A-Za-z0-9]*` },
  { kind: 'replicate-token', keywords: ['r8_'], source: String.raw`${B}r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])` },
  { kind: 'huggingface-token', keywords: ['hf_'], source: String.raw`${B}hf_[A-Za-z0-9]{30}[A-Za-z0-9]*` },
  // Payments.
  {
    kind: 'stripe-key',
    keywords: ['_live_', '_test_', '_prod_'],
    source: String.raw`${B}[rsp]k_(?:live|test|prod)_[A-Za-z0-9]{10}[A-Za-z0-9]*`,
  },
  {
    kind: 'stripe-webhook-secret',
    keywords: ['whsec_'],
    source: String.raw`${B}whsec_[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=]*`,
  },
  {
    kind: 'square-token',
    keywords: ['sq0atp-', 'sq0csp-'],
    source: String.raw`${B}sq0(?:atp|csp)-[A-Za-z0-9_-]{22}[A-Za-z0-9_-]*`,
  },
  // Clouds.
  {
    kind: 'aws-access-key',
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    source: String.raw`(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`,
  },
  {
    kind: 'aws-session-token',
    keywords: ['iqojb3jpz2lu', 'fwogzxivyxdz', 'aqodyxdz'],
    source: String.raw`(?<![A-Za-z0-9+/])(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|AQoDYXdz)[A-Za-z0-9+/=]{20}[A-Za-z0-9+/=]*`,
  },
  {
    kind: 'aws-secret-key',
    keywords: ['aws_secret_access_key', 'secretaccesskey'],
    source: String.raw`((?:aws_secret_access_key|SecretAccessKey)["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
    flags: 'i',
    keepPrefix: true,
  },
  { kind: 'google-api-key', keywords: ['aiza'], source: String.raw`${B}AIza[A-Za-z0-9_-]{35}` },
  {
    kind: 'google-oauth-secret',
    keywords: ['gocspx-'],
    source: String.raw`${B}GOCSPX-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  { kind: 'google-oauth-token', keywords: ['ya29.'], source: String.raw`${B}ya29\.[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*` },
  {
    kind: 'google-refresh-token',
    keywords: ['1//0'],
    source: String.raw`(?<![A-Za-z0-9_/-])1//0[A-Za-z0-9_-]{30}[A-Za-z0-9_-]*`,
  },
  {
    kind: 'azure-client-secret',
    keywords: ['q~'],
    source: String.raw`(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
  },
  { kind: 'digitalocean-token', keywords: ['_v1_'], source: String.raw`${B}do[por]_v1_[a-f0-9]{64}` },
  { kind: 'databricks-token', keywords: ['dapi'], source: String.raw`${B}dapi[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])` },
  { kind: 'supabase-token', keywords: ['sbp_'], source: String.raw`${B}sbp_[a-f0-9]{40}` },
  // Code hosting and registries.
  {
    kind: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    source: String.raw`${B}gh[pousr]_[A-Za-z0-9]{36}[A-Za-z0-9]*`,
  },
  { kind: 'github-token', keywords: ['github_pat_'], source: String.raw`${B}github_pat_[A-Za-z0-9_]{22}[A-Za-z0-9_]*` },
  {
    kind: 'gitlab-token',
    keywords: ['glpat-', 'glptt-', 'gldt-', 'glrt-', 'glsoat-', 'glcbt-', 'glft-', 'glimt-', 'gloas-', 'glagent-'],
    source: String.raw`${B}gl(?:pat|ptt|dt|rt|soat|cbt|ft|imt|oas|agent)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  { kind: 'npm-token', keywords: ['npm_'], source: String.raw`${B}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])` },
  {
    kind: 'pypi-token',
    keywords: ['pypi-ageicHlwaS5vcmc'.toLowerCase()],
    source: String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  {
    kind: 'shopify-token',
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    source: String.raw`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])`,
  },
  { kind: 'docker-token', keywords: ['dckr_pat_'], source: String.raw`dckr_pat_[A-Za-z0-9_-]{27}[A-Za-z0-9_-]*` },
  { kind: 'atlassian-token', keywords: ['atatt3'], source: String.raw`ATATT3[A-Za-z0-9_=-]{60}[A-Za-z0-9_=-]*` },
  { kind: 'linear-key', keywords: ['lin_api_'], source: String.raw`lin_api_[A-Za-z0-9]{40}` },
  { kind: 'postman-key', keywords: ['pmak-'], source: String.raw`PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}` },
  {
    kind: 'terraform-token',
    keywords: ['.atlasv1.'],
    source: String.raw`${B}[a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`,
  },
  // Chat, mail, monitoring, secrets managers.
  {
    kind: 'slack-token',
    keywords: ['xox'],
    source: String.raw`(?<![A-Za-z0-9-])xox[abposre]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`,
  },
  {
    kind: 'slack-token',
    keywords: ['xapp-'],
    source: String.raw`(?<![A-Za-z0-9-])xapp-[0-9]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`,
  },
  {
    kind: 'slack-webhook',
    keywords: ['hooks.slack.com'],
    source: String.raw`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/+-]{8}[A-Za-z0-9_/+-]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    kind: 'discord-webhook',
    keywords: ['/api/webhooks/'],
    source: String.raw`(discord(?:app)?\.com/api/webhooks/)[0-9]{5,30}/[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    kind: 'telegram-bot-token',
    keywords: [':aa'],
    source: String.raw`(?<![A-Za-z0-9_:-])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`,
  },
  {
    kind: 'sendgrid-key',
    keywords: ['sg.'],
    source: String.raw`(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{40,50}`,
  },
  { kind: 'mailgun-key', keywords: ['key-'], source: String.raw`${B}key-[a-f0-9]{32}(?![A-Za-z0-9])` },
  {
    kind: 'mailchimp-key',
    keywords: ['-us'],
    source: String.raw`(?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9])`,
  },
  { kind: 'twilio-key', keywords: ['sk'], source: String.raw`(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])` },
  {
    kind: 'sentry-token',
    keywords: ['sntrys_', 'sntryu_', 'sntrus_'],
    source: String.raw`${B}sntr(?:ys|yu|us)_[A-Za-z0-9+/=_-]{30}[A-Za-z0-9+/=_-]*`,
  },
  {
    kind: 'grafana-token',
    keywords: ['glsa_', 'glc_'],
    source: String.raw`${B}(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32}[A-Za-z0-9+/]*={0,2})`,
  },
  { kind: 'newrelic-key', keywords: ['nrak-'], source: String.raw`NRAK-[A-Z0-9]{27}` },
  {
    kind: 'vault-token',
    keywords: ['hvs.', 'hvb.'],
    source: String.raw`(?<![A-Za-z0-9_.-])hv[sb]\.[A-Za-z0-9_-]{24}[A-Za-z0-9_-]*`,
  },
  {
    // Vault's legacy service tokens: `s.` and 24 base62 characters (mixed case and a digit: not a word after `s.`).
    kind: 'vault-token',
    keywords: ['s.'],
    source: String.raw`(?<![A-Za-z0-9_.-])s\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])`,
    keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match.slice(2)) && /[0-9]/.test(match)),
  },
  {
    kind: 'doppler-token',
    keywords: ['dp.'],
    source: String.raw`(?<![A-Za-z0-9_.-])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_]{40,44}`,
    flags: 'i',
  },
  { kind: '1password-token', keywords: ['ops_eyj'], source: String.raw`ops_eyJ[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3}` },
  { kind: 'age-secret-key', keywords: ['age-secret-key-1'], source: String.raw`AGE-SECRET-KEY-1[0-9A-Z]{58}` },
  // Generic shapes.
  {
    kind: 'jwt',
    keywords: ['eyj'],
    source: String.raw`${B}eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*`,
  },
  {
    kind: 'bearer-token',
    keywords: ['bearer'],
    source: String.raw`\b(Bearer[ \t]{1,8})[A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*=*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    kind: 'authorization',
    keywords: ['authorization'],
    source: String.raw`(authorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?(?:basic|token|bot|digest|negotiate|ntlm)[ \t]{1,8})[A-Za-z0-9._~+/=-]{6}[A-Za-z0-9._~+/=-]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    // `scheme://user:password@host`; the user may be empty (`redis://:pw@host`) and the password may hold `/` (not `:`).
    kind: 'url-password',
    keywords: ['://'],
    source: String.raw`(?<![A-Za-z0-9+.-])([a-z][a-z0-9+.-]{0,20}://[^\s:/@]{0,128}:)[^\s:@]{1,256}(?=@)`,
    flags: 'i',
    keepPrefix: true,
    keep: looksLikePortAndPath,
  },
  {
    // `curl -u user:pass`, `--user user:pass` (not `docker run -u 1000:1000`).
    kind: 'password',
    keywords: ['-u', '--user'],
    source: String.raw`((?:^|[ \t])(?:-u|--user)(?:[ \t]{1,8}|=)["']?[^\s:"'@]{1,128}:)[^\s"'@]{1,256}`,
    flags: 'm',
    keepPrefix: true,
    keep: (match) => /[ \t=]["']?[0-9]+:[0-9]+$/.test(match),
  },
  {
    // `mysql -u root -pS3cret db` (the password is glued to -p; `-p` alone prompts).
    kind: 'password',
    keywords: ['mysql', 'mariadb'],
    source: String.raw`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mariadb|mariadb-dump)\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-p)[^\s-][^\s]*`,
    keepPrefix: true,
  },
  {
    kind: 'password',
    keywords: ['sshpass'],
    source: String.raw`(\bsshpass[ \t]{1,8}-p[ \t]{0,8}["']?)[^\s"']{1,256}`,
    keepPrefix: true,
  },
  // `redis-cli -h cache -a S3cret` (`-a` takes the password; `--pass` is the flag rule below).
  {
    kind: 'password',
    keywords: ['redis-cli'],
    source: String.raw`(\bredis-cli\b(?:[ \t]{1,4}[^\s]{1,200}){0,12}?[ \t]{1,4}-a[ \t]{1,4}["']?)[^\s"'-][^\s"']{0,255}`,
    keepPrefix: true,
  },
  {
    // `.netrc`: `machine host login alice password s3cret`, on one line or several.
    kind: 'password',
    keywords: ['machine'],
    source: String.raw`(\bmachine[ \t]{1,8}[^\s]{1,253}(?:[ \t\r\n]{1,20}(?:login|account|port)[ \t]{1,8}[^\s]{1,256}){0,3}[ \t\r\n]{1,20}password[ \t]{1,8})[^\s]{1,256}`,
    keepPrefix: true,
  },
  {
    // Azure DevOps and other personal access tokens in upper-case names: `AZURE_DEVOPS_EXT_PAT=…`, `ADO_PAT: …` (`pat` alone in code is a pattern).
    kind: 'token',
    keywords: ['_pat'],
    source: String.raw`((?<![A-Za-z0-9_])[A-Z][A-Z0-9_]{0,60}_PAT["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[^\s"'$<{][^\s"']{7,255}`,
    keepPrefix: true,
  },
  {
    // `.pgpass` lines `host:port:database:user:password` (port a number or `*`); gated by the usual ports or the file's name.
    kind: 'password',
    keywords: ['pgpass', ':5432:', ':5433:', ':6432:', ':*:'],
    source: String.raw`^((?:[^\s:]{1,253}|\*):(?:[0-9]{1,5}|\*):[^\s:]{1,128}:[^\s:]{1,128}:)[^\s]{1,256}$`,
    flags: 'm',
    keepPrefix: true,
  },
  {
    // Docker's `~/.docker/config.json`: `"auths": {"registry": {"auth": "<base64 user:password>"}}`.
    kind: 'docker-auth',
    keywords: ['"auth"'],
    source: String.raw`("auth"[ \t]{0,8}:[ \t]{0,8}")[A-Za-z0-9+/]{8}[A-Za-z0-9+/]*={0,2}(?=")`,
    keepPrefix: true,
  },
  {
    // `Cookie: session=…; csrftoken=…` and `Set-Cookie:` in headers and curl output: the values.
    kind: 'cookie',
    keywords: ['cookie'],
    source: String.raw`(\b(?:set-)?cookie[ \t]{0,4}:[ \t]{0,4})(?=[^\s=;"']{1,128}=)[^\r\n"']{1,4096}`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    // Azure SAS (`…?sv=…&sig=<base64, URL-encoded>`), also inside `SharedAccessSignature=` connection strings.
    kind: 'azure-sas',
    keywords: ['sig='],
    source: String.raw`([?&;]sig=)[A-Za-z0-9%+/=]{16}[A-Za-z0-9%+/=]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    // PuTTY `.ppk`: the lines after `Private-Lines: N` (the `Public-Lines` stay).
    kind: 'private-key',
    keywords: ['private-lines'],
    source: String.raw`(Private-Lines:[ \t]{0,4}[0-9]{1,3}[ \t]{0,4}\r?\n)(?:[A-Za-z0-9+/=]{1,128}\r?\n){0,63}[A-Za-z0-9+/=]{1,128}(?=\r?\n|$)`,
    keepPrefix: true,
  },
  {
    // A PEM private key in base64 (kubeconfig `client-key-data`, Kubernetes secrets): `-----BEGIN <kind> PRIVATE KEY` encoded.
    kind: 'private-key',
    keywords: ['ls0tls1crudjtib'],
    source: String.raw`LS0tLS1CRUdJTiB(?:SU0EgUFJJVkFURSBLRVkt|QUklWQVRFIEtFWS0t|FQyBQUklWQVRFIEtFWS0t|PUEVOU1NIIFBSSVZBVEUgS0VZLS0t|EU0EgUFJJVkFURSBLRVkt|FTkNSWVBURUQgUFJJVkFURSBLRVkt|QR1AgUFJJVkFURSBLRVkgQkxPQ0st)[A-Za-z0-9+/=]*`,
  },
  {
    // `--password hunter2`, `--api-key abc`, `redis-cli --pass pw` (the `--password=…` form is an assignment, secretNames.ts).
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
  kind: 'aws-secret-key',
  keywords: ['akia', 'asia', 'aws'],
  source: String.raw`\b[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`,
  keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match) && /[0-9/+]/.test(match)),
};
