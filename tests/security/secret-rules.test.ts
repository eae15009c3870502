/**
 * Every token rule (src/transcript/*SecretRules.ts, secretRules.ts; issue 41
 * item 4) with a positive and a near miss, and the rule that fires named.
 * The corpus (secret-corpus.test.ts) asserts that each secret is redacted,
 * not by which rule, so a broken rule could hide behind the name-based pass
 * (`GITHUB_TOKEN=…` is redacted by its name alone). Here each rule alone
 * must redact its positive under its own kind, the whole filter must give
 * exactly that (no other rule and no name took it), and its near miss (one
 * character short, a wrong prefix, the safe shape the rule keeps) must come
 * out of both unchanged. A rule without an entry below fails the first test.
 *
 * Values are made at run time from a fixed seed (tests/support/secret-parts.ts).
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { redactionMarker } from '../../src/transcript/redactionMarker.js';
import { applyTokenRule, redactSecrets, SECRET_RULES } from '../../src/transcript/secrets.js';
import { ALNUM, B64, DIGITS, HEX, LOWER, secretParts, UPPER, URLSAFE } from '../support/secret-parts.js';

const { random: r, mixed } = secretParts(0x41);
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const uuid = (): string => `${r(HEX, 8)}-${r(HEX, 4)}-${r(HEX, 4)}-${r(HEX, 4)}-${r(HEX, 12)}`;

interface RuleCase {
  /** Text holding the secrets. */
  text: string;
  /** What must not survive the redaction. */
  secrets: string[];
  /** Text close to the rule that is no secret: left alone. */
  near: string;
}

/** `text` with `secret` in it; `near` is the near miss. */
const one = (secret: string, text: (s: string) => string, near: string): RuleCase => ({
  text: text(secret),
  secrets: [secret],
  near,
});
const prose = (s: string): string => `it worked with ${s} on the first run`;

const awsSecret = `${mixed(20)}/${r(B64, 19)}`;
const bedrockLong = `ABSK${r(B64, 132)}`;
const bedrockShort = `bedrock-api-key-${b64('bedrock.amazonaws.com')}${r(B64, 180)}`;
const fm2 = `fm2_${r(B64, 120)}`;

