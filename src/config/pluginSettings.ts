/**
 * The settings alone (settings.ts) from where the loader takes them: the
 * `OPENVIKING_*` variables and `plugin.codebuddy` of the ovcli.conf the
 * credentials use (configFiles.ts). load.ts builds the whole configuration
 * from the same section; a guard deny needs only the settings that name the
 * tools (`mcpEnabled`, `mcpServer`) and the debug log's, so it reads one
 * file and resolves no credentials (stages/guardTools.ts).
 *
 * @module
 */
import { displayPath, readSmallTextFile, type LoadedConfigFile, type ReadTextFile } from './configFile.js';
import { loadCliFile } from './configFiles.js';
import { resolveSettings, type SettingsInput, type SettingsResolution } from './settings.js';
import { isRecord } from '../util/json.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `plugin.codebuddy` of a loaded ovcli.conf as settings read it, and a warning when it is not an object. */
export function pluginSection(
  cliFile: LoadedConfigFile,
  homeDir: string,
): Pick<SettingsInput, 'file'> & { warnings: string[] } {
  const plugin = cliFile.value?.['plugin'];
  const section = isRecord(plugin) ? plugin['codebuddy'] : undefined;
  const shownAs = displayPath(cliFile.path, homeDir);
  if (section !== undefined && !isRecord(section))
    return { warnings: [`${shownAs}: plugin.codebuddy should be an object; ignoring it`] };
  return isRecord(section) ? { file: { values: section, shownAs }, warnings: [] } : { warnings: [] };
}

/** The settings of the configuration `loadPluginConfig` would build, without its credentials. Never throws. */
export function loadPluginSettings(input: { env: Env; homeDir: string; readFile?: ReadTextFile }): SettingsResolution {
  const { env, homeDir, readFile = readSmallTextFile } = input;
  const cliFile = loadCliFile({ env, homeDir, readFile });
  const { file, warnings } = pluginSection(cliFile, homeDir);
  const settings = resolveSettings({ env, homeDir, ...(file ? { file } : {}) });
  return { ...settings, warnings: [...(cliFile.warning ? [cliFile.warning] : []), ...warnings, ...settings.warnings] };
}
