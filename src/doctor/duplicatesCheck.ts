/**
 * Doctor check `duplicates` (issue 17.2): OpenViking hooks or an
 * `openviking` MCP server registered by hand next to the plugin's own.
 *
 * - Hooks in the user's settings (`<CodeBuddy config dir>/settings.json`,
 *   `<Claude config dir>/settings.json`) whose command names an OpenViking
 *   hook script (`openviking` and `hook.mjs`, or this plugin's directory)
 *   fire beside the plugin's hooks.json: every turn captured twice, two
 *   recall blocks.
 * - A user-scope MCP server named `openviking` (or running this plugin's
 *   proxy) in `~/.codebuddy.json`, `<CodeBuddy config dir>/.mcp.json` or
 *   `~/.claude.json` duplicates the plugin's `.mcp.json` server: two sets of
 *   the same tools (both hosts start the plugin's `.mcp.json` server, DESIGN
 *   D23, so a hand-added `claude mcp add openviking` is no longer needed).
 *   With the plugin's tools off (`mcpEnabled`, DESIGN D29) a user-scope
 *   server is no duplicate but the one the hints name: the check says
 *   whether the server `mcpServer` names is registered there.
 *
 * Reads small JSON files only (store/smallFile.ts: regular files, no
 * blocking read); a missing or broken file is skipped, one that is not a
 * regular file or too large is named.
 *
 * @module
 */
import { join } from 'node:path';
import { isRecord } from '../util/json.js';
import { codebuddyConfigDir } from '../store/paths.js';
import { readSmallFile } from '../store/smallFile.js';
import type { Check } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

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
): Check {
  const codebuddyDir = codebuddyConfigDir(env, homeDir);
  const claudeDir = env.CLAUDE_CONFIG_DIR?.trim() || join(homeDir, '.claude');
  const hookFiles = [join(codebuddyDir, 'settings.json'), join(claudeDir, 'settings.json')];
  const mcpFiles = [join(homeDir, '.codebuddy.json'), join(codebuddyDir, '.mcp.json'), join(homeDir, '.claude.json')];
  const warnings: string[] = [];
  const skipped: string[] = [];
  const readJson = (path: string) => readJsonFile(path, skipped);
  for (const file of hookFiles) {
    const hooks = readJson(file)?.['hooks'];
    for (const { event, command } of hookCommands(hooks)) {
      if (namesOpenVikingHook(command, pluginRoot))
        warnings.push(
          `${file}: ${event} hook "${command.slice(0, 120)}" runs OpenViking beside the plugin (it fires twice)`,
        );
    }
  }
  const ownServer: string[] = [];
  for (const file of mcpFiles) {
    const servers = readJson(file)?.['mcpServers'];
    if (!isRecord(servers)) continue;
    for (const [name, server] of Object.entries(servers)) {
      if (!mcp.mcpEnabled) {
        if (name === mcp.mcpServer.trim()) ownServer.push(file);
      } else if (isOpenVikingServer(name, server))
        warnings.push(
          `${file}: user-scope MCP server "${name}" duplicates the plugin's openviking server (two sets of the same tools)`,
        );
    }
  }
  const own =
    mcp.mcpEnabled || mcp.mcpServer.trim().startsWith('mcp__')
      ? []
      : [ownMcpLine(mcp.mcpServer.trim(), ownServer, mcpFiles)];
  const base = { id: 'duplicates', title: 'Duplicate registrations' };
  if (warnings.length === 0)
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
    status: 'warn',
    lines: [...warnings, ...own, ...skipped],
    fix: 'Remove those entries (`codebuddy mcp remove openviking -s user` / `claude mcp remove openviking -s user`, and the hooks from settings.json): the plugin registers its hooks and MCP server itself.',
    data: { duplicates: warnings.length },
  };
}

/** Whether the user's own server, which the hints name with the plugin's tools off, is registered at user scope. */
function ownMcpLine(key: string, foundIn: readonly string[], looked: readonly string[]): string {
  if (foundIn.length > 0)
    return `this plugin's MCP tools are off (mcpEnabled); the hints name your server "${key}", registered in ${foundIn.join(', ')}`;
  return `this plugin's MCP tools are off (mcpEnabled); the hints name your server "${key}", which is not in ${looked.join(', ')} (a project-scope or plugin server is not looked for)`;
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

function isOpenVikingServer(name: string, server: unknown): boolean {
  if (name.toLowerCase() === 'openviking') return true;
  const args =
    isRecord(server) && Array.isArray(server['args'])
      ? server['args'].filter((arg): arg is string => typeof arg === 'string')
      : [];
  return args.some((arg) => arg.toLowerCase().includes('openviking') && arg.endsWith('mcp-proxy.mjs'));
}

function readJsonFile(path: string, skipped: string[]): Record<string, unknown> | undefined {
  const file = readSmallFile(path, MAX_SETTINGS_BYTES);
  if (file.absent !== undefined) {
    if (file.absent === 'not-a-file' || file.absent === 'too-large') skipped.push(`not read: ${path} ${file.why}`);
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(file.text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined; // not JSON: the host reports that itself
  }
}
