/**
 * Doctor checks `server` and `identity`: does the configured server answer
 * `/health`, which version and auth mode does it run, who does the plugin
 * speak as there, and can that identity use the memory APIs at all.
 *
 * The memory APIs are what recall and capture need, so identity is judged
 * by real data calls: a memory search (`search/find`; a ROOT key gets 403
 * there, a bad key 401, a trusted-mode call without account/user 400) and
 * `viking://~` (0.5.2 expands it for every role; older servers refused it
 * to ROOT, every request in dev mode, with a 400 that is expected and
 * harmless because the plugin addresses `viking://user/<id>` itself;
 * docs/host-facts.md F37).
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import type { HealthInfo, OpenVikingClient, OvFailure, OvResult } from '../openviking/types.js';
import { ROOT_KEY_FIX } from './configCheck.js';
import { maskIn, maskSecret } from './mask.js';
import type { Check } from './types.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { diagnoseHealthFailure } from './serverDiagnosis.js';
import { describeSource } from './sources.js';

export interface ServerChecks {
  server: Check;
  /** Undefined when the server did not answer (nothing to ask it). */
  identity?: Check;
  health?: HealthInfo;
}

export async function checkServer(
  config: PluginConfig,
  client: OpenVikingClient,
  now: () => number,
  env: Readonly<Record<string, string | undefined>> = {},
  healthTimeoutMs?: number,
): Promise<ServerChecks> {
  const { urlProblem, refused, sources } = config.credentials;
  if (urlProblem !== undefined)
    return {
      server: {
        id: 'server',
        title: 'Server',
        status: 'info',
        lines: [
          `not contacted: the URL from ${describeSource(urlProblem.source)} is not an http(s) URL (see Configuration); the plugin sends nothing until it is corrected`,
        ],
        data: { url: null, code: 'INVALID_URL' },
      },
    };
  const started = now();
  const health = await client.health(healthTimeoutMs);
  const elapsedMs = now() - started;
  if (!health.ok) return { server: unreachable(config, health, env) };
  const info = health.result;
  const fallback =
    sources.baseUrl === 'default' && refused !== undefined && refused.length > 0
      ? [
          `this is the default address: ${refused.map((file) => file.path).join(', ')} could not be read (see Configuration), and the server it names is not used`,
        ]
      : [];
  const server: Check = {
    id: 'server',
    title: 'Server',
    status: 'pass',
    lines: [
      `${displayUrl(config.credentials.baseUrl, true)} answered /health in ${elapsedMs} ms`,
      `version: ${info.version ?? 'unknown'}, auth mode: ${info.auth_mode ?? 'unknown'}`,
      ...fallback,
    ],
    data: {
      url: displayUrl(config.credentials.baseUrl, true),
      version: info.version ?? null,
      authMode: info.auth_mode ?? null,
      elapsedMs,
    },
  };
  return { server, identity: await checkIdentity(config, client, info), health: info };
}

function unreachable(
  config: PluginConfig,
  failure: OvFailure,
  env: Readonly<Record<string, string | undefined>>,
): Check {
  const diagnosis = diagnoseHealthFailure(config, failure, env);
  const baseUrl = displayUrl(config.credentials.baseUrl, true);
  return {
    id: 'server',
    title: 'Server',
    status: 'fail',
    lines: diagnosis.lines.map((line) => maskIn(line, config.credentials.apiKey)),
    fix: diagnosis.fix,
    data: {
      url: baseUrl,
      code: failure.code,
      status: failure.status,
      kind: diagnosis.kind,
      cause: failure.cause ?? null,
    },
  };
}

async function checkIdentity(config: PluginConfig, client: OpenVikingClient, health: HealthInfo): Promise<Check> {
  const [status, search, home] = await Promise.all([
    client.systemStatus(),
    client.find({ query: 'openviking doctor probe', limit: 1 }),
    client.ls('viking://~'),
  ]);
  const seen = identitySeen(config, health, status.ok ? status.result.user : undefined, search, home.ok);
  const refused = refusedIdentity(config, seen, search);
  if (refused !== undefined) return refused;
  seen.lines.push('memory APIs: usable');
  return homeAliasCheck(config, seen, home, health);
}

/** Who the server says the caller is, as the check's first line and its data. */
interface IdentitySeen {
  authMode: string;
  user: string | undefined;
  rootKey: boolean;
  lines: string[];
  data: Record<string, unknown>;
}