/** By rule id. */
const CASES: Record<string, RuleCase> = {
  'anthropic-key': one(`sk-ant-api03-${r(URLSAFE, 93)}AA`, prose, prose(`sk-ant-${r(ALNUM, 12)}`)),
  'openrouter-key': one(`sk-or-v1-${r(HEX, 64)}`, prose, prose(`sk-or-v1-${r(HEX, 63)}`)),
  'openai-key': one(`sk-proj-${r(URLSAFE, 100)}`, prose, prose(`sk-${r(ALNUM, 12)}`)),
  'groq-key': one(`gsk_${r(ALNUM, 52)}`, prose, prose(`gsk_${r(ALNUM, 20)}`)),
  'xai-key': one(`xai-${r(ALNUM, 80)}`, prose, prose(`xai-${r(ALNUM, 30)}`)),
  'perplexity-key': one(`pplx-${r(ALNUM, 48)}`, prose, prose(`pplx-${r(ALNUM, 20)}`)),
  'replicate-token': one(`r8_${r(ALNUM, 37)}`, prose, prose(`r8_${r(ALNUM, 38)}`)),
  'huggingface-token': one(`hf_${r(UPPER + LOWER, 34)}`, prose, prose(`hf_${r(ALNUM, 10)}`)),
  'huggingface-org-token': one(`api_org_${r(UPPER + LOWER, 34)}`, prose, prose(`api_org_${r(LOWER, 20)}`)),
  'langsmith-key': one(`lsv2_pt_${r(HEX, 32)}_${r(HEX, 10)}`, prose, prose(`lsv2_pt_${r(HEX, 32)}_${r(HEX, 9)}`)),
  'aws-bedrock-key': {
    text: `the Bedrock key is ${bedrockLong} or, for a day, ${bedrockShort} here`,
    secrets: [bedrockLong, bedrockShort],
    near: prose(`ABSK${r(ALNUM, 40)}`),
  },
  'stripe-key': one(`sk_live_${r(ALNUM, 24)}`, prose, prose(`sk_live_${r(ALNUM, 5)}`)),
  'stripe-webhook-secret': one(`whsec_${r(ALNUM, 32)}`, prose, prose(`whsec_${r(ALNUM, 8)}`)),
  'square-token': one(`sq0atp-${r(URLSAFE, 22)}`, prose, prose(`sq0atp-${r(URLSAFE, 10)}`)),
  'aws-access-key': one(`AKIA${r(UPPER + DIGITS, 16)}`, prose, prose(`AKIA${r(UPPER + DIGITS, 15)}`)),
  'aws-session-token': one(`IQoJb3JpZ2lu${r(B64, 300)}`, prose, prose(`IQoJb3JpZ2lu${r(ALNUM, 10)}`)),
  'aws-secret-key-named': one(
    awsSecret,
    (s) => `aws_secret_access_key = ${s}`,
    `aws_secret_access_key = $${'{'}AWS_SECRET_ACCESS_KEY}`,
  ),
  'alibaba-access-key': one(`LTAI${r(ALNUM, 20)}`, prose, prose(`LTAI${r(ALNUM, 19)}`)),
  'google-api-key': one(`AIza${r(URLSAFE, 35)}`, prose, prose(`AIza${r(URLSAFE, 20)}`)),
  'google-oauth-secret': one(`GOCSPX-${r(URLSAFE, 28)}`, prose, prose(`GOCSPX-${r(URLSAFE, 10)}`)),
  'google-oauth-token': one(`ya29.${r(URLSAFE, 60)}`, prose, prose(`ya29.${r(URLSAFE, 10)}`)),
  'google-refresh-token': one(`1//0${r(URLSAFE, 60)}`, prose, prose(`1//0${r(URLSAFE, 10)}`)),
  'azure-client-secret': one(`abc8Q~${r(`${ALNUM}_~.-`, 34)}`, prose, prose(`abc8Q~${r(ALNUM, 20)}`)),
  'digitalocean-token': one(`dop_v1_${r(HEX, 64)}`, prose, prose(`dop_v1_${r(HEX, 20)}`)),
  'vercel-token': one(`vcp_${r(ALNUM, 56)}`, prose, prose(`vcp_${r(ALNUM, 23)}`)),
  'databricks-token': one(`dapi${r(HEX, 32)}`, prose, prose(`dapi${r(HEX, 31)}`)),
  'supabase-token': one(`sbp_${r(HEX, 40)}`, prose, prose(`sbp_${r(HEX, 20)}`)),
  'openshift-token': one(`sha256~${r(URLSAFE, 43)}`, prose, prose(`sha256~${r(URLSAFE, 42)}`)),
  'cloudflare-origin-ca-key': one(
    `v1.0-${r(HEX, 24)}-${r(HEX, 146)}`,
    prose,
    prose(`v1.0-${r(HEX, 24)}-${r(HEX, 20)}`),
  ),
  'pulumi-token': one(`pul-${r(HEX, 40)}`, prose, prose(`pul-${r(HEX, 39)}`)),
  'sonarqube-token': one(`squ_${r(HEX, 40)}`, prose, prose(`squ_${r(HEX, 39)}`)),
  'harness-token': one(
    `pat.${r(URLSAFE, 22)}.${r(ALNUM, 24)}.${r(ALNUM, 20)}`,
    prose,
    'the regex pat.test(line) returns a boolean',
  ),
  'infracost-token': one(`ico-${r(ALNUM, 32)}`, prose, prose(`ico-${r(ALNUM, 31)}`)),
  'prefect-token': one(`pnu_${r(ALNUM, 36)}`, prose, prose(`pnu_${r(ALNUM, 35)}`)),
  'clojars-token': one(`CLOJARS_${r(LOWER + DIGITS, 60)}`, prose, prose(`CLOJARS_${r(LOWER + DIGITS, 59)}`)),
  'readme-token': one(`rdme_${r(LOWER + DIGITS, 70)}`, prose, prose(`rdme_${r(LOWER + DIGITS, 69)}`)),
  'github-token': one(`ghp_${r(ALNUM, 36)}`, prose, prose(`ghp_${r(ALNUM, 20)}`)),
  'github-fine-grained-pat': one(
    `github_pat_${r(ALNUM, 22)}_${r(ALNUM, 59)}`,
    prose,
    prose(`github_pat_${r(ALNUM, 10)}`),
  ),
  'gitlab-token': (() => {
    const routable = `glpat-${r(URLSAFE, 27)}.01${r(LOWER + DIGITS, 7)}`;
    const flags = `glffct-${r(URLSAFE, 20)}`;
    return {
      text: `clone with ${routable}; flags ${flags}`,
      secrets: [routable, flags],
      near: prose(`glpat-${r(URLSAFE, 10)}`),
    };
  })(),
  'gitlab-runner-registration-token': one(`GR1348941${r(URLSAFE, 20)}`, prose, prose(`GR1348941${r(URLSAFE, 10)}`)),
  'gitlab-session-cookie': one(
    r(LOWER + DIGITS, 32),
    (s) => `curl -b _gitlab_session=${s} the project page`,
    `curl -b _gitlab_session=${r(LOWER + DIGITS, 20)} the project page`,
  ),
  'sourcegraph-token': one(`sgp_${r(HEX, 16)}_${r(HEX, 40)}`, prose, prose(`sgp_${r(HEX, 20)}`)),
  'npm-token': one(`npm_${r(ALNUM, 36)}`, prose, prose(`npm_${r(ALNUM, 37)}`)),
  'pypi-token': one(
    `pypi-${'AgEIcHlwaS5vcmc'}${r(URLSAFE, 60)}`,
    prose,
    prose(`pypi-${'AgEIcHlwaS5vcmc'}${r(URLSAFE, 10)}`),
  ),
  'rubygems-token': one(`rubygems_${r(HEX, 48)}`, prose, prose(`rubygems_${r(HEX, 47)}`)),
  'artifactory-token': (() => {
    const [key, reference] = [`AKCp${r(ALNUM, 69)}`, `cmVmd${r(ALNUM, 59)}`];
    return {
      text: `jfrog ${key} and ${reference} work`,
      secrets: [key, reference],
      near: prose(`AKCp${r(ALNUM, 68)}`),
    };
  })(),
  'shopify-token': one(`shpat_${r(HEX, 32)}`, prose, prose(`shpat_${r(HEX, 31)}`)),
  'docker-token': one(`dckr_pat_${r(URLSAFE, 27)}`, prose, prose(`dckr_pat_${r(URLSAFE, 20)}`)),
  'atlassian-token': one(`ATATT3${r(`${ALNUM}_=-`, 186)}`, prose, prose(`ATATT3${r(ALNUM, 20)}`)),
  'linear-key': one(`lin_api_${r(ALNUM, 40)}`, prose, prose(`lin_api_${r(ALNUM, 20)}`)),
  'postman-key': one(`PMAK-${r(HEX, 24)}-${r(HEX, 34)}`, prose, prose(`PMAK-${r(HEX, 24)}-${r(HEX, 20)}`)),
  'terraform-token': one(
    `${r(LOWER + DIGITS, 14)}.atlasv1.${r(URLSAFE, 67)}`,
    prose,
    prose(`${r(LOWER + DIGITS, 14)}.atlasv1.${r(URLSAFE, 20)}`),
  ),
  'slack-token': one(`xoxb-${r(DIGITS, 12)}-${r(DIGITS, 13)}-${r(ALNUM, 24)}`, prose, prose(`xoxb-${r(DIGITS, 5)}`)),
  'slack-app-token': one(
    `xapp-1-A${r(UPPER + DIGITS, 10)}-${r(DIGITS, 13)}-${r(HEX, 64)}`,
    prose,
    prose(`xapp-1-${r(ALNUM, 5)}`),
  ),
  'slack-webhook': one(
    `T${r(UPPER + DIGITS, 8)}/B${r(UPPER + DIGITS, 8)}/${r(ALNUM, 24)}`,
    (s) => `POST https://hooks.slack.com/services/${s} with the payload`,
    'see https://hooks.slack.com/services/ for the docs',
  ),
  'discord-webhook': one(
    `${r(DIGITS, 18)}/${r(URLSAFE, 68)}`,
    (s) => `POST https://discord.com/api/webhooks/${s} now`,
    `POST https://discord.com/api/webhooks/${r(DIGITS, 18)}/${r(URLSAFE, 10)} now`,
  ),
  'teams-webhook': one(
    `${uuid()}@${uuid()}/IncomingWebhook/${r(HEX, 32)}/${uuid()}`,
    (s) => `POST https://acme.webhook.office.com/webhookb2/${s} with the card`,
    `POST https://acme.webhook.office.com/webhookb2/${r(HEX, 8)} with the card`,
  ),
  'notion-token': one(`ntn_${r(DIGITS, 11)}${r(ALNUM, 35)}`, prose, prose(`ntn_${r(DIGITS, 11)}${r(ALNUM, 20)}`)),
  'telegram-bot-token': one(`${r(DIGITS, 9)}:AA${r(URLSAFE, 33)}`, prose, prose(`${r(DIGITS, 9)}:AA${r(URLSAFE, 20)}`)),
  'sendgrid-key': one(`SG.${r(URLSAFE, 22)}.${r(URLSAFE, 43)}`, prose, prose(`SG.${r(URLSAFE, 22)}.${r(URLSAFE, 10)}`)),
  'mailgun-key': one(`key-${r(HEX, 32)}`, prose, prose(`key-${r(HEX, 31)}`)),
  'mailchimp-key': one(`${r(HEX, 32)}-us${r(DIGITS, 2)}`, prose, prose(`${r(HEX, 31)}-us12`)),
  'twilio-key': one(`SK${r(HEX, 32)}`, prose, prose(`SK${r(HEX, 31)}`)),
  'sentry-token': one(`sntrys_${r(B64, 60)}`, prose, prose(`sntrys_${r(ALNUM, 10)}`)),
  'grafana-token': (() => {
    const [service, cloud] = [`glsa_${r(ALNUM, 32)}_${r(HEX, 8)}`, `glc_${r(ALNUM, 40)}`];
    return {
      text: `grafana ${service} and ${cloud} work`,
      secrets: [service, cloud],
      near: prose(`glsa_${r(ALNUM, 10)}`),
    };
  })(),
  'newrelic-user-key': one(`NRAK-${r(UPPER + DIGITS, 27)}`, prose, prose(`NRAK-${r(UPPER + DIGITS, 10)}`)),
  'newrelic-insert-key': (() => {
    const [insert, browser] = [`NRII-${r(ALNUM, 32)}`, `NRJS-${r(HEX, 19)}`];
    return {
      text: `new relic ${insert} and ${browser} work`,
      secrets: [insert, browser],
      near: prose(`NRJS-${r(HEX, 18)}`),
    };
  })(),
  'grafana-legacy-key': one(`eyJrIjoi${r(ALNUM, 80)}==`, prose, prose(`eyJrIjoi${r(ALNUM, 69)}`)),
  'dynatrace-token': one(
    `dt0c01.${r(ALNUM, 24)}.${r(ALNUM, 64)}`,
    prose,
    prose(`dt0c01.${r(ALNUM, 24)}.${r(ALNUM, 63)}`),
  ),
  'brevo-key': one(`xkeysib-${r(HEX, 64)}-${r(ALNUM, 16)}`, prose, prose(`xkeysib-${r(HEX, 64)}-${r(ALNUM, 15)}`)),
  'clickhouse-cloud-key': one(`4b1d${r(ALNUM, 38)}`, prose, prose(`commit 4b1d${r(HEX, 36)} on main`)),
  'maxmind-license-key': one(`${r(ALNUM, 6)}_${r(ALNUM, 29)}_mmk`, prose, prose(`${r(ALNUM, 6)}_${r(ALNUM, 28)}_mmk`)),
  'vault-token': one(`hvs.${r(URLSAFE, 90)}`, prose, prose(`hvs.${r(URLSAFE, 10)}`)),
  'vault-legacy-token': one(
    `s.${r(UPPER, 4)}${r(LOWER, 4)}${r(DIGITS, 2)}${r(ALNUM, 14)}`,
    prose,
    'the shop uses s.abcdefghijklmnopqrstuvwx as a path',
  ),
  'doppler-token': one(`dp.pt.${r(`${ALNUM}_`, 43)}`, prose, prose(`dp.pt.${r(ALNUM, 20)}`)),
  '1password-token': one(`ops_eyJ${r(B64, 200)}`, prose, prose(`ops_eyJ${r(ALNUM, 50)}`)),
  'age-secret-key': one(
    `AGE-SECRET-KEY-1${r(UPPER + DIGITS, 58)}`,
    (s) => `# ${s}`,
    `# AGE-SECRET-KEY-1${r(UPPER + DIGITS, 50)}`,
  ),
  'flyio-token': (() => {
    const org = `fo1_${r(URLSAFE, 43)}`;
    return {
      text: `fly deploy with ${org} or ${fm2} works`,
      secrets: [org, fm2],
      near: prose(`fo1_${r(URLSAFE, 42)}`),
    };
  })(),
  'heroku-key': one(`HRKU-AA${r(URLSAFE, 58)}`, prose, prose(`HRKU-AA${r(URLSAFE, 57)}`)),
  'planetscale-token': one(`pscale_tkn_${r(ALNUM, 43)}`, prose, prose(`pscale_tkn_${r(ALNUM, 20)}`)),
  jwt: one(
    `eyJ${r(URLSAFE, 30)}.eyJ${r(URLSAFE, 60)}.${r(URLSAFE, 43)}`,
    prose,
    prose(`eyJ${r(URLSAFE, 30)}.${r(URLSAFE, 20)}`),
  ),
  'bearer-token': one(r(URLSAFE, 40), (s) => `send it as Bearer ${s} on each call`, 'send a Bearer token on each call'),
  authorization: one(
    b64(`alice:${mixed(12)}`),
    (s) => `curl -H 'Authorization: Basic ${s}' https://api.example.com`,
    "curl -H 'Authorization: Basic abc' https://api.example.com",
  ),
  'url-password': one(
    mixed(12),
    (s) => `psql postgres://app:${s}@db.example.com:5432/prod`,
    'see http://localhost:8080/users/@alice for the profile',
  ),
  'curl-user': one(mixed(12), (s) => `curl -u admin:${s} https://api.example.com/v1`, 'docker run -u 1000:1000 nginx'),
  'mysql-password': one(mixed(10), (s) => `mysql -h db -u root -p${s} shop`, 'mysql -h db -u root -p shop'),
  'sshpass-password': one(mixed(10), (s) => `sshpass -p ${s} ssh root@10.0.0.5`, 'sshpass -f ~/.pw ssh root@10.0.0.5'),
  'redis-cli-password': one(mixed(18), (s) => `redis-cli -h cache -a ${s} ping`, 'redis-cli -h cache -p 6379 ping'),
  'netrc-password': one(
    mixed(16),
    (s) => `machine api.github.com login alice password ${s}`,
    'The machine learning pipeline needs a password reset flow.',
  ),
  'pat-variable': one(r(LOWER + DIGITS, 52), (s) => `AZURE_DEVOPS_EXT_PAT=${s}`, 'AZURE_DEVOPS_EXT_PAT=short'),
  'pgpass-password': one(mixed(16), (s) => `db.example.com:5432:prod:app:${s}`, 'db.example.com:5432:prod:app'),
  'docker-config-auth': one(
    b64(`bob:${mixed(14)}`),
    (s) => `{"auths": {"https://index.docker.io/v1/": {"auth": "${s}"}}}`,
    'Set `"auth": true` in the options',
  ),
  cookie: one(
    r(URLSAFE, 32),
    (s) => `curl -H 'Cookie: sessionid=${s}; theme=dark' https://app.example.com`,
    'Cookie: a small pastry, and the Cookie header explained',
  ),
  'azure-sas': one(
    `${r(B64, 43)}%3D`,
    (s) => `https://acct.blob.core.windows.net/c/b.bak?sv=2022-11-02&sp=r&sig=${s}`,
    'https://acct.blob.core.windows.net/c/b.bak?sv=2022-11-02&sig=short',
  ),
  'putty-private-key': one(
    `AAAAI${r(B64, 39)}\n${r(B64, 64)}`,
    (s) =>
      `PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5\nPrivate-Lines: 2\n${s}\nPrivate-MAC: x`,
    'PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5\n',
  ),
  'base64-private-key': one(
    b64(`-----BEGIN RSA PRIVATE KEY-----\nMIIEow${r(B64, 200)}\n-----END RSA PRIVATE KEY-----\n`),
    (s) => `    client-key-data: ${s}`,
    `    client-certificate-data: ${b64(`-----BEGIN CERTIFICATE-----\nMIIC${r(B64, 60)}\n`)}`,
  ),
  'password-flag': one(mixed(30), (s) => `vault login --token ${s}`, 'vault login --token-file ./vault.txt'),
  'aws-secret-key-bare': one(awsSecret, (s) => `aws configure list shows ${s} here`, `aws s3 ls after ${r(HEX, 40)}`),
};

describe('every secret rule: its positive fires it, and only it; its near miss is left alone', () => {
  it('each rule has a case, and each case a rule', () => {
    expect(new Set(SECRET_RULES.map((rule) => rule.id)).size).toBe(SECRET_RULES.length);
    expect(Object.keys(CASES).sort()).toEqual(SECRET_RULES.map((rule) => rule.id).sort());
  });

  it.each(SECRET_RULES.map((rule) => [rule.id, rule] as const))('%s', (id, rule) => {
    const { text, secrets, near } = CASES[id] as RuleCase;
    const alone = applyTokenRule(text, rule);
    expect(alone).toContain(redactionMarker(rule.kind));
    for (const secret of secrets) {
      expect(text).toContain(secret);
      expect(alone).not.toContain(secret);
    }
    // The whole filter gives the same text: this rule fired, under its kind, and nothing else took it.
    expect(redactSecrets(text)).toBe(alone);
    expect(applyTokenRule(near, rule)).toBe(near);
    expect(redactSecrets(near)).toBe(near);
  });
});
