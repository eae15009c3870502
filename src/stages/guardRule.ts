/**
 * The URI guard's rule: stops the model from handing a `viking://` URI to a
 * local file tool, and tells it which OpenViking MCP tool to call.
 *
 * A deny is the only channel that reaches the model on this host: the reason
 * comes back as the tool's error, and the model switches tools (seed 000 §5).
 * So the reason names the MCP tool by the name the CURRENT host gives it
 * (protocol/hostTools.ts: `mcp__openviking__<tool>` on CodeBuddy,
 * `mcp__plugin_openviking_openviking__<tool>` on Claude Code), gives a ready
 * call built from the denied URI, and says how to reach a deferred MCP tool
 * there (CodeBuddy: DeferExecuteTool or ToolSearch, codebuddy-host README §4;
 * Claude Code: ToolSearch only, §9).
 *
 * The URI is found wherever the host put it in a path: as given
 * (`viking://…`, any case), or as a path segment after the host made the
 * path absolute (Claude Code turns `viking://user/x` into
 * `<cwd>/viking:/user/x`) or the model prefixed it (`./viking://…`). A
 * segment must be exactly `viking:` followed by a separator or the end, so
 * `src/viking.ts` and `/home/me/vikings/notes.md` stay local paths.
 *
 * Only the host's own file tools are judged, and only their path-like
 * arguments: a Write whose CONTENT mentions viking:// or a Grep whose regex
 * searches for it is legitimate local work. MCP tools, DeferExecuteTool,
 * Bash and Agent pass untouched (hooks on MCP calls fire twice here, and a
 * Bash denial would only ever be a guess). One more denial: a Skill or
 * SlashCommand call that names one of the plugin's own commands, which are
 * the user's to type (commandGuard.ts).
 *
 * Pure and synchronous, with no import that does I/O: the PreToolUse stage
 * (guard.ts) and the hooks module's `tool.call` (src/mod/guard.ts) both run
 * it, and the module's bundle may hold no node builtin and no dynamic
 * import.
 *
 * @module
 */
import type { StageResult } from '../protocol/stage.js';
import { PASS } from '../protocol/stage.js';
import { isRecord } from '../util/json.js';
import type { HookInput } from '../protocol/input.js';
import { asToolNames, deferredToolsClause } from '../protocol/hostTools.js';
import type { HostKind, ToolNames } from '../protocol/hostTools.js';
import { COMMAND_TOOLS, commandDenyReason, pluginCommandNamed } from './commandGuard.js';

/** What the model should use instead, per family of host tools. */
type ToolFamily = 'read' | 'list' | 'glob' | 'grep' | 'write' | 'edit';

/** The host's file tools (2.117 bundle and Claude Code) and what each is; `LS` exists only on some hosts. */
const FILE_TOOL_FAMILIES: Readonly<Record<string, ToolFamily>> = {
  Read: 'read',
  NotebookRead: 'read',
  LS: 'list',
  Glob: 'glob',
  Grep: 'grep',
  Write: 'write',
  NotebookEdit: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
};

/** The tools the guard judges: hooks.json's PreToolUse matcher and the hooks module's `tool.call` matcher select them. */
export const GUARDED_TOOLS: readonly string[] = [...Object.keys(FILE_TOOL_FAMILIES), ...COMMAND_TOOLS];

export function fileToolFamily(toolName: string): ToolFamily | undefined {
  return Object.hasOwn(FILE_TOOL_FAMILIES, toolName) ? FILE_TOOL_FAMILIES[toolName] : undefined;
}

/** Arguments that name a file or folder on every file tool. `edits` holds per-edit objects on MultiEdit variants. */
const PATH_KEYS = ['file_path', 'filePath', 'filepath', 'path', 'paths', 'notebook_path', 'uri', 'edits'] as const;

/** How deep nested arrays/objects under path keys are searched. */
const MAX_DEPTH = 6;

/**
 * A `viking:` path segment, in any case: at the start (after optional spaces
 * or an opening quote) followed by a slash, or after a `/` or `\` separator
 * followed by one or by the end of the path.
 */
