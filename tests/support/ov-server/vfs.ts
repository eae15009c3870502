/**
 * The virtual filesystem behind `fs/ls`, `content/read`, search and the MCP
 * file tools: one tree of files per account, keyed by canonical `viking://`
 * URI. Directories are implied by the files under them, plus any made
 * explicitly (a user's home appears once it has a session).
 *
 * @module
 */
import { joinUri, uriSegments } from './uri.js';

export interface FileNode {
  content: string;
  /** L0 abstract; derived from the content when not seeded. */
  abstract: string;
  tags: string[];
  modTime: string;
}

export interface DirEntry {
  uri: string;
  name: string;
  isDir: boolean;
  /** Path relative to the listed directory. */
  relPath: string;
  file?: FileNode;
}

/** First non-empty line without a leading `#`, at most 200 characters. */
export function deriveAbstract(content: string): string {
  const line = content
    .split('\n')
    .map((text) => text.replace(/^#+\s*/, '').trim())
    .find((text) => text !== '');
  return (line ?? '').slice(0, 200);
}

export class Vfs {
  private readonly files = new Map<string, Map<string, FileNode>>();
  private readonly dirs = new Map<string, Set<string>>();

  write(
    account: string,
    uri: string,
    file: { content: string; abstract?: string; tags?: string[] },
    modTime: string,
  ): void {
    this.filesOf(account).set(uri, {
      content: file.content,
      abstract: file.abstract ?? deriveAbstract(file.content),
      tags: file.tags ?? [],
      modTime,
    });
  }

  read(account: string, uri: string): FileNode | undefined {
    return this.files.get(account)?.get(uri);
  }

  mkdir(account: string, uri: string): void {
    let dirs = this.dirs.get(account);
    if (dirs === undefined) this.dirs.set(account, (dirs = new Set()));
    dirs.add(uri);
  }

  /** True for the root, an explicit directory, or any prefix of a file. */
  isDir(account: string, uri: string): boolean {
    if (uriSegments(uri).length === 0) return true;
    if (this.dirs.get(account)?.has(uri) === true) return true;
    const prefix = `${uri}/`;
    for (const key of this.allPaths(account)) if (key.startsWith(prefix)) return true;
    return false;
  }

  exists(account: string, uri: string): boolean {
    return this.read(account, uri) !== undefined || this.isDir(account, uri);
  }

  /** Deletes a file, or a directory with `recursive`; returns how many files went. */
  remove(account: string, uri: string, recursive: boolean): number {
    const files = this.filesOf(account);
    if (files.delete(uri)) return 1;
    if (!recursive) return 0;
    const prefix = `${uri}/`;
    let removed = 0;
    for (const key of [...files.keys()]) if (key.startsWith(prefix) && files.delete(key)) removed += 1;
    const dirs = this.dirs.get(account);
    for (const dir of [...(dirs ?? [])]) if (dir === uri || dir.startsWith(prefix)) dirs?.delete(dir);
    return removed;
  }

  /** Entries under `dirUri`, `depth` levels deep (1 = direct children), sorted by URI. */
  list(account: string, dirUri: string, depth: number): DirEntry[] {
    const base = uriSegments(dirUri);
    const found = new Map<string, DirEntry>();
    for (const path of this.allPaths(account)) {
      const segments = uriSegments(path);
      if (segments.length <= base.length || !base.every((segment, i) => segments[i] === segment)) continue;
      const maxLevel = Math.min(segments.length - base.length, depth);
      for (let level = 1; level <= maxLevel; level += 1) {
        const entrySegments = segments.slice(0, base.length + level);
        const uri = joinUri(entrySegments);
        if (found.has(uri)) continue;
        const file = uri === path ? this.read(account, uri) : undefined;
        found.set(uri, {
          uri,
          name: entrySegments[entrySegments.length - 1] ?? '',
          isDir: file === undefined,
          relPath: entrySegments.slice(base.length).join('/'),
          ...(file === undefined ? {} : { file }),
        });
      }
    }
    return [...found.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** Every file whose URI starts with `prefix` (a directory URI or the root). */
  filesUnder(account: string, prefix: string): Array<{ uri: string; file: FileNode }> {
    const scope = uriSegments(prefix).length === 0 ? 'viking://' : `${prefix}/`;
    const out: Array<{ uri: string; file: FileNode }> = [];
    for (const [uri, file] of this.files.get(account) ?? []) {
      if (uri === prefix || uri.startsWith(scope)) out.push({ uri, file });
    }
    return out.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  private filesOf(account: string): Map<string, FileNode> {
    let files = this.files.get(account);
    if (files === undefined) this.files.set(account, (files = new Map()));
    return files;
  }

  private allPaths(account: string): string[] {
    return [...(this.files.get(account)?.keys() ?? []), ...(this.dirs.get(account) ?? [])];
  }
}
