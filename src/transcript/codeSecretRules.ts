/**
 * Token formats of code hosting and package registries: GitHub, GitLab,
 * Sourcegraph, npm, PyPI, RubyGems, Artifactory, Docker Hub, Atlassian,
 * Linear, Postman, Terraform Cloud (AI providers, payments and clouds are in
 * secretRules.ts; provenance and constraints in secretRuleSpec.ts).
 *
 * @module
 */
import { TOKEN_START as B, type TokenRuleSpec } from './secretRuleSpec.js';

export const CODE_TOKEN_RULES: readonly TokenRuleSpec[] = [
  {
    id: 'github-token',
    upstream: ['github-pat', 'github-oauth', 'github-app-token', 'github-refresh-token'],
    kind: 'github-token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    source: String.raw`${B}gh[pousr]_[A-Za-z0-9]{36}[A-Za-z0-9]*`,
  },
  {
    id: 'github-fine-grained-pat',
    upstream: ['github-fine-grained-pat'],
    kind: 'github-token',
    keywords: ['github_pat_'],
    source: String.raw`${B}github_pat_[A-Za-z0-9_]{22}[A-Za-z0-9_]*`,
  },
  {
    id: 'gitlab-token',
    upstream: [
      'gitlab-pat',
      'gitlab-pat-routable',
      'gitlab-ptt',
      'gitlab-deploy-token',
      'gitlab-runner-authentication-token',
      'gitlab-runner-authentication-token-routable',
      'gitlab-scim-token',
      'gitlab-cicd-job-token',
      'gitlab-feed-token',
      'gitlab-feature-flag-client-token',
      'gitlab-incoming-mail-token',
      'gitlab-oauth-app-secret',
      'gitlab-kubernetes-agent-token',
    ],
    kind: 'gitlab-token',
    keywords: [
      'glpat-',
      'glptt-',
      'gldt-',
      'glrt-',
      'glsoat-',
      'glcbt-',
      'glft-',
      'glffct-',
      'glimt-',
      'gloas-',
      'glagent-',
    ],
    // A routable token ends in `.<2 version><7 checksum>`, kept with it.
    source: String.raw`${B}gl(?:pat|ptt|dt|rt|soat|cbt|ft|ffct|imt|oas|agent)-[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*(?:\.[0-9a-z]{9}(?![A-Za-z0-9]))?`,
  },
  {
    id: 'gitlab-runner-registration-token',
    upstream: ['gitlab-rrt'],
    kind: 'gitlab-token',
    keywords: ['gr1348941'],
    source: String.raw`${B}GR1348941[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  {
    id: 'gitlab-session-cookie',
    upstream: ['gitlab-session-cookie'],
    kind: 'cookie',
    keywords: ['_gitlab_session='],
    source: String.raw`(_gitlab_session=)[0-9a-z]{32}(?![0-9a-z])`,
    keepPrefix: true,
  },
  {
    id: 'sourcegraph-token',
    upstream: ['sourcegraph-access-token'],
    kind: 'sourcegraph-token',
    keywords: ['sgp_'],
    source: String.raw`${B}sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}(?![A-Za-z0-9])`,
  },
  {
    id: 'npm-token',
    upstream: ['npm-access-token'],
    kind: 'npm-token',
    keywords: ['npm_'],
    source: String.raw`${B}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`,
  },
  {
    id: 'pypi-token',
    upstream: ['pypi-upload-token'],
    kind: 'pypi-token',
    keywords: ['pypi-ageicHlwaS5vcmc'.toLowerCase()],
    source: String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20}[A-Za-z0-9_-]*`,
  },
  {
    id: 'rubygems-token',
    upstream: ['rubygems-api-token'],
    kind: 'rubygems-token',
    keywords: ['rubygems_'],
    source: String.raw`${B}rubygems_[a-f0-9]{48}(?![A-Za-z0-9])`,
  },
  {
    // JFrog Artifactory: API keys `AKCp…`, reference tokens (base64 of `reftkn…`).
    id: 'artifactory-token',
    upstream: ['artifactory-api-key', 'artifactory-reference-token'],
    kind: 'artifactory-token',
    keywords: ['akcp', 'cmvmd'],
    source: String.raw`(?<![A-Za-z0-9])(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})(?![A-Za-z0-9])`,
  },
  {
    id: 'shopify-token',
    upstream: [
      'shopify-access-token',
      'shopify-custom-access-token',
      'shopify-private-app-access-token',
      'shopify-shared-secret',
    ],
    kind: 'shopify-token',
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    source: String.raw`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9])`,
  },
  {
    id: 'docker-token',
    kind: 'docker-token',
    keywords: ['dckr_pat_'],
    source: String.raw`dckr_pat_[A-Za-z0-9_-]{27}[A-Za-z0-9_-]*`,
  },
  {
    id: 'atlassian-token',
    upstream: ['atlassian-api-token'],
    kind: 'atlassian-token',
    keywords: ['atatt3'],
    source: String.raw`ATATT3[A-Za-z0-9_=-]{60}[A-Za-z0-9_=-]*`,
  },
  {
    id: 'linear-key',
    upstream: ['linear-api-key'],
    kind: 'linear-key',
    keywords: ['lin_api_'],
    source: String.raw`lin_api_[A-Za-z0-9]{40}`,
  },
  {
    id: 'postman-key',
    upstream: ['postman-api-token'],
    kind: 'postman-key',
    keywords: ['pmak-'],
    source: String.raw`PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}`,
  },
  {
    id: 'terraform-token',
    upstream: ['hashicorp-tf-api-token'],
    kind: 'terraform-token',
    keywords: ['.atlasv1.'],
    source: String.raw`${B}[a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`,
  },
];
