/**
 * Token formats of services: chat and docs, mail, monitoring, secrets
 * managers, deploy and database platforms (AI providers, clouds and code hosting are in
 * secretRules.ts; provenance and constraints in secretRuleSpec.ts).
 *
 * @module
 */
import { TOKEN_START as B, type TokenRuleSpec } from './secretRuleSpec.js';

export const SERVICE_TOKEN_RULES: readonly TokenRuleSpec[] = [
  // Chat and docs, mail, monitoring, secrets managers.
  {
    id: 'slack-token',
    upstream: [
      'slack-bot-token',
      'slack-user-token',
      'slack-legacy-token',
      'slack-legacy-bot-token',
      'slack-legacy-workspace-token',
      'slack-config-access-token',
      'slack-config-refresh-token',
    ],
    kind: 'slack-token',
    keywords: ['xox'],
    source: String.raw`(?<![A-Za-z0-9-])xox[abposre]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`,
  },
  {
    id: 'slack-app-token',
    upstream: ['slack-app-token'],
    kind: 'slack-token',
    keywords: ['xapp-'],
    source: String.raw`(?<![A-Za-z0-9-])xapp-[0-9]-[A-Za-z0-9-]{10}[A-Za-z0-9-]*`,
  },
  {
    id: 'slack-webhook',
    upstream: ['slack-webhook-url'],
    kind: 'slack-webhook',
    keywords: ['hooks.slack.com'],
    source: String.raw`(hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/+-]{8}[A-Za-z0-9_/+-]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    id: 'discord-webhook',
    kind: 'discord-webhook',
    keywords: ['/api/webhooks/'],
    source: String.raw`(discord(?:app)?\.com/api/webhooks/)[0-9]{5,30}/[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    // Microsoft Teams incoming webhooks: the path after `webhookb2/` is the credential.
    id: 'teams-webhook',
    upstream: ['microsoft-teams-webhook'],
    kind: 'teams-webhook',
    keywords: ['webhook.office.com'],
    source: String.raw`(\.webhook\.office\.com/webhookb2/)[A-Za-z0-9@/-]{20}[A-Za-z0-9@/-]*`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    id: 'notion-token',
    upstream: ['notion-api-token'],
    kind: 'notion-token',
    keywords: ['ntn_'],
    source: String.raw`${B}ntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])`,
  },
  {
    id: 'telegram-bot-token',
    upstream: ['telegram-bot-api-token'],
    kind: 'telegram-bot-token',
    keywords: [':aa'],
    source: String.raw`(?<![A-Za-z0-9_:-])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])`,
  },
  {
    id: 'sendgrid-key',
    upstream: ['sendgrid-api-token'],
    kind: 'sendgrid-key',
    keywords: ['sg.'],
    source: String.raw`(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{40,50}`,
  },
  {
    id: 'mailgun-key',
    upstream: ['mailgun-private-api-token'],
    kind: 'mailgun-key',
    keywords: ['key-'],
    source: String.raw`${B}key-[a-f0-9]{32}(?![A-Za-z0-9])`,
  },
  {
    id: 'mailchimp-key',
    upstream: ['mailchimp-api-key'],
    kind: 'mailchimp-key',
    keywords: ['-us'],
    source: String.raw`(?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9])`,
  },
  {
    id: 'twilio-key',
    upstream: ['twilio-api-key'],
    kind: 'twilio-key',
    keywords: ['sk'],
    source: String.raw`(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])`,
  },
  {
    id: 'sentry-token',
    upstream: ['sentry-org-token', 'sentry-user-token'],
    kind: 'sentry-token',
    keywords: ['sntrys_', 'sntryu_', 'sntrus_'],
    source: String.raw`${B}sntr(?:ys|yu|us)_[A-Za-z0-9+/=_-]{30}[A-Za-z0-9+/=_-]*`,
  },
  {
    id: 'grafana-token',
    upstream: ['grafana-service-account-token', 'grafana-cloud-api-token'],
    kind: 'grafana-token',
    keywords: ['glsa_', 'glc_'],
    source: String.raw`${B}(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32}[A-Za-z0-9+/]*={0,2})`,
  },
  {
    id: 'newrelic-user-key',
    upstream: ['new-relic-user-api-key'],
    kind: 'newrelic-key',
    keywords: ['nrak-'],
    source: String.raw`NRAK-[A-Z0-9]{27}`,
  },
  {
    // New Relic insert keys and browser keys (the user key `NRAK-` is the rule above).
    id: 'newrelic-insert-key',
    upstream: ['new-relic-insert-key', 'new-relic-browser-api-token'],
    kind: 'newrelic-key',
    keywords: ['nrii-', 'nrjs-'],
    source: String.raw`${B}NR(?:II-[A-Za-z0-9-]{32}|JS-[a-f0-9]{19})(?![A-Za-z0-9-])`,
  },
  {
    id: 'vault-token',
    upstream: ['vault-service-token', 'vault-batch-token'],
    kind: 'vault-token',
    keywords: ['hvs.', 'hvb.'],
    source: String.raw`(?<![A-Za-z0-9_.-])hv[sb]\.[A-Za-z0-9_-]{24}[A-Za-z0-9_-]*`,
  },
  {
    // Vault's legacy service tokens: `s.` and 24 base62 characters (mixed case and a digit: not a word after `s.`).
    id: 'vault-legacy-token',
    upstream: ['vault-service-token'],
    kind: 'vault-token',
    keywords: ['s.'],
    source: String.raw`(?<![A-Za-z0-9_.-])s\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])`,
    keep: (match) => !(/[A-Z]/.test(match) && /[a-z]/.test(match.slice(2)) && /[0-9]/.test(match)),
  },
  {
    id: 'doppler-token',
    upstream: ['doppler-api-token'],
    kind: 'doppler-token',
    keywords: ['dp.'],
    source: String.raw`(?<![A-Za-z0-9_.-])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_]{40,44}`,
    flags: 'i',
  },
  {
    id: '1password-token',
    upstream: ['1password-service-account-token'],
    kind: '1password-token',
    keywords: ['ops_eyj'],
    source: String.raw`ops_eyJ[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3}`,
  },
  {
    id: 'age-secret-key',
    upstream: ['age-secret-key'],
    kind: 'age-secret-key',
    keywords: ['age-secret-key-1'],
    source: String.raw`AGE-SECRET-KEY-1[0-9A-Z]{58}`,
  },
  // Deploy and database platforms.
  {
    id: 'flyio-token',
    upstream: ['flyio-access-token'],
    kind: 'flyio-token',
    keywords: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'],
    source: String.raw`${B}(?:fo1_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100}[A-Za-z0-9+/]*={0,3})`,
  },
  {
    id: 'heroku-key',
    upstream: ['heroku-api-key-v2'],
    kind: 'heroku-key',
    keywords: ['hrku-aa'],
    source: String.raw`${B}HRKU-AA[A-Za-z0-9_-]{58}(?![A-Za-z0-9_-])`,
  },
  {
    id: 'planetscale-token',
    upstream: ['planetscale-api-token', 'planetscale-oauth-token', 'planetscale-password'],
    kind: 'planetscale-token',
    keywords: ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'],
    source: String.raw`${B}pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32}[A-Za-z0-9_=.-]*`,
  },
  {
    // Grafana's legacy API keys: base64 JSON `{"k":"…`, no dots (a JWT has two).
    id: 'grafana-legacy-key',
    upstream: ['grafana-api-key'],
    kind: 'grafana-token',
    keywords: ['eyjrijoi'],
    source: String.raw`${B}eyJrIjoi[A-Za-z0-9]{70}[A-Za-z0-9]*={0,3}(?![.])`,
  },
  {
    id: 'dynatrace-token',
    upstream: ['dynatrace-api-token'],
    kind: 'dynatrace-token',
    keywords: ['dt0c01.'],
    source: String.raw`${B}dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}(?![A-Za-z0-9])`,
  },
  {
    id: 'brevo-key',
    upstream: ['sendinblue-api-token'],
    kind: 'brevo-key',
    keywords: ['xkeysib-'],
    source: String.raw`${B}xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![A-Za-z0-9])`,
  },
  {
    id: 'clickhouse-cloud-key',
    upstream: ['clickhouse-cloud-api-secret-key'],
    kind: 'clickhouse-key',
    keywords: ['4b1d'],
    source: String.raw`${B}4b1d[A-Za-z0-9]{38}(?![A-Za-z0-9])`,
  },
  {
    id: 'maxmind-license-key',
    upstream: ['maxmind-license-key'],
    kind: 'maxmind-key',
    keywords: ['_mmk'],
    source: String.raw`${B}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk(?![A-Za-z0-9])`,
  },
];
