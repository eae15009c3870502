/**
 * Doctor's warnings about the plugin's options (issue 30 item 5): an option
 * the manifests do not declare (`server_uri`, or `module` once a manifest
 * stops declaring it), in the host's variables
 * (`CODEBUDDY_PLUGIN_OPTION_SERVER_URI`, `CLAUDE_PLUGIN_OPTION_…`,
 * `PLUGIN_OPT_…`) or where CodeBuddy stores them
 * (`pluginConfigs["openviking@<marketplace>"].options` in settings.json,
 * `pluginSecrets["openviking@<marketplace>"]` in credentials.json), is
 * ignored by the plugin, so it is named, with the nearest declared one; a
 * switch option (one that is also a switch knob, such as `debug` would be) whose
 * value is not a switch word (`maybe`) is named too.
 *
 * The manifests' `userConfig` is the source of truth for what an option is:
 * `.codebuddy-plugin/plugin.json` for what CodeBuddy stores, both manifests
 * for the variables (CodeBuddy exports the `CLAUDE_` spelling too).
 *
 * @module
 */
import { join } from 'node:path';
import { KNOB_TABLE } from '../config/knobs/index.js';
import { displayPath } from '../config/configFile.js';
import { PLUGIN_NAME } from '../config/pluginOptions.js';
import type { Settings } from '../config/types.js';
import { codebuddyConfigDir } from '../store/paths.js';
import { readSmallFile } from '../store/smallFile.js';
import { isRecord, parseJson } from '../util/json.js';
import { readJsonObject } from './mcpScopes.js';
import { nearestName } from '../util/nearest.js';

type Env = Readonly<Record<string, string | undefined>>;

const OPTION_PREFIXES = ['CODEBUDDY_PLUGIN_OPTION_', 'CLAUDE_PLUGIN_OPTION_', 'PLUGIN_OPT_'] as const;
const SWITCH_WORDS = new Set(['', '0', '1', 'true', 'false', 'yes', 'no', 'on', 'off']);
const MAX_MANIFEST_BYTES = 256 * 1024;

/** One warning per option that is not declared or has a value its switch cannot read. */
export function pluginOptionWarnings(env: Env, homeDir: string, pluginRoot: string): string[] {
  const codebuddy = declaredOptions(join(pluginRoot, '.codebuddy-plugin', 'plugin.json'));
  const claude = declaredOptions(join(pluginRoot, '.claude-plugin', 'plugin.json'));
  const anyHost = [...new Set([...codebuddy, ...claude])];
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    const prefix = OPTION_PREFIXES.find((candidate) => name.startsWith(candidate));
    if (prefix === undefined || value === undefined) continue;
    const key = name.slice(prefix.length).toLowerCase();
    warnings.push(
      ...optionProblems(key, value, anyHost, `${name} (environment)`, (near) => `${prefix}${near.toUpperCase()}`),
    );
  }
  const dir = codebuddyConfigDir(env, homeDir);
  const stored = [
    { file: join(dir, 'settings.json'), root: 'pluginConfigs', level: '.options' },
    { file: join(dir, 'credentials.json'), root: 'pluginSecrets', level: '' },
  ];
  for (const { file, root, level } of stored) {
    const installs = readJsonObject(file, [])?.[root];
    if (!isRecord(installs)) continue;
    for (const [id, install] of Object.entries(installs)) {
      const options = level === '' ? install : isRecord(install) ? install['options'] : undefined;
      if (!id.startsWith(`${PLUGIN_NAME}@`) || !isRecord(options)) continue;
      const where = `${displayPath(file, homeDir)} ${root}["${id}"]${level}`;
      for (const [key, option] of Object.entries(options))
        warnings.push(...optionProblems(key, option, codebuddy, `"${key}" in ${where}`, (near) => near));
    }
  }
  return warnings;
}

function optionProblems(
  key: string,
  value: unknown,
  declared: readonly string[],
  named: string,
  spell: (near: string) => string,
): string[] {
  if (!declared.includes(key)) {
    const near = nearestName(key, declared, (name) => name.toLowerCase().replace(/[^a-z0-9]/g, ''));
    return [
      `${named} is not an option of this plugin${near ? `; did you mean ${spell(near)}?` : ''} (its options: ${declared.join(', ')}); it is ignored`,
    ];
  }
  const knob = KNOB_TABLE[key as keyof Settings] as { type?: string } | undefined;
  const text =
    typeof value === 'string' ? value.trim().toLowerCase() : typeof value === 'boolean' ? String(value) : undefined;
  if (knob?.type === 'bool' && (text === undefined || !SWITCH_WORDS.has(text)))
    return [
      `${named} is ${JSON.stringify(value)}, not a switch value (on, off, true, false, yes, no, 1, 0); it reads as on`,
    ];
  return [];
}

/** The `userConfig` keys a manifest declares; none when it is missing or not JSON. */
export function declaredOptions(manifest: string): string[] {
  const file = readSmallFile(manifest, MAX_MANIFEST_BYTES);
  const value = file.text === undefined ? undefined : parseJson(file.text);
  const options = isRecord(value) ? value['userConfig'] : undefined;
  return isRecord(options) ? Object.keys(options) : [];
}
