/**
 * The guard's table, shared by the in-process and the through-the-host tests:
 * each case is a tool call and the exact reason (or none) the model must get.
 */

const DEFERRED = (tool: string): string =>
  `OpenViking MCP tools are deferred on CodeBuddy: call them through DeferExecuteTool with toolName and params (or load them with ToolSearch); where ${tool} is listed directly, call it with the same params.`;

function reason(uri: string, toolName: string, alternatives: string, tool: string, params: Record<string, string>): string {
  return [
    `${uri} is an OpenViking URI, not a local path, so ${toolName} cannot use it.`,
    `Use ${alternatives} instead: DeferExecuteTool ${JSON.stringify({ toolName: tool, params })}`,
    DEFERRED(tool),
  ].join('\n');
}

export interface GuardCase {
  name: string;
  toolName: string;
  toolInput: unknown;
  /** The exact deny reason, or undefined for a pass. */
  reason: string | undefined;
}

const R = 'mcp__openviking__read';
const URI = 'viking://user/memories/x.md';

export const DENY_CASES: GuardCase[] = [
  { name: 'Read file_path', toolName: 'Read', toolInput: { file_path: URI }, reason: reason(URI, 'Read', R, R, { uris: URI }) },
  { name: 'Read upper-case scheme', toolName: 'Read', toolInput: { file_path: 'VIKING://user/memories/x.md' }, reason: reason(URI, 'Read', R, R, { uris: URI }) },
  { name: 'Read leading spaces', toolName: 'Read', toolInput: { file_path: '   viking://user/memories/x.md' }, reason: reason(URI, 'Read', R, R, { uris: URI }) },
  { name: 'Read single slash', toolName: 'Read', toolInput: { file_path: 'Viking:/user/memories/x.md' }, reason: reason(URI, 'Read', R, R, { uris: URI }) },
  { name: 'NotebookRead notebook_path', toolName: 'NotebookRead', toolInput: { notebook_path: 'viking://resources/a.ipynb' }, reason: reason('viking://resources/a.ipynb', 'NotebookRead', R, R, { uris: 'viking://resources/a.ipynb' }) },
  {
    name: 'Glob pattern with wildcards',
    toolName: 'Glob',
    toolInput: { pattern: 'viking://user/**/*.md' },
    reason: reason('viking://user/**/*.md', 'Glob', 'mcp__openviking__glob (or mcp__openviking__list for one folder)', 'mcp__openviking__glob', { pattern: '**/*.md', uri: 'viking://user/' }),
  },
  {
    name: 'Glob path with a local pattern',
    toolName: 'Glob',
    toolInput: { pattern: '*.md', path: 'viking://resources/docs' },
    reason: reason('viking://resources/docs', 'Glob', 'mcp__openviking__glob (or mcp__openviking__list for one folder)', 'mcp__openviking__glob', { pattern: '*.md', uri: 'viking://resources/docs' }),
  },
  {
    name: 'Grep path',
    toolName: 'Grep',
    toolInput: { pattern: 'TODO', path: 'viking://resources/' },
    reason: reason('viking://resources/', 'Grep', 'mcp__openviking__grep (or mcp__openviking__search to search by meaning)', 'mcp__openviking__grep', { uri: 'viking://resources/', pattern: 'TODO' }),
  },
  {
    name: 'Grep paths array, no pattern',
    toolName: 'Grep',
    toolInput: { paths: ['src', 'viking://agent/skills'] },
    reason: reason('viking://agent/skills', 'Grep', 'mcp__openviking__grep (or mcp__openviking__search to search by meaning)', 'mcp__openviking__grep', { uri: 'viking://agent/skills', pattern: '<regex>' }),
  },
  {
    name: 'Write file_path',
    toolName: 'Write',
    toolInput: { file_path: 'viking://user/notes.md', content: 'hello' },
    reason: reason('viking://user/notes.md', 'Write', 'mcp__openviking__write', 'mcp__openviking__write', { uri: 'viking://user/notes.md', content: '<the text>' }),
  },
  {
    name: 'NotebookEdit notebook_path',
    toolName: 'NotebookEdit',
    toolInput: { notebook_path: 'viking://user/n.ipynb', new_source: 'x' },
    reason: reason('viking://user/n.ipynb', 'NotebookEdit', 'mcp__openviking__write', 'mcp__openviking__write', { uri: 'viking://user/n.ipynb', content: '<the text>' }),
  },
  {
    name: 'Edit file_path',
    toolName: 'Edit',
    toolInput: { file_path: 'viking://user/a.md', old_string: 'a', new_string: 'b' },
    reason: reason('viking://user/a.md', 'Edit', 'mcp__openviking__edit', 'mcp__openviking__edit', { uri: 'viking://user/a.md', old_string: '<exact old text>', new_string: '<new text>' }),
  },
  {
    name: 'MultiEdit nested edits[].file_path',
    toolName: 'MultiEdit',
    toolInput: { file_path: '/ws/local.md', edits: [{ old_string: 'a', new_string: 'b' }, { file_path: ' viking://user/b.md', old_string: 'c', new_string: 'd' }] },
    reason: reason('viking://user/b.md', 'MultiEdit', 'mcp__openviking__edit', 'mcp__openviking__edit', { uri: 'viking://user/b.md', old_string: '<exact old text>', new_string: '<new text>' }),
  },
  { name: 'LS path', toolName: 'LS', toolInput: { path: 'viking://user/' }, reason: reason('viking://user/', 'LS', 'mcp__openviking__list', 'mcp__openviking__list', { uri: 'viking://user/' }) },
];

