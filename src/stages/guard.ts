/**
 * The URI guard (PreToolUse): stops the model from handing a `viking://` URI
 * to a local file tool, and tells it which OpenViking MCP tool to call.
 *
 * A deny is the only channel that reaches the model on this host: the reason
 * comes back as the tool's error, and the model switches tools (seed 000 §5).
 * So the reason names the MCP tool by the name the model sees
 * (`mcp__openviking__<tool>`), gives a ready call built from the denied URI,
 * and says how to reach a deferred MCP tool on CodeBuddy (DeferExecuteTool,
 * or ToolSearch; codebuddy-host README §4).
 *
 * Only the host's own file tools are judged, and only their path-like
 * arguments: a Write whose CONTENT mentions viking:// or a Grep whose regex
 * searches for it is legitimate local work. MCP tools, DeferExecuteTool,
 * Bash and Agent pass untouched (hooks on MCP calls fire twice here, and a
 * Bash denial would only ever be a guess).
 *
 * Imports nothing at run time: no config, no network, no store.
 *
 * @module
 */
import type { HookDeps, StageResult } from '../hook/deps.js';
import { PASS } from '../hook/deps.js';
import { isRecord } from '../openviking/narrow.js';
import type { HookInput } from '../protocol/input.js';

/** What the model should use instead, per family of host tools. */
type ToolFamily = 'read' | 'list' | 'glob' | 'grep' | 'write' | 'edit';

/** The host's file tools (2.117 bundle and Claude Code); `LS` exists only on some hosts. */
export function fileToolFamily(toolName: string): ToolFamily | undefined {
  switch (toolName) {
    case 'Read':
    case 'NotebookRead':
      return 'read';
    case 'LS':
      return 'list';
    case 'Glob':
      return 'glob';
    case 'Grep':
      return 'grep';
    case 'Write':
    case 'NotebookEdit':
      return 'write';
    case 'Edit':
    case 'MultiEdit':
      return 'edit';
    default:
      return undefined;
  }
}

/** Arguments that name a file or folder on every file tool. `edits` holds per-edit objects on MultiEdit variants. */
const PATH_KEYS = ['file_path', 'filePath', 'filepath', 'path', 'paths', 'notebook_path', 'uri', 'edits'] as const;

/** How deep nested arrays/objects under path keys are searched. */
const MAX_DEPTH = 6;

/** `viking:` then at least one slash, in any case, after optional spaces or an opening quote. */
const VIKING_URI = /^\s*["'`]?(viking:\/[^\s"'`]*)/i;

/** Longest URI or pattern quoted back to the model. */
const MAX_ECHO_CHARS = 300;

/** PreToolUse stage: deny file tools aimed at viking:// URIs; pass everything else. */
export function runGuard(input: HookInput, _deps: HookDeps): StageResult {
  return guardDecision(input);
}

/** The guard's decision without the stage signature (synchronous, pure). */
export function guardDecision(input: HookInput): StageResult {
  if (input.hook_event_name !== 'PreToolUse' || typeof input.tool_name !== 'string') return PASS;
  const family = fileToolFamily(input.tool_name);
  if (family === undefined || !isRecord(input.tool_input)) return PASS;
  const found = findVikingPath(input.tool_input, family === 'glob');
  if (found === undefined) return PASS;
  return { kind: 'deny', reason: guardReason(input.tool_name, family, found, input.tool_input) };
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
export function findVikingPath(toolInput: Readonly<Record<string, unknown>>, patternIsPath: boolean): FoundUri | undefined {
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
    return uri === undefined ? undefined : uri.replace(/^viking:\/+/i, 'viking://');
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

/** The three-line deny reason the model reads as the tool's error. */
export function guardReason(toolName: string, family: ToolFamily, found: FoundUri, toolInput: Readonly<Record<string, unknown>>): string {
  const uri = clip(found.uri);
  const call = suggestedCall(family, found, toolInput);
  return [
    `${uri} is an OpenViking URI, not a local path, so ${toolName} cannot use it.`,
    `Use ${call.alternatives} instead: DeferExecuteTool ${JSON.stringify({ toolName: call.tool, params: call.params })}`,
    `OpenViking MCP tools are deferred on CodeBuddy: call them through DeferExecuteTool with toolName and params (or load them with ToolSearch); where ${call.tool} is listed directly, call it with the same params.`,
  ].join('\n');
}

interface SuggestedCall {
  tool: string;
  alternatives: string;
  params: Record<string, string>;
}

const MCP = 'mcp__openviking__';

function suggestedCall(family: ToolFamily, found: FoundUri, toolInput: Readonly<Record<string, unknown>>): SuggestedCall {
  const uri = clip(found.uri);
  switch (family) {
    case 'read':
      return { tool: `${MCP}read`, alternatives: `${MCP}read`, params: { uris: uri } };
    case 'list':
      return { tool: `${MCP}list`, alternatives: `${MCP}list`, params: { uri } };
    case 'glob':
      return { tool: `${MCP}glob`, alternatives: `${MCP}glob (or ${MCP}list for one folder)`, params: globParams(found, toolInput) };
    case 'grep':
      return {
        tool: `${MCP}grep`,
        alternatives: `${MCP}grep (or ${MCP}search to search by meaning)`,
        params: { uri, pattern: stringArg(toolInput.pattern) ?? '<regex>' },
      };
    case 'write':
      return { tool: `${MCP}write`, alternatives: `${MCP}write`, params: { uri, content: '<the text>' } };
    case 'edit':
      return { tool: `${MCP}edit`, alternatives: `${MCP}edit`, params: { uri, old_string: '<exact old text>', new_string: '<new text>' } };
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
