/**
 * Which host runs this process, and what that host calls the plugin's MCP
 * tools, so every text the model reads (the guard's deny reason, the recall
 * and start blocks) names tools that exist where it is read (DESIGN D23).
 *
 * - CodeBuddy names a plugin's MCP tools `mcp__<server key>__<tool>` and
 *   defers them: the model calls `DeferExecuteTool {toolName, params}` or
 *   loads them with `ToolSearch` (codebuddy-host README §4).
 * - Claude Code names them `mcp__plugin_<plugin>_<server>__<tool>`, defers
 *   them behind `ToolSearch` (`{"query": "select:<name>"}`), and has no
 *   `DeferExecuteTool` (§9).
 *
 * The host is read from the plugin-root variables only: CodeBuddy exports
 * `CODEBUDDY_PLUGIN_ROOT` (and `CLAUDE_PLUGIN_ROOT`) to every hook and MCP
 * server; Claude Code exports `CLAUDE_PLUGIN_ROOT` and no `CODEBUDDY_*`
 * (it also sets `CLAUDECODE=1`, but a resident helper, keyed on the plugin
 * variables, sees only those: resident/identity.ts). Neither set (a hook run
 * by hand) reads as CodeBuddy, the product's host. One env read, no import.
 *
 * @module
 */

export type HostKind = 'codebuddy' | 'claude-code';

type Env = Readonly<Record<string, string | undefined>>;

/** The host that started this process (see the module comment). */
export function hostFromEnv(env: Env): HostKind {
  if (env.CODEBUDDY_PLUGIN_ROOT) return 'codebuddy';
  return env.CLAUDE_PLUGIN_ROOT ? 'claude-code' : 'codebuddy';
}

/** The plugin's and its MCP server's name (manifests and `.mcp.json`). */
const PLUGIN = 'openviking';

/** `tool` of the plugin's MCP server, as `host` lists it to the model. */
export function mcpToolName(host: HostKind, tool: string): string {
  return host === 'claude-code' ? `mcp__plugin_${PLUGIN}_${PLUGIN}__${tool}` : `mcp__${PLUGIN}__${tool}`;
}

/**
 * How to reach the deferred MCP tools on `host`, as a clause after
 * "they are deferred tools: " (names only tools that host has).
 */
export function deferredToolsClause(host: HostKind): string {
  return host === 'claude-code'
    ? 'load them with ToolSearch {"query": "select:<tool name>"}, then call them directly'
    : 'call them through DeferExecuteTool with toolName and params';
}
