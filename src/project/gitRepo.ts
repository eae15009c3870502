/**
 * What a directory's `.git` says, by reading the files git keeps (DESIGN
 * D24): never by running `git`, which costs a process spawn (~5–20 ms) and
 * runs on the prompt path otherwise. Follows OpenViking's own plugins
 * (`resolveGitDir`, `readGitRemoteUrl` of their shared library) so both
 * find the same repository and the same remote.
 *
 * - `.git` a directory: a repository (its `commondir` is not read).
 * - `.git` a file `gitdir: <path>` (resolved against the directory): its
 *   `commondir` names the main repository's git dir when it is a linked
 *   worktree; a common dir under `…/.git/modules/…` is a submodule, its own
 *   repository with its own remote. A `.git` file without `gitdir:` is not
 *   a repository (the search goes on upward).
 * - The remote is `origin`'s first `url` (section name exact, key any
 *   case; `#`/`;` start a comment; one pair of quotes dropped). The earlier
 *   ids of this plugin used `origin`, else the first remote with a URL
 *   (`pickRemoteUrl`, kept for them: project/remote.ts). `include` files
 *   and `insteadOf` rewrites are not followed.
 *
 * The files come with the repository, and a clone can commit any of them as
 * a symlink (to `/dev/zero`, a FIFO, a terminal, a huge file), so each is
 * read by store/smallFile.ts: regular files only, without blocking, at most
 * MAX_GIT_FILE_BYTES. One that is refused counts as absent, and `ignored`
 * says which and why (doctor shows it). `commondir` is followed only to a
 * directory. Every path looked at goes to `touched` (the cache's change
 * check, identity.ts). Synchronous and small: it runs inside a hook.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { statQuietly } from '../store/fsUtil.js';
import { readSmallFile } from '../store/smallFile.js';

export type GitKind = 'repo' | 'worktree' | 'submodule';

export interface GitDir {
  /** The directory holding `.git` (the checkout's top level, on the real path the walk took). */
  gitRoot: string;
  gitDir: string;
  /** The main repository's git dir (shared by its linked worktrees). */
  commonDir: string;
  kind: GitKind;
}

/** What the scan looked at: `touched` for the cache's change check, `ignored` for the files it refused (`<path> is a FIFO, not a regular file`). */
export interface ScanNotes {
  touched: string[];
  ignored: string[];
}

/** Git config files are small; a bigger one is not read. */
const MAX_GIT_FILE_BYTES = 256 * 1024;
const SUBMODULE_DIR = /[/\\]\.git[/\\]modules[/\\]/;

/** The repository whose `.git` is in `dir`, or undefined (none there, or a `.git` file naming nothing). */
export function gitDirAt(dir: string, notes: ScanNotes): GitDir | undefined {
  const dotGit = join(dir, '.git');
  notes.touched.push(dotGit);
  const stat = statQuietly(dotGit);
  if (stat === undefined) return undefined;
  if (stat.isDirectory()) return { gitRoot: dir, gitDir: dotGit, commonDir: dotGit, kind: 'repo' };
  const pointer = /^gitdir:\s*(.+)$/m.exec(readSmall(dotGit, notes) ?? '')?.[1]?.trim();
  if (!pointer) return undefined;
  const gitDir = resolve(dir, pointer);
  const common = commonDirOf(gitDir, notes);
  const kind: GitKind = SUBMODULE_DIR.test(`${common.dir}${sep}`) ? 'submodule' : common.named ? 'worktree' : 'repo';
  return { gitRoot: dir, gitDir, commonDir: common.dir, kind };
}

/** The checkout that names the repository: a linked worktree's main checkout (or the bare repository), else the one holding `.git`. */
export function mainCheckout(git: GitDir): string {
  if (git.kind !== 'worktree') return git.gitRoot;
  return basename(git.commonDir) === '.git' ? dirname(git.commonDir) : git.commonDir;
}

/** The directory `commondir` names (a linked worktree's main git dir), else `gitDir` itself. */
function commonDirOf(gitDir: string, notes: ScanNotes): { dir: string; named: boolean } {
  const commondirFile = join(gitDir, 'commondir');
  notes.touched.push(commondirFile);
  const common = readSmall(commondirFile, notes)?.trim();
  if (!common) return { dir: gitDir, named: false };
  const target = isAbsolute(common) ? common : resolve(gitDir, common);
  if (statQuietly(target)?.isDirectory() === true) return { dir: target, named: true };
  notes.ignored.push(`${commondirFile} names ${target}, which is not a directory; ignoring it`);
  return { dir: gitDir, named: false };
}

/** The text of the repository's `config` (its common dir's), '' when absent or refused. */
export function readGitConfig(commonDir: string, notes: ScanNotes): string {
  const file = join(commonDir, 'config');
  notes.touched.push(file);
  return readSmall(file, notes) ?? '';
}

/** `origin`'s URL as OpenViking's plugins read it; undefined when there is none (or it is empty). */
export function originUrl(config: string): string | undefined {
  let inOrigin = false;
  for (const rawLine of config.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      inOrigin = /^remote\s+"(.*)"$/i.exec((header[1] as string).trim())?.[1] === 'origin';
      continue;
    }
    const entry = inOrigin ? /^url\s*=\s*(.*)$/i.exec(line) : null;
    if (entry)
      return (entry[1] as string).split(/[#;]/)[0]?.trim().replace(/^["']/, '').replace(/["']$/, '') || undefined;
  }
  return undefined;
}

/**
 * The URL of `origin`, else of the first remote that has one: the rule of
 * this plugin's earlier peer ids (project/remote.ts). Reads the
 * `[remote "name"]` sections of git's INI format; keys are
 * case-insensitive, a value may be quoted, `#`/`;` start comments.
 */
export function pickRemoteUrl(config: string): string | undefined {
  const urls = new Map<string, string>();
  let remote: string | undefined;
  for (const rawLine of config.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) {
      remote = (section[1] as string).toLowerCase() === 'remote' ? (section[2] ?? '') : undefined;
      continue;
    }
    if (remote === undefined || urls.has(remote)) continue;
    const entry = /^url\s*=\s*(.*)$/i.exec(line);
    if (entry) urls.set(remote, unquote(entry[1] as string));
  }
  return urls.get('origin') ?? urls.values().next().value;
}

function unquote(value: string): string {
  const trimmed = value.replace(/\s+[#;].*$/, '').trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') && trimmed.length >= 2 ? trimmed.slice(1, -1) : trimmed;
}

/** The file's text; a refused file (not a regular file, too large, unreadable) is noted and counts as absent. */
export function readSmall(path: string, notes: ScanNotes, maxBytes = MAX_GIT_FILE_BYTES): string | undefined {
  const file = readSmallFile(path, maxBytes);
  if (file.absent !== undefined && file.absent !== 'missing') notes.ignored.push(`${path} ${file.why}; ignoring it`);
  return file.text;
}
