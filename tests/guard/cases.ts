/**
 * The guard's table, shared by the in-process and the through-the-host tests:
 * each case is a tool call and the exact reason (or none) the model must get
 * on each host. Paths come in the shapes the hosts really send: CodeBuddy
 * 2.117 passes the model's `viking://…` through (codebuddy-host samples A,
 * B); Claude Code 2.1.328 makes it absolute, `<cwd>/viking:/user/…` (§9).
 * The reasons are written out here, not built by the code under test.
 */

import { expect } from 'vitest';

export type GuardHost = 'codebuddy' | 'claude-code';
export const GUARD_HOSTS: GuardHost[] = ['codebuddy', 'claude-code'];

/** What a deny must say: the URI, the MCP tool (short name) and the ready params. */
interface ExpectedDeny {
  uri: string;
  /** Short MCP tool name (`read`, `glob`, …). */
  tool: string;
  /** Short name of the second choice the reason offers, if any. */
  also?: { tool: string; why: string };
  params: Record<string, string>;
}

export interface GuardCase {
  name: string;
  toolName: string;
  toolInput: unknown;
  /** Undefined for a pass. */
  deny: ExpectedDeny | undefined;
}

/** The tool's name as each host lists it to the model. */
export function hostToolName(host: GuardHost, tool: string): string {
  return host === 'claude-code' ? `mcp__plugin_openviking_openviking__${tool}` : `mcp__openviking__${tool}`;
}

/** The exact deny reason on `host`, or undefined for a pass. */
export function expectedReason(c: GuardCase, host: GuardHost): string | undefined {
  if (c.deny === undefined) return undefined;
  const { uri, params } = c.deny;
  const tool = hostToolName(host, c.deny.tool);
  const alternatives =
    c.deny.also === undefined ? tool : `${tool} (or ${hostToolName(host, c.deny.also.tool)} ${c.deny.also.why})`;
  const first = `${uri} is an OpenViking URI, not a local path, so ${c.toolName} cannot use it.`;
  if (host === 'claude-code') {
    return [
      first,
      `Use ${alternatives} instead: ${tool} ${JSON.stringify(params)}`,
      `OpenViking MCP tools are deferred in Claude Code: if ${tool} is not loaded yet, load it first with ToolSearch {"query":"select:${tool}"}, then call it with the params above.`,
    ].join('\n');
  }
  return [
    first,
    `Use ${alternatives} instead: DeferExecuteTool ${JSON.stringify({ toolName: tool, params })}`,
    `OpenViking MCP tools are deferred on CodeBuddy: call them through DeferExecuteTool with toolName and params (or load them with ToolSearch); where ${tool} is listed directly, call it with the same params.`,
  ].join('\n');
}

const URI = 'viking://user/memories/x.md';
/** The workspace of Claude Code's absolute paths (any cwd; the guard must not need it). */
const CWD = '/home/dev/runs/cc/ws';
const read = (uri: string): ExpectedDeny => ({ uri, tool: 'read', params: { uris: uri } });
const list = (uri: string): ExpectedDeny => ({ uri, tool: 'list', params: { uri } });
const glob = (uri: string, params: Record<string, string>): ExpectedDeny => ({
  uri,
  tool: 'glob',
  also: { tool: 'list', why: 'for one folder' },
  params,
});
const grep = (uri: string, pattern: string): ExpectedDeny => ({
  uri,
  tool: 'grep',
  also: { tool: 'search', why: 'to search by meaning' },
  params: { uri, pattern },
});
const write = (uri: string): ExpectedDeny => ({ uri, tool: 'write', params: { uri, content: '<the text>' } });
const edit = (uri: string): ExpectedDeny => ({
  uri,
  tool: 'edit',
  params: { uri, old_string: '<exact old text>', new_string: '<new text>' },
});