function identitySeen(
  config: PluginConfig,
  health: HealthInfo,
  statusUser: string | undefined,
  search: OvResult<unknown>,
  homeAlias: boolean,
): IdentitySeen {
  const authMode = health.auth_mode ?? 'unknown';
  const user = health.user_id ?? statusUser ?? config.credentials.user;
  const role = health.role ?? (authMode === 'dev' ? 'root (dev mode)' : 'unknown');
  const rootKey = (authMode === 'api_key' && health.role === 'root') || (!search.ok && search.status === 403);
  return {
    authMode,
    user,
    rootKey,
    lines: [
      `account: ${health.account_id ?? config.credentials.account ?? 'default'}, user: ${user ?? 'unknown'}, role: ${role}`,
    ],
    data: {
      authMode,
      account: health.account_id ?? null,
      user: user ?? null,
      role: health.role ?? null,
      rootKey,
      memoryApi: search.ok,
      homeAlias,
    },
  };
}

/** The memory APIs refused this identity (a root key, bad credentials, trusted mode without one), or failed. */
function refusedIdentity(config: PluginConfig, seen: IdentitySeen, search: OvResult<unknown>): Check | undefined {
  const verdict = (status: Check['status'], text: string, fix: string): Check => ({
    id: 'identity',
    title: 'Identity',
    status,
    lines: [...seen.lines, text],
    fix,
    data: seen.data,
  });
  if (seen.rootKey)
    return verdict(
      'fail',
      'the API key is a ROOT key: OpenViking refuses it on memory APIs (403 PERMISSION_DENIED)',
      // The Configuration check already gives this fix when the root key came from ov.conf: said once.
      config.credentials.rootKeyOnly ? 'See Configuration above.' : ROOT_KEY_FIX,
    );
  if (search.ok) return undefined;
  const failure = describeFailure(search, config.credentials.apiKey);
  if (search.status === 401)
    return verdict(
      'fail',
      config.credentials.apiKey
        ? `the server rejected the credentials (${failure})`
        : `the server wants an API key (auth mode ${seen.authMode}) and none is configured`,
      authFix(config),
    );
  if (search.status === 400 && seen.authMode === 'trusted')
    return verdict(
      'fail',
      `trusted mode needs an account and a user (${failure})`,
      'Set OPENVIKING_ACCOUNT and OPENVIKING_USER, or the plugin options account / user.',
    );
  return verdict(
    'warn',
    `memory search failed (${failure})`,
    'Run doctor again; if it persists, check the server log.',
  );
}

/** Whether `viking://~` works for this identity (ROOT has none, which is expected: the plugin names the user space). */
function homeAliasCheck(config: PluginConfig, seen: IdentitySeen, home: OvResult<unknown>, health: HealthInfo): Check {
  const { lines, data } = seen;
  if (home.ok) lines.push(`viking://~ works${seen.user ? ` (→ viking://user/${seen.user})` : ''}`);
  else if (home.status === 400 && (seen.authMode === 'dev' || health.role === 'root'))
    lines.push(
      'viking://~ is unavailable to ROOT on this server (every request in dev mode is ROOT); expected: the plugin uses viking://user/<id> itself',
    );
  else {
    lines.push(`viking://~ failed (${describeFailure(home, config.credentials.apiKey)})`);
    return {
      id: 'identity',
      title: 'Identity',
      status: 'warn',
      lines,
      fix: 'The MCP tools that take viking://~ paths will fail for this identity; use a user key.',
      data,
    };
  }
  return { id: 'identity', title: 'Identity', status: 'pass', lines, data };
}

function authFix(config: PluginConfig): string {
  const { apiKey, sources } = config.credentials;
  if (!apiKey)
    return 'Set a user API key for this server: OPENVIKING_API_KEY, the plugin option api_key, or "api_key" in ~/.openviking/ovcli.conf next to its "url" (not the server\'s root key).';
  return `The key ${maskSecret(apiKey)} (from ${sources.apiKey ?? 'unknown'}) is not valid on this server: replace it with a current user key.`;
}

function describeFailure(result: OvResult<unknown>, apiKey: string | undefined): string {
  if (result.ok) return 'ok';
  return maskIn(`${result.status > 0 ? `HTTP ${result.status} ` : ''}${result.code}: ${result.message}`, apiKey);
}
