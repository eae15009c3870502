/**
 * The MCP tool names a guard deny gives the model, from the settings: the
 * host's bundled tools, or with `mcpEnabled` off the user's own server's
 * (protocol/hostTools.ts, DESIGN D29).
 *
 * A deny (the model aimed a file tool at a `viking://` URI, a mistake) reads
 * the settings only (config/pluginSettings.ts: the variables and one
 * ovcli.conf, no credentials), in the hook entry: a lazy file of the whole
 * configuration cost a deny ~4 ms more than this (DESIGN D38); the allow
 * path never gets here (DESIGN D3). A failure here falls back to the host's
 * bundled names: the deny must still go out.
 *
 * @module
 */
import { loadPluginSettings } from '../config/pluginSettings.js';
import type { StageDeps } from '../protocol/stage.js';
import { hostFromEnv, toolNamesFor, type HostKind, type ToolNames } from '../protocol/hostTools.js';
import { errorMessage } from '../util/errors.js';

/** @param host - whose bundled names (the hook's from its environment; the hooks module knows its host). */
export function configuredToolNames(
  deps: Pick<StageDeps, 'env' | 'homeDir' | 'log'>,
  host: HostKind = hostFromEnv(deps.env),
): ToolNames {
  try {
    const { settings } = loadPluginSettings({ env: deps.env, homeDir: deps.homeDir });
    deps.log.configure?.({ debug: settings.debug, debugLogPath: settings.debugLogPath });
    return toolNamesFor(host, settings);
  } catch (error: unknown) {
    deps.log.warn('guard: configuration not read; naming the bundled tools', { error: errorMessage(error) });
    return toolNamesFor(host);
  }
}
