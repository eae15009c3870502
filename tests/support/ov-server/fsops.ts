/**
 * Filesystem operations with OpenViking's semantics, shared by the REST
 * routes and the MCP tools: `ls` entry shapes (agent vs original output,
 * file abstracts always "" in agent output, contract §2.3 and §9.6), read,
 * write/edit/forget with the writable-scope rules of the MCP `write` tool,
 * grep, glob and tree. URIs arrive canonical (see uri.ts).
 *
 * @module
 */
import type { Identity } from './types.js';
import type { ServerState } from './state.js';
import type { DirEntry } from './vfs.js';
import { invalidArgument, notFound, permissionDenied } from './errors.js';
import { joinUri, uriSegments } from './uri.js';

export interface LsParams {
  recursive: boolean;
  output: 'agent' | 'original';
  absLimit: number;
  nodeLimit: number;
  simple: boolean;
  showAllHidden: boolean;
}

/** Levels `recursive=true` walks (`level_limit = 3`, not exposed by the route). */
export const RECURSIVE_LEVELS = 3;
const WRITABLE_EXTENSIONS = ['.md', '.txt', '.json', '.yaml', '.yml', '.toml', '.py', '.js', '.ts'];
/** Under a user's root, 0.5.2 writes only here (and files at the root itself). */
const WRITABLE_USER_AREAS = new Set(['memories', 'resources']);

/** Makes sure the caller's home exists, as the server's first request does. */
export function ensureHome(state: ServerState, identity: Identity): void {
  state.vfs.mkdir(identity.account, joinUri(['user', identity.user]));
}

export function listEntries(state: ServerState, identity: Identity, uri: string, params: LsParams): unknown[] {
  const { vfs } = state;
  if (vfs.read(identity.account, uri) !== undefined) throw invalidArgument(`Not a directory: ${uri}`);
  if (!vfs.isDir(identity.account, uri))
    throw notFound(`Directory not found: ${uri}`, { type: 'directory', resource: uri });
  const entries = vfs
    .list(identity.account, uri, params.recursive ? RECURSIVE_LEVELS : 1)
    .filter((entry) => params.showAllHidden || !entry.relPath.split('/').some((segment) => segment.startsWith('.')))
    .filter((entry) => isVisibleTo(entry.uri, identity))
    .slice(0, params.nodeLimit);
  if (params.simple) return entries.map((entry) => entry.uri);
  return entries.map((entry) =>
    params.output === 'original' ? originalEntry(entry, params) : agentEntry(state, identity, entry, params),
  );
}

function isVisibleTo(uri: string, identity: Identity): boolean {
  const [scope, owner] = uriSegments(uri);
  return identity.role === 'root' || scope !== 'user' || owner === undefined || owner === identity.user;
}

function originalEntry(entry: DirEntry, params: LsParams): Record<string, unknown> {
  return {
    name: entry.name,
    size: entry.file?.content.length ?? 0,
    mode: entry.isDir ? 0o755 : 0o644,
    modTime: entry.file?.modTime ?? new Date(0).toISOString(),
    isDir: entry.isDir,
    meta: {},
    uri: entry.uri,
    ...(params.recursive ? { rel_path: entry.relPath } : {}),
  };
}

function agentEntry(
  state: ServerState,
  identity: Identity,
  entry: DirEntry,
  params: LsParams,
): Record<string, unknown> {
  const dirAbstract = entry.isDir ? (state.vfs.read(identity.account, `${entry.uri}/.abstract.md`)?.content ?? '') : '';
  return {
    uri: entry.uri,
    size: entry.file?.content.length ?? 0,
    isDir: entry.isDir,
    modTime: entry.file?.modTime ?? new Date(0).toISOString(),
    abstract: dirAbstract.slice(0, params.absLimit),
    ...(params.recursive ? { rel_path: entry.relPath } : {}),
  };
}

/** File text by lines: `offset` first line (0-based), `limit` lines (−1 = all). */
export function readText(state: ServerState, identity: Identity, uri: string, offset = 0, limit = -1): string {
  const file = state.vfs.read(identity.account, uri);
  if (file === undefined) {
    if (state.vfs.isDir(identity.account, uri)) throw invalidArgument(`Is a directory: ${uri}`);
    throw notFound(`File not found: ${uri}`, { type: 'file', resource: uri });
  }
  if (offset === 0 && limit < 0) return file.content;
  const lines = file.content.split('\n').slice(offset);
  return (limit < 0 ? lines : lines.slice(0, limit)).join('\n');
}

export type WriteMode = 'replace' | 'append' | 'create';

/**
 * `content/write` and the MCP `write` tool: `create` is 0.5.2's upsert alias
 * of `replace` (it overwrites, never conflicts: docs/host-facts.md F40), a
 * new file needs a text extension, and a memory file's abstract is its text
 * (as find shows it).
 */
export function writeText(
  state: ServerState,
  identity: Identity,
  uri: string,
  content: string,
  mode: WriteMode,
): { uri: string; created: boolean; bytes: number } {
  assertWritable(uri, identity);
  const existing = state.vfs.read(identity.account, uri);
  if (existing === undefined) {
    const extension = /\.[^./]+$/.exec(uri)?.[0] ?? '';
    if (!WRITABLE_EXTENSIONS.includes(extension))
      throw invalidArgument(`creating a new file does not allow extension '${extension}': ${uri}`);
    if (state.vfs.isDir(identity.account, uri)) throw invalidArgument(`Is a directory: ${uri}`);
  }
  const text = mode === 'append' && existing !== undefined ? existing.content + content : content;
  const memory = uriSegments(uri).includes('memories');
  state.vfs.write(
    identity.account,
    uri,
    { content: text, tags: existing?.tags ?? [], ...(memory ? { abstract: text } : {}) },
    new Date(state.now()).toISOString(),
  );
  return { uri, created: existing === undefined, bytes: Buffer.byteLength(text) };
}