export const PASS_CASES: GuardCase[] = [
  { name: 'Read local path', toolName: 'Read', toolInput: { file_path: '/ws/src/viking.ts' }, reason: undefined },
  { name: 'Read a local folder named viking:', toolName: 'Read', toolInput: { file_path: '/ws/viking://x' }, reason: undefined },
  { name: 'Write content mentioning a URI', toolName: 'Write', toolInput: { file_path: '/ws/README.md', content: 'see viking://user/memories' }, reason: undefined },
  { name: 'Edit new_string with a URI', toolName: 'Edit', toolInput: { file_path: '/ws/a.ts', old_string: 'x', new_string: "const u = 'viking://resources'" }, reason: undefined },
  { name: 'MultiEdit edits with URI text only', toolName: 'MultiEdit', toolInput: { file_path: '/ws/a.md', edits: [{ old_string: 'viking://a', new_string: 'viking://b' }] }, reason: undefined },
  { name: 'Grep searching local code for the scheme', toolName: 'Grep', toolInput: { pattern: 'viking://', path: '/ws/src' }, reason: undefined },
  { name: 'Glob local', toolName: 'Glob', toolInput: { pattern: 'src/**/*.ts' }, reason: undefined },
  { name: 'viking: without a slash', toolName: 'Read', toolInput: { file_path: 'viking:notes' }, reason: undefined },
  { name: 'Bash with a URI', toolName: 'Bash', toolInput: { command: 'cat viking://user/x.md' }, reason: undefined },
  { name: 'Agent with a URI', toolName: 'Agent', toolInput: { prompt: 'read viking://user/x.md' }, reason: undefined },
  { name: 'DeferExecuteTool to the MCP read', toolName: 'DeferExecuteTool', toolInput: { toolName: 'mcp__openviking__read', params: { uris: 'viking://user/x.md' } }, reason: undefined },
  { name: 'the MCP read tool itself', toolName: 'mcp__openviking__read', toolInput: { uris: 'viking://user/x.md' }, reason: undefined },
  { name: 'the MCP glob tool itself', toolName: 'mcp__openviking__glob', toolInput: { pattern: '**', uri: 'viking://user/' }, reason: undefined },
  { name: 'lower-case tool name is not a host tool', toolName: 'read', toolInput: { file_path: 'viking://user/x.md' }, reason: undefined },
  { name: 'tool_input not an object', toolName: 'Read', toolInput: 'viking://user/x.md', reason: undefined },
  { name: 'tool_input missing', toolName: 'Read', toolInput: undefined, reason: undefined },
];

/** The exact stdout of a deny. */
export function denyBytes(reasonText: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reasonText } });
}
