/**
 * Doctor check `duplicates` (issue 17.2, issue 30): OpenViking hooks or an
 * `openviking` MCP server registered outside the plugin.
 *
 * - Hooks in the user's settings (`<CodeBuddy config dir>/settings.json`,
 *   `<Claude config dir>/settings.json`) whose command names an OpenViking
 *   hook script (`openviking` and `hook.mjs`, or this plugin's directory)
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
  const codebuddyDir = codebuddyConfigDir(env, homeDir);
  const claudeDir = env.CLAUDE_CONFIG_DIR?.trim() || join(homeDir, '.claude');
  const hookFiles = [join(codebuddyDir, 'settings.json'), join(claudeDir, 'settings.json')];
  const warnings: string[] = [];
  const failures: string[] = [];
  const registered = registeredMcpServers(env, homeDir, folder);
  const skipped = [...registered.skipped];
  for (const file of hookFiles) {
    const hooks = readJsonObject(file, skipped)?.['hooks'];
    for (const { event, command } of hookCommands(hooks)) {
      if (namesOpenVikingHook(command, pluginRoot))
        warnings.push(
          `${file}: ${event} hook "${command.slice(0, 120)}" runs OpenViking beside the plugin (it fires twice)`,
        );
    }
  }
  const key = mcp.mcpServer.trim();
  const ownServer: string[] = [];
  for (const entry of registered.servers) {
    if (!mcp.mcpEnabled) {
      if (entry.name === key) ownServer.push(`${entry.where} (${entry.scope} scope)`);
    } else if (isOpenVikingServer(entry.name, entry.server)) {
      if (entry.scope === 'user') warnings.push(userScopeLine(entry));
      else (namesPluginRoot(entry.server) ? failures : warnings).push(projectScopeLine(entry));
    }
  }
  const own = mcp.mcpEnabled || key.startsWith('mcp__') ? [] : [ownMcpLine(key, ownServer, registered.looked)];
  const base = { id: 'duplicates', title: 'Duplicate registrations' };
  if (warnings.length === 0 && failures.length === 0)
    return {
      ...base,
      status: 'pass',
      lines: [
        `no OpenViking hook${mcp.mcpEnabled ? ' or MCP server' : ''} registered outside the plugin`,
        ...own,
        ...skipped,
      ],
    };
  return {
    ...base,
    status: failures.length > 0 ? 'fail' : 'warn',
    lines: [...failures, ...warnings, ...own, ...skipped],
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
    (lower.includes('openviking') && /hook\.mjs|guard-prefilter\.sh|detach\.sh/.test(lower)) ||
    (pluginRoot !== '' && command.includes(pluginRoot))
  );
}
