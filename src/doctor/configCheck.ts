/**
 * Doctor check `config`: which configuration sources were found and where
 * every value the plugin will use came from, so a user can see at a glance
 * why the plugin talks to that server as that identity. Keys are masked.
 *
 * @module
 */
import { displayPath } from '../config/configFile.js';
import { KNOB_TABLE } from '../config/knobs/index.js';
import type { PluginConfig, Settings } from '../config/types.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { maskSecret } from './mask.js';
import { describeSource } from './sources.js';
import type { Check } from './types.js';

/** The fix for a configuration that only has the server's root key. */
export const ROOT_KEY_FIX =
  'Use a USER key, not the server root key (OpenViking refuses root keys on memory APIs): have one created through the ' +
  'server\'s admin API (/api/v1/admin), then set it as the plugin option api_key, OPENVIKING_API_KEY, or "api_key" in ~/.openviking/ovcli.conf.';

const FIELD_NAMES: Record<keyof PluginConfig['credentials']['sources'], string> = {
  baseUrl: 'server URL',
  mcpUrl: 'MCP URL',
  apiKey: 'API key',
  account: 'account',
  user: 'user',
  peerId: 'peer',
};

/** `optionWarnings`: what optionsCheck.ts says of the plugin's options (undeclared, or a switch that cannot read its value). */
export function checkConfig(config: PluginConfig, homeDir: string, optionWarnings: readonly string[] = []): Check {
  const { credentials } = config;
  const warnings = [...config.warnings, ...optionWarnings];
  const from = (field: keyof PluginConfig['credentials']['sources']): string => credentials.sources[field] ?? 'unset';
  const lines = [
    credentials.files.length > 0
      ? `files read: ${credentials.files.map((file) => displayPath(file, homeDir)).join(', ')}`
      : 'files read: none (no ~/.openviking/ovcli.conf or ov.conf)',
    `server URL: ${displayUrl(credentials.baseUrl, true)}  (${from('baseUrl')})`,
    `MCP URL: ${displayUrl(credentials.mcpUrl, true)}  (${credentials.sources.mcpUrl === 'derived:baseUrl' ? describeSource('derived:baseUrl') : from('mcpUrl')})`,
    `API key: ${credentials.apiKey ? `${maskSecret(credentials.apiKey)}  (${from('apiKey')})` : 'none'}`,
  ];
  if (credentials.account) lines.push(`account: ${credentials.account}  (${from('account')})`);
  if (credentials.user) lines.push(`user: ${credentials.user}  (${from('user')})`);
  if (credentials.peerId) lines.push(`peer: ${credentials.peerId}  (${from('peerId')})`);
  // Why another source's value is not the one in use (one ignored because of `cli` mode is a warning below).
  for (const skip of credentials.skipped ?? [])
    if (skip.kind !== 'cli-mode')
      lines.push(`also set: ${FIELD_NAMES[skip.field]} in ${skip.source}, not used: ${skip.reason}`);
  const changed = changedSettings(config);
  lines.push(
    changed.length > 0
      ? `settings changed from default: ${changed.map((s) => s.text).join(', ')}`
      : 'settings: all defaults',
  );
  lines.push(...warnings.map((warning) => `warning: ${warning}`));

  const data = {
    files: credentials.files,
    baseUrl: displayUrl(credentials.baseUrl, true),
    mcpUrl: displayUrl(credentials.mcpUrl, true),
    apiKey: credentials.apiKey ? maskSecret(credentials.apiKey) : null,
    sources: credentials.sources,
    rootKeyOnly: credentials.rootKeyOnly,
    skipped: credentials.skipped ?? [],
    changedSettings: Object.fromEntries(changed.map((s) => [s.env, s.source])),
    warnings,
  };
  const broken = configurationProblems(config);
  if (broken !== undefined) return { id: 'config', title: 'Configuration', status: 'fail', lines, fix: broken, data };
  if (credentials.rootKeyOnly)
    return { id: 'config', title: 'Configuration', status: 'fail', lines, fix: ROOT_KEY_FIX, data };
  if (!config.settings.enabled) {
    return {
      id: 'config',
      title: 'Configuration',
      status: 'warn',
      lines,
      fix: 'Memory is switched off: unset OPENVIKING_MEMORY_ENABLED (or set it to true).',
      data,
    };
  }
  if (warnings.length > 0) {
    return {
      id: 'config',
      title: 'Configuration',
      status: 'warn',
      lines,
      fix: 'Correct the values named in the warnings above; they are ignored until then.',
      data,
    };
  }
  return { id: 'config', title: 'Configuration', status: 'pass', lines, data };
}

/**
 * The fix when the configuration itself is broken (issue 30 item 4): a file
 * that exists but was ignored whole (the remote server and key in it go
 * unused, even while a local server answers at the default address), or a
 * URL in use that is not an http(s) URL (nothing is sent until it is
 * corrected; no other server is tried in its place).
 */
function configurationProblems(config: PluginConfig): string | undefined {
  const { refused, urlProblem } = config.credentials;
  const fixes: string[] = [];
  if (urlProblem !== undefined)
    fixes.push(
      `Write the URL in ${describeSource(urlProblem.source)} as an http(s) URL with its scheme (${urlProblem.problem}); until then the plugin sends nothing, and no other server is used in its place.`,
    );
  for (const file of refused ?? [])
    fixes.push(
      `Correct ${file.path} where the warning above says; until then the whole file is ignored, the server, key and settings in it included.`,
    );
  return fixes.length > 0 ? fixes.join(' ') : undefined;
}

interface ChangedSetting {
  env: string;
  source: string;
  text: string;
}

function changedSettings(config: PluginConfig): ChangedSetting[] {
  const changed: ChangedSetting[] = [];
  for (const [field, source] of Object.entries(config.settingSources ?? {})) {
    if (!source || source === 'default') continue;
    const knob = KNOB_TABLE[field as keyof Settings];
    const value = config.settings[field as keyof Settings];
    const shown = Array.isArray(value) ? value.join(',') : String(value);
    changed.push({ env: knob.env, source, text: `${knob.env}=${shown} (${source})` });
  }
  return changed;
}
