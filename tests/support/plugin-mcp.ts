/**
 * The plugin's MCP server declaration as both hosts find it: the file the
 * manifests' `mcpServers` names (DESIGN D34; no `.mcp.json` at the root,
 * which a session started in the plugin's folder would read as a project
 * server).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './spawn-hook.js';

export interface McpServerEntry {
  command: string;
  args: string[];
}

/** The file `.codebuddy-plugin/plugin.json` names in `mcpServers`, relative to the plugin root. */
export function pluginMcpFile(manifest = '.codebuddy-plugin/plugin.json'): string {
  const value = (JSON.parse(readFileSync(join(REPO_ROOT, manifest), 'utf8')) as { mcpServers?: unknown }).mcpServers;
  if (typeof value !== 'string') throw new Error(`${manifest} names no mcpServers file`);
  return value;
}

/** The servers that file declares. */
export function pluginMcpServers(): Record<string, McpServerEntry> {
  const text = readFileSync(join(REPO_ROOT, pluginMcpFile()), 'utf8');
  return (JSON.parse(text) as { mcpServers: Record<string, McpServerEntry> }).mcpServers;
}
