/**
 * The redaction corpus (issue 14 item 10): realistic credentials in the
 * places they turn up in a coding session (`.env`, YAML, JSON, shell
 * commands, HTTP headers, tool output), each of which must be redacted, and
 * ordinary code lines, many of which name passwords, tokens, secrets and
 * keys, each of which must come out byte for byte.
 *
 * Secret values are generated at run time from a fixed seed, so no
 * secret-shaped literal sits in the repository and a run is replayable
 * (tests/support/secret-parts.ts). Which rule fires for each format is
 * secret-rules.test.ts's.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../src/transcript/privacy.js';
import { redactSecrets } from '../../src/transcript/secrets.js';
import { ALNUM, B64, DIGITS, HEX, LOWER, secretParts, UPPER, URLSAFE } from '../support/secret-parts.js';

const { random, mixed } = secretParts(0x5eed);

const awsSecret = () => `${mixed(20)}/${random(B64, 19)}`;
const awsId = (prefix = 'AKIA') => `${prefix}${random(UPPER + DIGITS, 16)}`;
const sessionToken = `IQoJb3JpZ2luX2VjE${random(B64, 300)}`;

/** [label, text, the secret part that must not survive]. */
const SECRETS: Array<[string, string, string]> = [];
const add = (label: string, secret: string, text: (s: string) => string = (s) => s) =>
  SECRETS.push([label, text(secret), secret]);