const VIKING_URI = /(?:^\s*["'`]?(?=viking:[/\\])|[/\\])(viking:(?:[/\\][^\s"'`]*|$))/i;

/** Longest URI or pattern quoted back to the model. */
const MAX_ECHO_CHARS = 300;

/** The guard's decision without the stage signature (synchronous, pure); `tools` default CodeBuddy's bundled ones. */
export function guardDecision(input: HookInput, tools: HostKind | ToolNames = 'codebuddy'): StageResult {
  if (input.hook_event_name !== 'PreToolUse' || typeof input.tool_name !== 'string') return PASS;
  const reason = guardDenyReason(input.tool_name, input.tool_input, tools);
  return reason === undefined ? PASS : { kind: 'deny', reason };
}

/**
 * The deny reason for a call of `toolName` with `toolInput`, or undefined to
 * let it run. The one rule both entries use: this stage, and the hooks
 * module's `tool.call` (src/mod/guard.ts).
 */
export function guardDenyReason(toolName: string, toolInput: unknown, tools: HostKind | ToolNames): string | undefined {
  if (COMMAND_TOOLS.has(toolName)) {
    const command = pluginCommandNamed(toolInput);
    return command === undefined ? undefined : commandDenyReason(command);
  }
  const family = fileToolFamily(toolName);
  if (family === undefined || !isRecord(toolInput)) return undefined;
  const found = findVikingPath(toolInput, family === 'glob');
  return found === undefined ? undefined : guardReason(toolName, family, found, toolInput, tools);
}

/**
 * A deny's reason naming the tools the user has (`configured`: the
 * configuration's, guardTools.ts), or `reason` (the host's bundled names)
 * when they cannot be read. Only a file tool's deny names tools: a Skill or
 * SlashCommand deny reads nothing. The hook stage calls it as it is (its
 * settings read is synchronous, D38); the hooks module's `tool.call`
 * (src/mod/guard.ts) through `namingConfiguredTools`.
 */
export function denyNamingTools(
  toolName: string,
  toolInput: unknown,
  reason: string,
  configured: () => ToolNames,
): string {
  if (COMMAND_TOOLS.has(toolName)) return reason;
  try {
    return guardDenyReason(toolName, toolInput, configured()) ?? reason;
  } catch {
    return reason; // the deny must still go out
  }
}

/** `denyNamingTools` with a configuration read that waits (the hooks module reads through its file snapshot). */
export async function namingConfiguredTools(
  toolName: string,
  toolInput: unknown,
  reason: string,
  configured: () => Promise<ToolNames>,
): Promise<string> {
  if (COMMAND_TOOLS.has(toolName)) return reason;
  try {
    const names = await configured();
    return denyNamingTools(toolName, toolInput, reason, () => names);
  } catch {
    return reason; // the deny must still go out
  }
}

/** Where the URI was found: the URI (scheme spelled `viking://`) and the argument that held it. */
interface FoundUri {
  uri: string;
  key: string;
}

/**
 * The first viking URI in a path-like argument.
 * @param toolInput - the tool's arguments.
 * @param patternIsPath - Glob's `pattern` is a path pattern; Grep's is a content regex and is not searched.
 */
export function findVikingPath(
  toolInput: Readonly<Record<string, unknown>>,
  patternIsPath: boolean,
): FoundUri | undefined {
  const keys: readonly string[] = patternIsPath ? ['pattern', ...PATH_KEYS] : PATH_KEYS;
  for (const key of keys) {
    if (!Object.hasOwn(toolInput, key)) continue;
    const uri = findInValue(toolInput[key], keys, 0);
    if (uri !== undefined) return { uri, key };
  }
  return undefined;
}

function findInValue(value: unknown, keys: readonly string[], depth: number): string | undefined {
  if (typeof value === 'string') {
    const uri = VIKING_URI.exec(value)?.[1];
    return uri === undefined ? undefined : canonicalUri(uri.slice('viking:'.length));
  }
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const uri = findInValue(item, keys, depth + 1);
      if (uri !== undefined) return uri;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const key of keys) {
    if (!Object.hasOwn(value, key)) continue;
    const uri = findInValue(value[key], keys, depth + 1);
    if (uri !== undefined) return uri;
  }
  return undefined;
}

/** `viking://` + the path after the scheme; a Windows-made path (`viking:\\user\\x`) gets forward slashes. */
function canonicalUri(afterScheme: string): string {
  const path = afterScheme.startsWith('\\') ? afterScheme.replace(/\\/g, '/') : afterScheme;
  return `viking://${path.replace(/^\/+/, '')}`;
}

/** The three-line deny reason the model reads as the tool's error, naming only tools of `tools`' host. */
export function guardReason(
  toolName: string,
  family: ToolFamily,
  found: FoundUri,
  toolInput: Readonly<Record<string, unknown>>,
  tools: HostKind | ToolNames,
): string {
  const names = asToolNames(tools);
  const host = names.host;
  const uri = clip(found.uri);
  const call = suggestedCall(family, found, toolInput, (tool) => names.name(tool));
  const params = JSON.stringify(call.params);
  const first = `${uri} is an OpenViking URI, not a local path, so ${toolName} cannot use it.`;
  if (host === 'claude-code') {
    return [
      first,
      `Use ${call.alternatives} instead: ${call.tool} ${params}`,
      `OpenViking MCP tools are deferred in Claude Code: if ${call.tool} is not loaded yet, load it first with ToolSearch ${JSON.stringify({ query: `select:${call.tool}` })}, then call it with the params above.`,
    ].join('\n');
  }
  return [
    first,
    `Use ${call.alternatives} instead: DeferExecuteTool ${JSON.stringify({ toolName: call.tool, params: call.params })}`,
    `OpenViking MCP tools are deferred on CodeBuddy: ${deferredToolsClause(host)} (or load them with ToolSearch); where ${call.tool} is listed directly, call it with the same params.`,
  ].join('\n');
}

interface SuggestedCall {
  tool: string;
  alternatives: string;
  params: Record<string, string>;
}

function suggestedCall(
  family: ToolFamily,
  found: FoundUri,
  toolInput: Readonly<Record<string, unknown>>,
  mcp: (tool: string) => string,
): SuggestedCall {
  const uri = clip(found.uri);
  switch (family) {
    case 'read':
      return { tool: mcp('read'), alternatives: mcp('read'), params: { uris: uri } };
    case 'list':
      return { tool: mcp('list'), alternatives: mcp('list'), params: { uri } };
    case 'glob':
      return {
        tool: mcp('glob'),
        alternatives: `${mcp('glob')} (or ${mcp('list')} for one folder)`,
        params: globParams(found, toolInput),
      };
    case 'grep':
      return {
        tool: mcp('grep'),
        alternatives: `${mcp('grep')} (or ${mcp('search')} to search by meaning)`,
        params: { uri, pattern: stringArg(toolInput.pattern) ?? '<regex>' },
      };
    case 'write':
      return { tool: mcp('write'), alternatives: mcp('write'), params: { uri, content: '<the text>' } };
    case 'edit':
      return {
        tool: mcp('edit'),
        alternatives: mcp('edit'),
        params: { uri, old_string: '<exact old text>', new_string: '<new text>' },
      };
  }
}

/** Glob on a URI pattern (`viking://user/**\/*.md`) splits into the folder URI and the pattern below it. */
function globParams(found: FoundUri, toolInput: Readonly<Record<string, unknown>>): Record<string, string> {
  const wildcard = found.uri.search(/[*?[{]/);
  if (wildcard >= 0) {
    const cut = found.uri.lastIndexOf('/', wildcard) + 1;
    return { pattern: clip(found.uri.slice(cut)) || '**/*', uri: clip(found.uri.slice(0, cut)) };
  }
  const pattern = found.key === 'pattern' ? undefined : stringArg(toolInput.pattern);
  return { pattern: pattern ?? '**/*', uri: clip(found.uri) };
}

function stringArg(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && !VIKING_URI.test(value) ? clip(value) : undefined;
}

function clip(text: string): string {
  return text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}…` : text;
}
