/**
 * Doctor check `duplicates` (issue 17.2, issue 30): OpenViking hooks or an
 * `openviking` MCP server registered outside the plugin.
 *
 * - Hooks in the user's settings (`<CodeBuddy config dir>/settings.json`,
 *   `<Claude config dir>/settings.json`) whose command names an OpenViking
 *   hook script (`openviking` and `hook.cjs` or `hook.mjs`, or this plugin's directory)
 *   fire beside the plugin's hooks.json: every turn captured twice, two
 *   recall blocks.
 * - An MCP server named like the plugin's (or running this plugin's proxy)
 *   in any scope the hosts read (mcpScopes.ts): at user scope it runs in the
 *   plugin's place on CodeBuddy and beside it on Claude Code (a warning: it
 *   works, but not as the plugin's); at project or local scope CodeBuddy
 *   runs it in the plugin's place once the user approves it, and a copy of
 *   a plugin's entry (`${CLAUDE_PLUGIN_ROOT}`) never starts: the model gets
 *   no OpenViking tool at all (a failure; DESIGN D34). With the plugin's
 *   tools off (`mcpEnabled`, DESIGN D29) such a server is no duplicate but
 *   the one the hints name: the check says where the server `mcpServer`
 *   names is registered.
 *
 * @module
 */
import { join } from 'node:path';
import { isRecord } from '../util/json.js';
import { codebuddyConfigDir } from '../store/paths.js';
import { isOpenVikingServer, namesPluginRoot, readJsonObject, registeredMcpServers } from './mcpScopes.js';
import type { ScopedServer } from './mcpScopes.js';
import type { Check } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `mcpEnabled` and `mcpServer` of the configuration. */
export interface McpSetting {
  mcpEnabled: boolean;
  mcpServer: string;
}

export function checkDuplicates(
  env: Env,
  homeDir: string,
  pluginRoot: string,
  mcp: McpSetting = { mcpEnabled: true, mcpServer: 'openviking' },
  folder = homeDir,
): Check {
  const hookFiles = hookSettingsFiles(env, homeDir);
  const registered = registeredMcpServers(env, homeDir, folder);
  const skipped = [...registered.skipped];
  const hooks = hookFiles.flatMap((file) => duplicateHookLines(file, pluginRoot, skipped));
  const key = mcp.mcpServer.trim();
  const servers = sortServers(registered.servers, mcp.mcpEnabled, key);
  const own = mcp.mcpEnabled || key.startsWith('mcp__') ? [] : [ownMcpLine(key, servers.ownServer, registered.looked)];
  return duplicatesVerdict(mcp.mcpEnabled, [...hooks, ...servers.warnings], servers.failures, [...own, ...skipped]);
}

/** The user's settings files of both hosts, where hooks outside a plugin are registered. */
function hookSettingsFiles(env: Env, homeDir: string): string[] {
  const codebuddyDir = codebuddyConfigDir(env, homeDir);
  const claudeDir = env.CLAUDE_CONFIG_DIR?.trim() || join(homeDir, '.claude');
  return [join(codebuddyDir, 'settings.json'), join(claudeDir, 'settings.json')];
}

/** A warning per hook in one settings file that runs OpenViking beside the plugin's own hooks. */
function duplicateHookLines(file: string, pluginRoot: string, skipped: string[]): string[] {
  const hooks = readJsonObject(file, skipped)?.['hooks'];
  return hookCommands(hooks)
    .filter(({ command }) => namesOpenVikingHook(command, pluginRoot))
    .map(
      ({ event, command }) =>
        `${file}: ${event} hook "${command.slice(0, 120)}" runs OpenViking beside the plugin (it fires twice)`,
    );
}

/**
 * The registered MCP servers sorted by what they mean: with the plugin's tools on, OpenViking servers
 * are duplicates (a warning, or a failure when a copied plugin entry cannot start); with them off,
 * the server `mcpServer` names is the user's own and only where it is registered is noted.
 */