// The issue's misses, one by one.
add('.env GITHUB_TOKEN (classic pat)', `ghp_${random(ALNUM, 36)}`, (s) => `GITHUB_TOKEN=${s}`);
add('.env GITHUB_TOKEN (opaque value)', mixed(24), (s) => `GITHUB_TOKEN=${s}`);
add('.env TOKEN', mixed(32), (s) => `TOKEN=${s}`);
add('.env HF_TOKEN', `hf_${random(UPPER + LOWER, 34)}`, (s) => `HF_TOKEN=${s}`);
add('bare hf_ token in prose', `hf_${random(UPPER + LOWER, 34)}`, (s) => `use ${s} for the hub`);
add('.env DB_PASS', 'hunter2', (s) => `DB_PASS=${s}`);
add('export DB_PASSWORD', 'S3cr3t!pw', (s) => `export DB_PASSWORD=${s}`);
add('YAML POSTGRES_PASSWORD', 'x', (s) => `    POSTGRES_PASSWORD: ${s}`);
add('YAML password, lower case', 'Tr0ub4dor&3', (s) => `  password: ${s}`);
add('YAML passphrase of three words', 'correct horse battery', (s) => `passphrase: ${s}`);
add('redis URL without a user', 'p4ss-w0rd', (s) => `REDIS_URL=redis://:${s}@cache.internal:6379/0`);
add('postgres URL, password with /', 'ab/cd+ef9', (s) => `postgres://app:${s}@db.example.com:5432/prod`);
add(
  'X-API-Key header (the OpenViking key header)',
  `ovk-${random(HEX, 32)}`,
  (s) => `curl -H "X-API-Key: ${s}" http://127.0.0.1:1933/api/v1/fs/ls`,
);
add('X-API-Key header line', mixed(40), (s) => `X-API-Key: ${s}`);
add('Authorization: Basic', Buffer.from(`alice:${mixed(12)}`).toString('base64'), (s) => `Authorization: Basic ${s}`);
add('curl -u user:pass', 'Pa55word!', (s) => `curl -u admin:${s} https://api.example.com/v1`);
add('curl --user user:pass', 'qwerty123', (s) => `curl --user deploy:${s} https://ci.example.com`);
add('mysql -pPASS', 'S3cretPw', (s) => `mysql -h db -u root -p${s} shop`);
add('sshpass -p', 'rootpw99', (s) => `sshpass -p ${s} ssh root@10.0.0.5`);
add('sshpass -p quoted', 'my pw', (s) => `sshpass -p '${s}' scp a b`);
add('aws sts JSON SecretAccessKey', awsSecret(), (s) => `"SecretAccessKey": "${s}",`);
add('aws sts JSON SessionToken', sessionToken, (s) => `"SessionToken": "${s}",`);
add(
  'aws sts text output secret',
  awsSecret(),
  (s) => `CREDENTIALS\t${awsId('ASIA')}\t2026-12-01T00:00:00Z\t${s}\tFwoGZXIvYXdzEXAMPLE`,
);
add('aws session token alone', sessionToken, (s) => `token: ${s}`);
add('aws configure file secret', awsSecret(), (s) => `aws_secret_access_key = ${s}`);
add('aws access key id', awsId(), (s) => `aws_access_key_id = ${s}`);
add('aws temporary key id', awsId('ASIA'), (s) => `"AccessKeyId": "${s}"`);
add(
  'Slack xapp- token',
  `xapp-1-A${random(UPPER + DIGITS, 10)}-${random(DIGITS, 13)}-${random(HEX, 64)}`,
  (s) => `SLACK_APP_TOKEN=${s}`,
);
add(
  'Slack webhook URL',
  `T${random(UPPER + DIGITS, 8)}/B${random(UPPER + DIGITS, 8)}/${random(ALNUM, 24)}`,
  (s) => `curl -X POST https://hooks.slack.com/services/${s} -d '{}'`,
);
add(
  'Slack bot token',
  `xoxb-${random(DIGITS, 12)}-${random(DIGITS, 13)}-${random(ALNUM, 24)}`,
  (s) => `bot = WebClient(token="${s}")`,
);
add('Stripe whsec_', `whsec_${random(ALNUM, 32)}`, (s) => `STRIPE_WEBHOOK_SECRET=${s}`);
add('Stripe whsec_ in code', `whsec_${random(ALNUM, 32)}`, (s) => `const endpointSecret = '${s}';`);
add('Stripe live key', `sk_live_${random(ALNUM, 24)}`, (s) => `stripe.api_key = "${s}"`);
add('Stripe restricted key', `rk_live_${random(ALNUM, 24)}`, (s) => `key: ${s}`);
add('Google GOCSPX- client secret', `GOCSPX-${random(URLSAFE, 28)}`, (s) => `"client_secret":"${s}"`);
add('Google GOCSPX- bare', `GOCSPX-${random(URLSAFE, 28)}`, (s) => `secret is ${s} now`);
add('Google API key', `AIza${random(URLSAFE, 35)}`, (s) => `maps?key=${s}`);
add('Google OAuth access token', `ya29.${random(URLSAFE, 60)}`, (s) => `access ${s}`);
add('GitLab glpat-', `glpat-${random(URLSAFE, 20)}`, (s) => `git clone https://oauth2:${s}@gitlab.com/g/p.git`);
add('GitLab glpat- bare', `glpat-${random(URLSAFE, 20)}`, (s) => `export GL=${s}`);
add(
  'GitLab Private-Token header',
  mixed(20),
  (s) => `curl --header "PRIVATE-TOKEN: ${s}" https://gitlab.example.com/api/v4/projects`,
);
add(
  'Azure AccountKey',
  `${random(B64, 86)}==`,
  (s) => `DefaultEndpointsProtocol=https;AccountName=store1;AccountKey=${s};EndpointSuffix=core.windows.net`,
);
add('Azure AD client secret', `abc8Q~${random(`${ALNUM}_~.-`, 34)}`, (s) => `AZURE_CLIENT_SECRET=${s}`);
add(
  'PGP private key block',
  `lQdGBGN${random(B64, 200)}\n=${random(B64, 4)}`,
  (s) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${s}\n-----END PGP PRIVATE KEY BLOCK-----`,
);
add(
  'OpenSSH private key',
  `b3BlbnNzaC1rZXktdjEAAAAA${random(B64, 200)}`,
  (s) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${s}\n-----END OPENSSH PRIVATE KEY-----`,
);
add('npm _authToken', `npm_${random(ALNUM, 36)}`, (s) => `//registry.npmjs.org/:_authToken=${s}`);
add('npm _authToken, opaque value', mixed(36), (s) => `//npm.pkg.github.com/:_authToken=${s}`);
add('npm legacy _auth', Buffer.from(`me:${mixed(10)}`).toString('base64'), (s) => `_auth=${s}`);
// More kinds, in more places.
add('Anthropic key (issue repro)', `sk-ant-api03-${random(URLSAFE, 93)}AA`, (s) => `deploy fails. my key is ${s}`);
add('OpenAI project key', `sk-proj-${random(URLSAFE, 120)}`, (s) => `OPENAI_API_KEY="${s}"`);
add(
  'GitHub fine-grained PAT',
  `github_pat_${random(ALNUM, 22)}_${random(ALNUM, 59)}`,
  (s) => `gh auth login --with-token <<< ${s}`,
);
add('GitHub app token', `ghs_${random(ALNUM, 36)}`, (s) => `Authorization: token ${s}`);
add('Bearer header', random(URLSAFE, 40), (s) => `-H 'Authorization: Bearer ${s}'`);
add('JWT', `eyJ${random(URLSAFE, 30)}.eyJ${random(URLSAFE, 60)}.${random(URLSAFE, 43)}`, (s) => `Cookie: session=${s}`);
add('JSON password', 'correct horse battery staple', (s) => `{"username": "alice", "password": "${s}"}`);
add('Python kwarg password literal', 'P@ssw0rd2024', (s) => `conn = psycopg2.connect(host="db", password="${s}")`);
add('properties file password', 'spring-s3cret', (s) => `spring.datasource.password=${s}`);
add('--password=', 'f00bar!!', (s) => `mysqldump --user=root --password=${s} shop > dump.sql`);
add('--token value', mixed(30), (s) => `vault login --token ${s}`);
add('docker login --password', mixed(20), (s) => `docker login --username bob --password ${s} registry.example.com`);
add('PGPASSWORD env prefix', 'pgpw-7788', (s) => `PGPASSWORD=${s} psql -h db -U app`);
add('Go struct literal secret', mixed(32), (s) => `cfg := Config{ClientSecret: "${s}"}`);
add('PHP array password', 'ph-secret-9', (s) => `'password' => '${s}',`);
add('TOML api_key', mixed(32), (s) => `api_key = "${s}"`);
add('SendGrid key', `SG.${random(URLSAFE, 22)}.${random(URLSAFE, 43)}`, (s) => `SENDGRID=${s}`);
add('DigitalOcean token', `dop_v1_${random(HEX, 64)}`, (s) => `doctl auth init -t ${s}`);
add('Shopify token', `shpat_${random(HEX, 32)}`, (s) => `X-Shopify-Access-Token: ${s}`);
add('Databricks token', `dapi${random(HEX, 32)}`, (s) => `host: x, pat ${s}`);
add('Vault token', `hvs.${random(URLSAFE, 90)}`, (s) => `VAULT_TOKEN=${s}`);
add('Twilio key', `SK${random(HEX, 32)}`, (s) => `twilio key ${s}`);
add('Telegram bot token', `${random(DIGITS, 9)}:AA${random(URLSAFE, 33)}`, (s) => `bot = Bot("${s}")`);
add('Discord webhook', `${random(DIGITS, 18)}/${random(URLSAFE, 68)}`, (s) => `https://discord.com/api/webhooks/${s}`);
add('Docker Hub PAT', `dckr_pat_${random(URLSAFE, 27)}`, (s) => `echo ${s} | docker login -u bob --password-stdin`);
add('PyPI token', `pypi-AgEIcHlwaS5vcmc${random(URLSAFE, 60)}`, (s) => `twine upload -p ${s} dist/*`);
add('age secret key', `AGE-SECRET-KEY-1${random(UPPER + DIGITS, 58)}`, (s) => `# ${s}`);
add('Grafana service account token', `glsa_${random(ALNUM, 32)}_${random(HEX, 8)}`, (s) => `GF_TOKEN=${s}`);
add('Linear key', `lin_api_${random(ALNUM, 40)}`, (s) => `linear = LinearClient("${s}")`);
add('Sentry token', `sntrys_${random(B64, 60)}`, (s) => `SENTRY_AUTH_TOKEN=${s}`);
add('Groq key', `gsk_${random(ALNUM, 52)}`, (s) => `client = Groq(api_key=${s})`);
add('Hugging Face token in Python', `hf_${random(UPPER + LOWER, 34)}`, (s) => `login(token="${s}")`);
add(
  'RSA private key',
  `MIIEpAIBAAKCAQEA${random(B64, 300)}`,
  (s) => `-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----`,
);
// Issue 20 item 7: formats and places that leaked.
add('.netrc password, one line', mixed(16), (s) => `machine api.github.com login alice password ${s}`);
add(
  '.netrc password, several lines',
  mixed(20),
  (s) => `machine gitlab.example.com\n  login deploy\n  password ${s}\n`,
);
add(
  'Docker config.json auth',
  Buffer.from(`bob:${mixed(14)}`).toString('base64'),
  (s) => `{"auths": {"https://index.docker.io/v1/": {"auth": "${s}"}}}`,
);
add(
  'kubeconfig client-key-data (base64 PEM)',
  Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\nMIIEow${random(B64, 200)}\n-----END RSA PRIVATE KEY-----\n`).toString(
    'base64',
  ),
  (s) => `users:\n- name: admin\n  user:\n    client-key-data: ${s}`,
);
add(
  'Kubernetes secret, base64 PEM (EC)',
  Buffer.from(`-----BEGIN EC PRIVATE KEY-----\nMHcC${random(B64, 120)}\n-----END EC PRIVATE KEY-----\n`).toString(
    'base64',
  ),
  (s) => `data:\n  tls.key: ${s}`,
);
add(
  'Azure SAS sig=',
  `${random(B64, 43)}%3D`,
  (s) =>
    `https://acct.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&spr=https&sig=${s}`,
);
add(
  'Azure SAS in a connection string',
  `${random(B64, 43)}%3D`,
  (s) => `BlobEndpoint=https://acct.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sp=rl&sig=${s}`,
);
add('Azure DevOps *_PAT=', random(LOWER + DIGITS, 52), (s) => `AZURE_DEVOPS_EXT_PAT=${s}`);
add('ADO_PAT in YAML', random(LOWER + DIGITS, 52), (s) => `  ADO_PAT: ${s}`);
add('redis-cli -a', mixed(18), (s) => `redis-cli -h cache.internal -p 6379 -a ${s} ping`);
add('redis-cli --pass', mixed(18), (s) => `redis-cli --pass ${s} -n 2 keys '*'`);
add(
  'Cookie header',
  random(URLSAFE, 32),
  (s) => `curl -H 'Cookie: sessionid=${s}; theme=dark' https://app.example.com/api`,
);
add('Set-Cookie in curl output', random(HEX, 40), (s) => `< Set-Cookie: connect.sid=s%3A${s}; Path=/; HttpOnly`);
add(
  'Vault legacy s. token',
  `s.${random(UPPER, 4)}${random(LOWER, 4)}${random(DIGITS, 2)}${random(ALNUM, 14)}`,
  (s) => `the root token was ${s} before the upgrade`,
);
add('Shopify shpat_ in prose', `shpat_${random(HEX, 32)}`, (s) => `use ${s} for the admin API`);
add(
  'Mailchimp key',
  `${random(HEX, 32)}-us${random(DIGITS, 2)}`,
  (s) => `mailchimp.setConfig({ apiKey: process.env.X || "${s}" })`,
);
add('Mailchimp key in prose', `${random(HEX, 32)}-us${random(DIGITS, 1)}`, (s) => `the list key is ${s}`);
add('.pgpass line', mixed(16), (s) => `db.example.com:5432:prod:app:${s}`);
add('.pgpass wildcard line', mixed(16), (s) => `*:*:*:postgres:${s}`);
add(
  'PuTTY Private-Lines',
  `AAAAI${random(B64, 39)}\n${random(B64, 64)}`,
  (s) =>
    `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20260101\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIPublicKeyOnly0000000000000000000\nAAAA\nPrivate-Lines: 2\n${s}\nPrivate-MAC: ${random(HEX, 64)}`,
);
add(
  'URL password starting with digits, holding /',
  `${random(DIGITS, 4)}/${random(ALNUM, 8)}`,
  (s) => `DATABASE_URL_RO=postgres://reader:${s}@db.internal.example.com:5432/app`,
);
add(
  'URL password starting with digits, holding /, in prose',
  `${random(DIGITS, 3)}/${random(ALNUM, 6)}`,
  (s) => `connect with mongodb://admin:${s}@mongo.example.com/admin please`,
);