export function editText(
  state: ServerState,
  identity: Identity,
  uri: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
): number {
  assertWritable(uri, identity);
  const file = state.vfs.read(identity.account, uri);
  if (file === undefined) throw notFound(`File not found: ${uri}`);
  if (oldString === '') throw invalidArgument('old_string must not be empty');
  const count = file.content.split(oldString).length - 1;
  if (count === 0) throw invalidArgument(`old_string not found in ${uri}`);
  if (count > 1 && !replaceAll)
    throw invalidArgument(`old_string matches ${count} times in ${uri}; pass replace_all or a longer string`);
  const content = replaceAll
    ? file.content.split(oldString).join(newString)
    : file.content.replace(oldString, () => newString);
  state.vfs.write(identity.account, uri, { content, tags: file.tags }, new Date(state.now()).toISOString());
  return Buffer.byteLength(content);
}

/** Deletes `uri`; nothing there is no error (0.5.2 answers `Deleted:` for it too). */
export function forgetUri(state: ServerState, identity: Identity, uri: string, recursive: boolean): number {
  if (uriSegments(uri).length < 2) throw invalidArgument(`Refusing to delete a scope root: ${uri}`);
  if (state.vfs.read(identity.account, uri) === undefined && !state.vfs.isDir(identity.account, uri)) return 0;
  if (state.vfs.read(identity.account, uri) === undefined && !recursive)
    throw invalidArgument(`${uri} is a directory; pass recursive=true`);
  return state.vfs.remove(identity.account, uri, recursive);
}

/** 0.5.2's user-scope rule: a file under `memories/`, `resources/`, a peer's `memories/`/`resources/`, or at the root. */
function assertWritable(uri: string, identity: Identity): void {
  const segments = uriSegments(uri);
  const [scope, owner, area] = segments;
  if (scope === 'resources' || scope === 'agent') return;
  if (scope === 'user' && owner !== undefined && (identity.role === 'root' || owner === identity.user)) {
    const peerArea = area === 'peers' && segments.length > 5 && WRITABLE_USER_AREAS.has(segments[4] ?? '');
    if (
      segments.length === 3 ||
      (area !== undefined && WRITABLE_USER_AREAS.has(area) && segments.length > 3) ||
      peerArea
    )
      return;
    throw invalidArgument(
      `user-scope writes need a file under memories/, resources/, or directly at the user root: ${uri}`,
    );
  }
  throw permissionDenied(`Not writable: ${uri}`);
}

export interface GrepMatch {
  uri: string;
  line: number;
  content: string;
}

export function grepFiles(
  state: ServerState,
  identity: Identity,
  uri: string,
  patterns: string[],
  caseInsensitive: boolean,
  nodeLimit: number,
): GrepMatch[] {
  const regexes = patterns.map((pattern) => compilePattern(pattern, caseInsensitive));
  const matches: GrepMatch[] = [];
  for (const { uri: fileUri, file } of state.vfs.filesUnder(identity.account, uri)) {
    file.content.split('\n').forEach((text, index) => {
      if (regexes.some((regex) => regex.test(text))) matches.push({ uri: fileUri, line: index + 1, content: text });
    });
  }
  return matches.slice(0, nodeLimit);
}

function compilePattern(pattern: string, caseInsensitive: boolean): RegExp {
  try {
    return new RegExp(pattern, caseInsensitive ? 'i' : '');
  } catch {
    // an invalid regex is the caller's error, reported as 400
    throw invalidArgument(`Invalid regular expression: ${pattern}`);
  }
}

/** `**` any depth, `*` within a segment, `?` one character; matched against the path below `uri`. */
export function globFiles(
  state: ServerState,
  identity: Identity,
  pattern: string,
  uri: string,
  nodeLimit: number,
): string[] {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '\u0000')
    .replace(/\*\*/g, '\u0001')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]')
    .replace(/\u0000/g, '(?:.*/)?')
    .replace(/\u0001/g, '.*');
  const regex = new RegExp(`^${source}$`);
  const prefixLength = uriSegments(uri).length;
  return state.vfs
    .filesUnder(identity.account, uri)
    .filter(
      ({ uri: fileUri }) =>
        isVisibleTo(fileUri, identity) && regex.test(uriSegments(fileUri).slice(prefixLength).join('/')),
    )
    .map(({ uri: fileUri }) => fileUri)
    .slice(0, nodeLimit);
}

/** 0.5.2's tree text: a heading, then entries indented by depth, directories with `/`, files with their size. */
export function treeText(
  state: ServerState,
  identity: Identity,
  uri: string,
  levelLimit: number,
  nodeLimit: number,
  includeAbstract: boolean,
): string {
  const entries = state.vfs
    .list(identity.account, uri, levelLimit)
    .filter(
      (entry) =>
        isVisibleTo(entry.uri, identity) && !entry.relPath.split('/').some((segment) => segment.startsWith('.')),
    )
    .slice(0, nodeLimit);
  const lines = entries.map((entry) => {
    const depth = entry.relPath.split('/').length - 1;
    const abstract =
      includeAbstract && entry.file !== undefined && entry.file.abstract !== '' ? ` — ${entry.file.abstract}` : '';
    const size = entry.file === undefined ? '' : ` (${Buffer.byteLength(entry.file.content)} B)`;
    return `${'  '.repeat(depth)}${entry.name}${entry.isDir ? '/' : size}${abstract}`;
  });
  return [`Tree of ${uri} (depth <= ${levelLimit}, ${entries.length} entries):`, ...lines].join('\n');
}