export const DENY_CASES: GuardCase[] = [
  // As CodeBuddy passes them (the model's own spelling).
  { name: 'Read file_path', toolName: 'Read', toolInput: { file_path: URI }, deny: read(URI) },
  {
    name: 'Read upper-case scheme',
    toolName: 'Read',
    toolInput: { file_path: 'VIKING://user/memories/x.md' },
    deny: read(URI),
  },
  {
    name: 'Read leading spaces',
    toolName: 'Read',
    toolInput: { file_path: '   viking://user/memories/x.md' },
    deny: read(URI),
  },
  {
    name: 'Read single slash',
    toolName: 'Read',
    toolInput: { file_path: 'Viking:/user/memories/x.md' },
    deny: read(URI),
  },
  {
    name: 'Read ./ prefixed',
    toolName: 'Read',
    toolInput: { file_path: './viking://user/memories/x.md' },
    deny: read(URI),
  },
  {
    name: 'NotebookRead notebook_path',
    toolName: 'NotebookRead',
    toolInput: { notebook_path: 'viking://resources/a.ipynb' },
    deny: read('viking://resources/a.ipynb'),
  },
  {
    name: 'Glob pattern with wildcards',
    toolName: 'Glob',
    toolInput: { pattern: 'viking://user/**/*.md' },
    deny: glob('viking://user/**/*.md', { pattern: '**/*.md', uri: 'viking://user/' }),
  },
  {
    name: 'Glob path with a local pattern',
    toolName: 'Glob',
    toolInput: { pattern: '*.md', path: 'viking://resources/docs' },
    deny: glob('viking://resources/docs', { pattern: '*.md', uri: 'viking://resources/docs' }),
  },
  {
    name: 'Grep path',
    toolName: 'Grep',
    toolInput: { pattern: 'TODO', path: 'viking://resources/' },
    deny: grep('viking://resources/', 'TODO'),
  },
  {
    name: 'Grep paths array, no pattern',
    toolName: 'Grep',
    toolInput: { paths: ['src', 'viking://agent/skills'] },
    deny: grep('viking://agent/skills', '<regex>'),
  },
  {
    name: 'Write file_path',
    toolName: 'Write',
    toolInput: { file_path: 'viking://user/notes.md', content: 'hello' },
    deny: write('viking://user/notes.md'),
  },
  {
    name: 'NotebookEdit notebook_path',
    toolName: 'NotebookEdit',
    toolInput: { notebook_path: 'viking://user/n.ipynb', new_source: 'x' },
    deny: write('viking://user/n.ipynb'),
  },
  {
    name: 'Edit file_path',
    toolName: 'Edit',
    toolInput: { file_path: 'viking://user/a.md', old_string: 'a', new_string: 'b' },
    deny: edit('viking://user/a.md'),
  },
  {
    name: 'MultiEdit nested edits[].file_path',
    toolName: 'MultiEdit',
    toolInput: {
      file_path: '/ws/local.md',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { file_path: ' viking://user/b.md', old_string: 'c', new_string: 'd' },
      ],
    },
    deny: edit('viking://user/b.md'),
  },
  { name: 'LS path', toolName: 'LS', toolInput: { path: 'viking://user/' }, deny: list('viking://user/') },

  // As Claude Code passes them: made absolute against the cwd, `//` collapsed (§9).
  {
    name: 'Claude Code Read, absolute',
    toolName: 'Read',
    toolInput: { file_path: `${CWD}/viking:/user/alice/memories/x.md` },
    deny: read('viking://user/alice/memories/x.md'),
  },
  {
    name: 'Claude Code Read, absolute, upper case',
    toolName: 'Read',
    toolInput: { file_path: `${CWD}/VIKING:/user/alice/memories/x.md` },
    deny: read('viking://user/alice/memories/x.md'),
  },
  {
    name: 'Claude Code Read of ./viking://, absolute',
    toolName: 'Read',
    toolInput: { file_path: `${CWD}/./viking:/user/x.md` },
    deny: read('viking://user/x.md'),
  },
  {
    name: 'Claude Code Write, absolute',
    toolName: 'Write',
    toolInput: { file_path: `${CWD}/viking:/user/notes.md`, content: 'hello' },
    deny: write('viking://user/notes.md'),
  },
  {
    name: 'Claude Code Edit, absolute',
    toolName: 'Edit',
    toolInput: { file_path: `${CWD}/viking:/user/a.md`, old_string: 'a', new_string: 'b', replace_all: false },
    deny: edit('viking://user/a.md'),
  },
  {
    name: 'Claude Code MultiEdit file_path, absolute',
    toolName: 'MultiEdit',
    toolInput: { file_path: `${CWD}/viking:/user/b.md`, edits: [{ old_string: 'c', new_string: 'd' }] },
    deny: edit('viking://user/b.md'),
  },
  {
    name: 'Claude Code NotebookEdit notebook_path, absolute',
    toolName: 'NotebookEdit',
    toolInput: { notebook_path: `${CWD}/viking:/user/n.ipynb`, new_source: 'x', edit_mode: 'replace' },
    deny: write('viking://user/n.ipynb'),
  },
  {
    name: 'Claude Code Glob path, absolute',
    toolName: 'Glob',
    toolInput: { pattern: '**/*.md', path: `${CWD}/viking:/resources/docs` },
    deny: glob('viking://resources/docs', { pattern: '**/*.md', uri: 'viking://resources/docs' }),
  },
  {
    name: 'Claude Code Grep path, absolute',
    toolName: 'Grep',
    toolInput: { pattern: 'TODO', path: `${CWD}/viking:/resources`, output_mode: 'content' },
    deny: grep('viking://resources', 'TODO'),
  },
  {
    name: 'Claude Code LS of the root, absolute',
    toolName: 'LS',
    toolInput: { path: `${CWD}/viking:` },
    deny: list('viking://'),
  },
  {
    name: 'a Windows path',
    toolName: 'Read',
    toolInput: { file_path: 'C:\\Users\\dev\\ws\\viking:\\user\\x.md' },
    deny: read('viking://user/x.md'),
  },
  {
    name: 'a local path keeping the double slash',
    toolName: 'Read',
    toolInput: { file_path: '/ws/viking://x' },
    deny: read('viking://x'),
  },
];