/** Ordinary lines; every one must come out unchanged. */
const ORDINARY = [
  // The issue's false positives.
  'const passwordLabel = "Enter your password"',
  '"password_placeholder": "Your password (at least 12 characters)",',
  'API_KEY_ENV = "OPENVIKING_API_KEY"',
  'privateKeyPath = "~/.ssh/id_ed25519"',
  'secretName: "db-credentials"',
  // More names that hold no secret.
  'const tokenizer = new Tokenizer("cl100k_base");',
  'max_tokens: 4096',
  '"max_tokens": "4096",',
  'PASSWORD_MIN_LENGTH=12',
  'AUTH_TOKEN_TTL_SECONDS=3600',
  'TOKEN_URL=https://oauth2.googleapis.com/token',
  'const passwordHash = await bcrypt.hash(password, 12);',
  'def check_password(self, password): return verify(self.password_hash, password)',
  'conn = connect(host=host, user=user, password=password)',
  'client = Client(api_key=api_key, timeout=30)',
  'const token = await getToken(); const apiKey = config.apiKey;',
  'token := r.Header.Get("Authorization")',
  'password: string;',
  'export interface Credentials { apiKey?: string; token?: string }',
  '  token: AccessToken',
  'if (!secret) throw new Error("missing secret")',
  'secretKeyRef:',
  '  name: db-secret',
  'PASSWORD=${DB_PASSWORD}',
  'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
  'api_key = os.environ["OPENAI_API_KEY"]',
  'password = getpass.getpass("Password: ")',
  'const primaryKey = "id";',
  'sortKey: "createdAt"',
  'cacheKey = f"user:{user_id}"',
  'keyboard = "dvorak"',
  'const isSecretVisible = false;',
  '"tokenCount": 1234,',
  'if (passwordInput.value.length < 8) showError("too short")',
  'Question about the password: how do I reset it for a user?',
  'the token: it expires after an hour',
  // Commands and URLs that look close to credentials.
  'git push -u origin main',
  'docker run -u 1000:1000 -p 8080:80 nginx',
  'mysql -u root -p shop',
  'curl http://localhost:8080/api/v1/health',
  'git checkout feature/sk-learn-upgrade-for-the-new-pipeline',
  'npm i scikit-learn risk-assessment-for-the-quarterly-review',
  'see https://npmjs.com/package/@scope/name and user@example.com',
  'The Authorization header carries a Bearer token.',
  'Basic authentication is disabled on this server.',
  'commit 3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345',
  'sha256:9b2c0f8e7d6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c',
  // Issue 20 item 7: lines that were mangled.
  'docker run --rm -v $PWD:/app -w /app node:20 npm test',
  'docker run -v ${PWD}:/src -e TOKEN_FILE=/run/secrets/t image',
  '    password: Optional[str] = None',
  '    api_token: Optional[SecretStr] = None',
  '    token: str | None = None',
  'interface Config { apiKey: string; }',
  'type Creds = { password: string; token: string }',
  '    secret: Mapping[str, str] = field(default_factory=dict)',
  // Close to the new rules, and not secrets.
  'pat = re.compile(r"^v\\d+$")',
  'The machine learning pipeline needs a password reset flow.',
  'curl -s https://registry.npmjs.org:443/@types/node',
  'see http://localhost:8080/users/@alice for the profile',
  'Cookie: a small pastry, and the Cookie header explained',
  'Set `"auth": true` in the options',
  'root:x:0:0:root:/root:/bin/bash',
  'it is 12:30:45 now',
  'the shop uses s.abcdefghijklmnopqrstuvwx as a key path',
];

describe('secret corpus: each one is redacted', () => {
  it('the corpus is as large as promised', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(60);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(40);
  });

  it.each(SECRETS)('%s', (_label, text, secret) => {
    const redacted = redactSecrets(text);
    expect(redacted).toContain('[REDACTED:');
    expect(redacted).not.toContain(secret);
    // The same through the full outbound filter, which queue replay applies again: filtering twice changes nothing.
    const once = sanitizeText(text);
    expect(once).not.toContain(secret);
    expect(sanitizeText(once)).toBe(once);
  });
});

describe('secret corpus: ordinary code is left alone', () => {
  it.each(ORDINARY)('%s', (line) => {
    expect(redactSecrets(line)).toBe(line);
  });
});
