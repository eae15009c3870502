/**
 * The MCP tool names a guard deny gives the model, from the configuration:
 * the host's bundled tools, or with `mcpEnabled` off the user's own server's
 * (protocol/hostTools.ts, DESIGN D29).
 *
 * Its own lazy file (scripts/lazy/guard-tools.mjs): the guard in the hook
 * entry stays free of configuration code, and only a deny (the model aimed
 * a file tool at a `viking://` URI, a mistake) pays for reading the
 * configuration; the allow path is unchanged (DESIGN D3). A failure here
 * falls back to the host's bundled names: the deny must still go out.
 *
 * @module
 */
import { loadPluginConfig } from '../config/load.js';
import type { StageDeps } from '../protocol/stage.js';
import { hostFromEnv, toolNamesFor, type HostKind, type ToolNames } from '../protocol/hostTools.js';
import { errorMessage } from '../util/errors.js';

/** @param host - whose bundled names (the hook's from its environment; the hooks module knows its host). */
export function configuredToolNames(
  deps: Pick<StageDeps, 'env' | 'homeDir' | 'log'>,
  host: HostKind = hostFromEnv(deps.env),
): ToolNames {
  try {
    const config = loadPluginConfig({ env: deps.env, homeDir: deps.homeDir });
    deps.log.configure?.({ debug: config.settings.debug, debugLogPath: config.settings.debugLogPath });
    return toolNamesFor(host, config.settings);
  } catch (error: unknown) {
    deps.log.warn('guard: configuration not read; naming the bundled tools', { error: errorMessage(error) });
    return toolNamesFor(host);
  }
}