export const PASS_CASES: GuardCase[] = [
  { name: 'Read local path', toolName: 'Read', toolInput: { file_path: '/ws/src/viking.ts' }, deny: undefined },
  { name: 'Read a relative viking.ts', toolName: 'Read', toolInput: { file_path: 'src/viking.ts' }, deny: undefined },
  {
    name: 'Read under a vikings folder',
    toolName: 'Read',
    toolInput: { file_path: '/home/me/vikings/notes.md' },
    deny: undefined,
  },
  {
    name: 'Read under a viking folder',
    toolName: 'Read',
    toolInput: { file_path: `${CWD}/viking/notes.md` },
    deny: undefined,
  },
  {
    name: 'a segment ending in viking:',
    toolName: 'Read',
    toolInput: { file_path: `${CWD}/my-viking:/notes.md` },
    deny: undefined,
  },
  {
    name: 'a segment starting with viking: and more',
    toolName: 'Read',
    toolInput: { file_path: `${CWD}/viking:notes/x.md` },
    deny: undefined,
  },
  {
    name: 'Glob for viking files',
    toolName: 'Glob',
    toolInput: { pattern: '**/viking*.ts', path: CWD },
    deny: undefined,
  },
  {
    name: 'Write content mentioning a URI',
    toolName: 'Write',
    toolInput: { file_path: '/ws/README.md', content: 'see viking://user/memories' },
    deny: undefined,
  },
  {
    name: 'Edit new_string with a URI',
    toolName: 'Edit',
    toolInput: { file_path: '/ws/a.ts', old_string: 'x', new_string: "const u = 'viking://resources'" },
    deny: undefined,
  },
  {
    name: 'MultiEdit edits with URI text only',
    toolName: 'MultiEdit',
    toolInput: { file_path: '/ws/a.md', edits: [{ old_string: 'viking://a', new_string: 'viking://b' }] },
    deny: undefined,
  },
  {
    name: 'Grep searching local code for the scheme',
    toolName: 'Grep',
    toolInput: { pattern: 'viking://', path: '/ws/src' },
    deny: undefined,
  },
  { name: 'Glob local', toolName: 'Glob', toolInput: { pattern: 'src/**/*.ts' }, deny: undefined },
  { name: 'viking: without a slash', toolName: 'Read', toolInput: { file_path: 'viking:notes' }, deny: undefined },
  { name: 'Bash with a URI', toolName: 'Bash', toolInput: { command: 'cat viking://user/x.md' }, deny: undefined },
  { name: 'Agent with a URI', toolName: 'Agent', toolInput: { prompt: 'read viking://user/x.md' }, deny: undefined },
  {
    name: 'DeferExecuteTool to the MCP read',
    toolName: 'DeferExecuteTool',
    toolInput: { toolName: 'mcp__openviking__read', params: { uris: 'viking://user/x.md' } },
    deny: undefined,
  },
  {
    name: 'the MCP read tool itself',
    toolName: 'mcp__openviking__read',
    toolInput: { uris: 'viking://user/x.md' },
    deny: undefined,
  },
  {
    name: 'the Claude Code MCP read tool itself',
    toolName: 'mcp__plugin_openviking_openviking__read',
    toolInput: { uris: 'viking://user/x.md' },
    deny: undefined,
  },
  {
    name: 'ToolSearch for the MCP read',
    toolName: 'ToolSearch',
    toolInput: { query: 'select:mcp__plugin_openviking_openviking__read' },
    deny: undefined,
  },
  {
    name: 'the MCP glob tool itself',
    toolName: 'mcp__openviking__glob',
    toolInput: { pattern: '**', uri: 'viking://user/' },
    deny: undefined,
  },
  {
    name: 'lower-case tool name is not a host tool',
    toolName: 'read',
    toolInput: { file_path: 'viking://user/x.md' },
    deny: undefined,
  },
  { name: 'tool_input not an object', toolName: 'Read', toolInput: 'viking://user/x.md', deny: undefined },
  { name: 'tool_input missing', toolName: 'Read', toolInput: undefined, deny: undefined },
];

/**
 * A hook's stdout as the host gets it: the answer's exact bytes, and on CodeBuddy the read barrier's blank
 * space after them (src/protocol/readBarrier.ts, F45: more than the socket holds, so the hook cannot exit
 * before the host read the answer; the host trims it before parsing). Claude Code gets the bytes alone.
 */
export function expectHostStdout(stdout: string | undefined, bytes: string, host: GuardHost, label?: string): void {
  if (host === 'claude-code') return void expect(stdout, label).toBe(bytes);
  expect(stdout?.slice(0, bytes.length), label).toBe(bytes);
  expect(stdout?.slice(bytes.length).trim(), label).toBe('');
  expect(stdout?.length ?? 0, label).toBeGreaterThan(bytes.length + 64 * 1024);
}

/** The exact stdout of a deny. */
export function denyBytes(reasonText: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reasonText,
    },
  });
}
