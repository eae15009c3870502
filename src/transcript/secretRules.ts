/**
 * Token formats with a vendor prefix or a fixed layout, as data: AI
 * providers, payments and clouds (code hosting and package registries are in
 * codeSecretRules.ts; chat, mail, monitoring, secrets managers and deploy
 * platforms in serviceSecretRules.ts).
 *
 * Upstream: gitleaks v8.30.1, `config/gitleaks.toml` (github.com/gitleaks/
 * gitleaks, tag 83d9cd68); each rule names the gitleaks rules it adapts
 * (`upstream`). How the rules were adapted and the two constraints every
 * pattern keeps (linear time, keyword gate) are in secretRuleSpec.ts;
 * credentials with no shape of their own (`DB_PASS=…`, YAML passwords) are
 * found by name instead (secretNames.ts).
 *
 * @module
 */
import { TOKEN_START as B, type TokenRuleSpec } from './secretRuleSpec.js';

export const TOKEN_RULES: readonly TokenRuleSpec[] = [
  // AI providers. Anthropic before OpenAI: both start with `sk-`.
  {
    id: 'anthropic-key',
    upstream: ['anthropic-api-key', 'anthropic-admin-api-key'],
    kind: 'anthropic-key',
    keywords: ['sk-ant-'],
    source: String.raw`${B}sk-ant-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  {
    // OpenRouter (not in gitleaks): `sk-or-v1-` and 64 hex; the OpenAI rule would not take it (`or-` breaks its run).
    id: 'openrouter-key',
    kind: 'openrouter-key',
    keywords: ['sk-or-v1-'],
    source: String.raw`${B}sk-or-v1-[a-f0-9]{64}(?![A-Za-z0-9])`,
  },
  {
    // `sk-proj-…`/`sk-svcacct-…` may hold `-` and `_`; a bare `sk-` key is one alphanumeric run (not `sk-learn-…`).
    id: 'openai-key',
    upstream: ['openai-api-key'],
    kind: 'openai-key',
    keywords: ['sk-'],
    source: String.raw`${B}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*|[A-Za-z0-9]{20}[A-Za-z0-9]*(?![A-Za-z0-9_-]))`,
  },
  { id: 'groq-key', kind: 'groq-key', keywords: ['gsk_'], source: String.raw`${B}gsk_[A-Za-z0-9]{40}[A-Za-z0-9]*` },
  { id: 'xai-key', kind: 'xai-key', keywords: ['xai-'], source: String.raw`${B}xai-[A-Za-z0-9]{60}[A-Za-z0-9]*` },
  {
    id: 'perplexity-key',
    upstream: ['perplexity-api-key'],
    kind: 'perplexity-key',
    keywords: ['pplx-'],
    source: String.raw`${B}pplx-[A-Za-z0-9]{40}[A-Za-z0-9]*`,
  },
  {
    id: 'replicate-token',
    kind: 'replicate-token',
    keywords: ['r8_'],
    source: String.raw`${B}r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])`,
  },
  {
    id: 'huggingface-token',
    upstream: ['huggingface-access-token'],
    kind: 'huggingface-token',
    keywords: ['hf_'],
    source: String.raw`${B}hf_[A-Za-z0-9]{30}[A-Za-z0-9]*`,
  },
  {
    id: 'huggingface-org-token',
    upstream: ['huggingface-organization-api-token'],
    kind: 'huggingface-token',
    keywords: ['api_org_'],
    source: String.raw`${B}api_org_[A-Za-z]{34}(?![A-Za-z0-9])`,
  },
  {
    // LangSmith (LangChain's tracing; not in gitleaks): `lsv2_pt_` personal, `lsv2_sk_` service keys.
    id: 'langsmith-key',
    kind: 'langsmith-key',
    keywords: ['lsv2_'],
    source: String.raw`${B}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}(?![A-Za-z0-9])`,
  },
  {
    // Amazon Bedrock API keys: long-lived `ABSK…` (base64), short-lived a presigned URL in base64 after a fixed head.
    id: 'aws-bedrock-key',
    upstream: ['aws-amazon-bedrock-api-key-long-lived', 'aws-amazon-bedrock-api-key-short-lived'],
    kind: 'aws-bedrock-key',
    keywords: ['absk', 'bedrock-api-key-'],
    source: String.raw`(?<![A-Za-z0-9+/-])(?:ABSK[A-Za-z0-9+/]{109}[A-Za-z0-9+/]*={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=]*)`,
  },
  // Payments.
  {
    id: 'stripe-key',
    upstream: ['stripe-access-token'],
    kind: 'stripe-key',
    keywords: ['_live_', '_test_', '_prod_'],
    source: String.raw`${B}[rsp]k_(?:live|test|prod)_[A-Za-z0-9]{10}[A-Za-z0-9]*`,
  },
  {
    id: 'stripe-webhook-secret',
    kind: 'stripe-webhook-secret',
    keywords: ['whsec_'],
    source: String.raw`${B}whsec_[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=]*`,
  },
  {
    id: 'square-token',
    upstream: ['square-access-token'],
    kind: 'square-token',
    keywords: ['sq0atp-', 'sq0csp-'],
    source: String.raw`${B}sq0(?:atp|csp)-[A-Za-z0-9_-]{22}[A-Za-z0-9_-]*`,
  },
  // Clouds.
  {
    id: 'aws-access-key',
    upstream: ['aws-access-token'],
    kind: 'aws-access-key',
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    source: String.raw`(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`,
  },
  {
    id: 'aws-session-token',
    kind: 'aws-session-token',
    keywords: ['iqojb3jpz2lu', 'fwogzxivyxdz', 'aqodyxdz'],
    source: String.raw`(?<![A-Za-z0-9+/])(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|AQoDYXdz)[A-Za-z0-9+/=]{20}[A-Za-z0-9+/=]*`,
  },
  {
    id: 'aws-secret-key-named',
    kind: 'aws-secret-key',
    keywords: ['aws_secret_access_key', 'secretaccesskey'],
    source: String.raw`((?:aws_secret_access_key|SecretAccessKey)["']?[ \t]{0,3}[:=][ \t]{0,3}["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`,
    flags: 'i',
    keepPrefix: true,
  },
  {
    id: 'alibaba-access-key',
    upstream: ['alibaba-access-key-id'],
    kind: 'alibaba-access-key',
    keywords: ['ltai'],
    source: String.raw`${B}LTAI[A-Za-z0-9]{20}(?![A-Za-z0-9])`,
  },
  {
    id: 'google-api-key',
    upstream: ['gcp-api-key'],
    kind: 'google-api-key',
    keywords: ['aiza'],
    source: String.raw`${B}AIza[A-Za-z0-9_-]{35}`,
  },
  {
    id: 'google-oauth-secret',
    kind: 'google-oauth-secret',
    keywords: ['gocspx-'],
    source: String.raw`${B}GOCSPX-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  {
    id: 'google-oauth-token',
    kind: 'google-oauth-token',
    keywords: ['ya29.'],
    source: String.raw`${B}ya29\.[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  {
    id: 'google-refresh-token',
    kind: 'google-refresh-token',
    keywords: ['1//0'],
    source: String.raw`(?<![A-Za-z0-9_/-])1//0[A-Za-z0-9_-]{30}[A-Za-z0-9_-]*`,
  },
  {
    id: 'azure-client-secret',
    upstream: ['azure-ad-client-secret'],
    kind: 'azure-client-secret',
    keywords: ['q~'],
    source: String.raw`(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
  },
  {
    id: 'digitalocean-token',
    upstream: ['digitalocean-access-token', 'digitalocean-pat', 'digitalocean-refresh-token'],
    kind: 'digitalocean-token',
    keywords: ['_v1_'],
    source: String.raw`${B}do[por]_v1_[a-f0-9]{64}`,
  },
  {
    // Vercel (not in gitleaks; its changelog names the prefixes: personal, integration, app access, app refresh, API key).
    id: 'vercel-token',
    kind: 'vercel-token',
    keywords: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
    source: String.raw`${B}vc[piark]_[A-Za-z0-9]{24}[A-Za-z0-9]*`,
  },
  {
    id: 'databricks-token',
    upstream: ['databricks-api-token'],
    kind: 'databricks-token',
    keywords: ['dapi'],
    source: String.raw`${B}dapi[a-f0-9]{32}(?:-[0-9])?(?![A-Za-z0-9])`,
  },
  { id: 'supabase-token', kind: 'supabase-token', keywords: ['sbp_'], source: String.raw`${B}sbp_[a-f0-9]{40}` },
  {
    id: 'openshift-token',
    upstream: ['openshift-user-token'],
    kind: 'openshift-token',
    keywords: ['sha256~'],
    source: String.raw`${B}sha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`,
  },
  {
    id: 'cloudflare-origin-ca-key',
    upstream: ['cloudflare-origin-ca-key'],
    kind: 'cloudflare-key',
    keywords: ['v1.0-'],
    source: String.raw`${B}v1\.0-[a-f0-9]{24}-[a-f0-9]{146}(?![A-Za-z0-9])`,
  },
  {
    id: 'pulumi-token',
    upstream: ['pulumi-api-token'],
    kind: 'pulumi-token',
    keywords: ['pul-'],
    source: String.raw`${B}pul-[a-f0-9]{40}(?![A-Za-z0-9])`,
  },
];
