/**
 * Where the two hosts keep MCP servers besides a plugin's, for doctor's
 * `duplicates` check (DESIGN D34, F23).
 *
 * CodeBuddy 2.117 runs one server per name, taking it from the first scope
 * that has it: local, project, user, and plugins last. So any other server
 * named like the plugin's (`openviking`) runs in its place, and the tools
 * the injected blocks name (`mcp__openviking__*`) are that server's; a
 * project one waits for the user's approval, and one copied from a plugin
 * (`${CLAUDE_PLUGIN_ROOT}` in its command) cannot start at all, since only a
 * plugin's servers get the plugin root. Claude Code names a plugin's server
 * `plugin:<plugin>:<server>`, so one of the same name there is a second set
 * of the same tools.
 *
 * | scope | CodeBuddy (bundle `resolveMcpFilePath`) | Claude Code |
 * |---|---|---|
 * | user | the first that exists of `<config dir>/.mcp.json`, `<config dir>/mcp.json`, `~/.codebuddy.json` (`mcpServers`) | `~/.claude.json` (`mcpServers`) |
 * | project | the first that exists of `<folder>/.mcp.json`, `<folder>/mcp.json` | `<folder>/.mcp.json` |
 * | local | `~/.codebuddy.json` `projects[<folder>].mcpServers` | `~/.claude.json` `projects[<folder>].mcpServers` |
 *
 * Doctor reads them all (a file the host would skip because an earlier one
 * exists is still worth naming). Small JSON files only (store/smallFile.ts);
 * one that is missing or not JSON is skipped (the host says so itself), one
 * that is not a regular file or too large is named.
 *
 * @module
 */
import { join } from 'node:path';
import { codebuddyConfigDir } from '../store/paths.js';
import { readSmallFile } from '../store/smallFile.js';
import { isRecord, parseJson, type JsonRecord } from '../util/json.js';

type Env = Readonly<Record<string, string | undefined>>;

export type McpScope = 'user' | 'project' | 'local';

/** One server entry found in one of the hosts' files. */
export interface ScopedServer {
  name: string;
  server: unknown;
  scope: McpScope;
  /** Which host reads it: `CodeBuddy`, `Claude Code` or both. */
  hosts: string;
  /** The file, and the entry's place in it when it is not the top-level `mcpServers`. */
  where: string;
}

export interface McpRegistrations {
  servers: ScopedServer[];
  /** Every file looked at, for "not in …" lines. */
  looked: string[];
  /** Files not read because they are not regular files or too large. */
  skipped: string[];
}

const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;
const CODEBUDDY = 'CodeBuddy';
const CLAUDE_CODE = 'Claude Code';

/** Every MCP server the hosts would read besides the plugins', for a session in `folder`. */
export function registeredMcpServers(env: Env, homeDir: string, folder: string): McpRegistrations {
  const codebuddyDir = codebuddyConfigDir(env, homeDir);
  const found: McpRegistrations = { servers: [], looked: [], skipped: [] };
  const read = (path: string): JsonRecord | undefined => {
    found.looked.push(path);
    return readJsonObject(path, found.skipped);
  };
  const take = (servers: unknown, scope: McpScope, hosts: string, where: string) => {
    if (!isRecord(servers)) return;
    for (const [name, server] of Object.entries(servers)) found.servers.push({ name, server, scope, hosts, where });
  };
  for (const path of [join(codebuddyDir, '.mcp.json'), join(codebuddyDir, 'mcp.json')])
    take(read(path)?.['mcpServers'], 'user', CODEBUDDY, path);
  const homeFiles: Array<[string, string]> = [
    [join(homeDir, '.codebuddy.json'), CODEBUDDY],
    [join(homeDir, '.claude.json'), CLAUDE_CODE],
  ];
  for (const [path, host] of homeFiles) {
    const value = read(path);
    take(value?.['mcpServers'], 'user', host, path);
    const projects = value?.['projects'];
    const project = isRecord(projects) ? projects[folder] : undefined;
    if (isRecord(project)) take(project['mcpServers'], 'local', host, `${path} projects["${folder}"]`);
  }
  take(
    read(join(folder, '.mcp.json'))?.['mcpServers'],
    'project',
    `${CODEBUDDY} and ${CLAUDE_CODE}`,
    join(folder, '.mcp.json'),
  );
  take(read(join(folder, 'mcp.json'))?.['mcpServers'], 'project', CODEBUDDY, join(folder, 'mcp.json'));
  return found;
}

/** True for a server named like the plugin's, or one that runs this plugin's proxy. */
export function isOpenVikingServer(name: string, server: unknown): boolean {
  if (name.toLowerCase() === 'openviking') return true;
  return serverArgs(server).some((arg) => arg.toLowerCase().includes('openviking') && arg.endsWith('mcp-proxy.mjs'));
}

/** True when the entry names a plugin root, which only a plugin's own servers are given. */
export function namesPluginRoot(server: unknown): boolean {
  const command = isRecord(server) && typeof server['command'] === 'string' ? [server['command']] : [];
  return [...command, ...serverArgs(server)].some((part) => /\$\{(?:CLAUDE|CODEBUDDY)_PLUGIN_ROOT\}/.test(part));
}

function serverArgs(server: unknown): string[] {
  return isRecord(server) && Array.isArray(server['args'])
    ? server['args'].filter((arg): arg is string => typeof arg === 'string')
    : [];
}

/** A small JSON object file of the user's settings; undefined when missing or not a JSON object; one that is not a regular file or too large is named in `skipped`. */
export function readJsonObject(path: string, skipped: string[]): JsonRecord | undefined {
  const file = readSmallFile(path, MAX_SETTINGS_BYTES);
  if (file.absent !== undefined) {
    if (file.absent === 'not-a-file' || file.absent === 'too-large') skipped.push(`not read: ${path} ${file.why}`);
    return undefined;
  }
  const value = parseJson(file.text);
  return isRecord(value) ? value : undefined;
}
