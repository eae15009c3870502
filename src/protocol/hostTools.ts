/**
 * Which host runs this process, and what the model may be told there: the
 * names of the OpenViking MCP tools it can call (DESIGN D23, D29) and how
 * much context one hook answer may carry before the host stops passing it
 * whole (DESIGN D28). Every text the model reads (the guard's deny reason,
 * the recall and start blocks) is built from these, so it names tools that
 * exist where it is read and fits where it is delivered.
 *
 * - CodeBuddy names a plugin's MCP tools `mcp__<server key>__<tool>` and
 *   defers them: the model calls `DeferExecuteTool {toolName, params}` or
 *   loads them with `ToolSearch` (codebuddy-host README §4).
 * - Claude Code names them `mcp__plugin_<plugin>_<server>__<tool>`, defers
 *   them behind `ToolSearch` (`{"query": "select:<name>"}`), and has no
 *   `DeferExecuteTool` (§9). A server the user registered themselves is
 *   `mcp__<server key>__<tool>` on both hosts (Claude Code turns every
 *   character outside `[a-zA-Z0-9_-]` of the key into `_`; read from the
 *   2.1.328 binary), deferred the same way.
 * - With `mcpEnabled` off (the bundled proxy offers no tools: hooks only,
 *   for an organisation's own OpenViking MCP, upstream #3465), the names are
 *   those of the user's server, `mcpServer`: a server key, or a literal
 *   tool-name prefix when it starts with `mcp__`.
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

/**
 * Claude Code 2.1.328 and 2.1.332 pass a shell hook's `additionalContext` on
 * whole up to this many UTF-16 code units (`String.length`), on every event;
 * past it the model gets a `<persisted-output>` notice with a 2,000-unit
 * preview instead (measured: ../notes/mods-tui-facts.md F-B1, F-B2).
 */
export const CLAUDE_CODE_HOOK_CONTEXT_LIMIT = 10_000;

/** Kept free under a host's limit, so a small change in how it counts cannot tip a full block over. */
const CONTEXT_MARGIN = 500;

/**
 * The most UTF-16 code units one shell hook answer's context may hold on
 * `host`, or undefined when the host passes any size whole (CodeBuddy 2.117
 * passed 15 KB; its blocks keep their token budgets alone). An in-process
 * module's answer is not capped by Claude Code (F-B5): it passes its own cap.
 */
export function hookContextCap(host: HostKind): number | undefined {
  return host === 'claude-code' ? CLAUDE_CODE_HOOK_CONTEXT_LIMIT - CONTEXT_MARGIN : undefined;
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

/** The OpenViking MCP tools the model is pointed at on one host. */
export interface ToolNames {
  host: HostKind;
  /** `tool` (`read`, `list`, `search`, …) as the model calls it. */
  name(tool: string): string;
  /** True for the plugin's bundled server, false for the user's own (`mcpEnabled` off). */
  bundled: boolean;
}

/** The two settings that choose the tools (config knobs `mcpEnabled`, `mcpServer`). */
export interface McpChoice {
  mcpEnabled: boolean;
  mcpServer: string;
}

/** The tools of `host`: the bundled server's, or with `mcpEnabled` off the user's `mcpServer`. */
export function toolNamesFor(host: HostKind, choice?: McpChoice): ToolNames {
  if (choice === undefined || choice.mcpEnabled)
    return { host, bundled: true, name: (tool) => mcpToolName(host, tool) };
  const prefix = userToolPrefix(choice.mcpServer);
  return { host, bundled: false, name: (tool) => `${prefix}${tool}` };
}

/**
 * `mcp__<key>__` of a server key, or a literal `mcp__…` prefix ending in
 * `__`; characters outside `[a-zA-Z0-9_-]` as `_` either way, at most 64.
 * The settings already refuse a value of another shape (config/knobs/switches.ts,
 * issue 29 item 3); this keeps whatever reaches here a tool name's shape,
 * since it goes into text the model reads.
 */
export function userToolPrefix(server: string): string {
  const value = server.trim();
  const literal = value.startsWith('mcp__');
  const name = (literal ? value : `mcp__${value}`).replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return name.endsWith('__') ? name : `${name}__`;
}

/** A `HostKind` (the bundled tools) or tool names as they are. */
export function asToolNames(tools: HostKind | ToolNames): ToolNames {
  return typeof tools === 'string' ? toolNamesFor(tools) : tools;
}