function sortServers(
  registered: readonly ScopedServer[],
  mcpEnabled: boolean,
  key: string,
): { warnings: string[]; failures: string[]; ownServer: string[] } {
  const sorted = { warnings: [] as string[], failures: [] as string[], ownServer: [] as string[] };
  for (const entry of registered) {
    if (!mcpEnabled) {
      if (entry.name === key) sorted.ownServer.push(`${entry.where} (${entry.scope} scope)`);
    } else if (isOpenVikingServer(entry.name, entry.server)) {
      if (entry.scope === 'user') sorted.warnings.push(userScopeLine(entry));
      else (namesPluginRoot(entry.server) ? sorted.failures : sorted.warnings).push(projectScopeLine(entry));
    }
  }
  return sorted;
}

/** The check's verdict: pass with nothing found, else fail when a server cannot start, warn otherwise; `trailer` lines come last. */
function duplicatesVerdict(mcpEnabled: boolean, warnings: string[], failures: string[], trailer: string[]): Check {
  const base = { id: 'duplicates', title: 'Duplicate registrations' };
  if (warnings.length === 0 && failures.length === 0)
    return {
      ...base,
      status: 'pass',
      lines: [`no OpenViking hook${mcpEnabled ? ' or MCP server' : ''} registered outside the plugin`, ...trailer],
    };
  return {
    ...base,
    status: failures.length > 0 ? 'fail' : 'warn',
    lines: [...failures, ...warnings, ...trailer],
    fix: duplicatesFix(failures.length > 0),
    data: { duplicates: warnings.length + failures.length },
  };
}

function userScopeLine(entry: ScopedServer): string {
  const effect =
    entry.hosts === 'Claude Code'
      ? "a second set of the plugin's tools"
      : "CodeBuddy runs it in the place of the plugin's (one server per name, user scope first)";
  return `${entry.where}: user-scope MCP server "${entry.name}" duplicates the plugin's openviking server (${effect})`;
}

function projectScopeLine(entry: ScopedServer): string {
  const broken = namesPluginRoot(entry.server)
    ? "; it names ${CLAUDE_PLUGIN_ROOT}, which only a plugin's own server is given, so it cannot start and the model gets no OpenViking tool"
    : '; it waits for your approval';
  return `${entry.where}: ${entry.scope}-scope MCP server "${entry.name}" (${entry.hosts}) shadows the plugin's openviking server in this folder: CodeBuddy runs it in the plugin's place${broken}`;
}

function duplicatesFix(shadowed: boolean): string {
  const remove =
    'Remove those entries (`codebuddy mcp remove openviking -s user` / `claude mcp remove openviking -s user`, and the hooks from settings.json): the plugin registers its hooks and MCP server itself.';
  if (!shadowed) return remove;
  return `Delete the "openviking" entry from the project or local file named above (a project's .mcp.json is for the project's own servers; the plugin declares its server in its manifest), or rename it if it is a server of your own. ${remove}`;
}

/** Whether the user's own server, which the hints name with the plugin's tools off, is registered at user scope. */
function ownMcpLine(key: string, foundIn: readonly string[], looked: readonly string[]): string {
  if (foundIn.length > 0)
    return `this plugin's MCP tools are off (mcpEnabled); the hints name your server "${key}", registered in ${foundIn.join(', ')}`;
  return `this plugin's MCP tools are off (mcpEnabled); the hints name your server "${key}", which is not in ${looked.join(', ')} (another plugin's server is not looked for)`;
}

function hookCommands(hooks: unknown): Array<{ event: string; command: string }> {
  if (!isRecord(hooks)) return [];
  const found: Array<{ event: string; command: string }> = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const entries = isRecord(group) && Array.isArray(group['hooks']) ? group['hooks'] : [];
      for (const entry of entries)
        if (isRecord(entry) && typeof entry['command'] === 'string') found.push({ event, command: entry['command'] });
    }
  }
  return found;
}

function namesOpenVikingHook(command: string, pluginRoot: string): boolean {
  const lower = command.toLowerCase();
  return (
    (lower.includes('openviking') && /hook\.[cm]js|guard-prefilter\.sh|detach\.sh/.test(lower)) ||
    (pluginRoot !== '' && command.includes(pluginRoot))
  );
}
