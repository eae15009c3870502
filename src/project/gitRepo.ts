/**
 * Which git repository a workspace is in, and its remote, by reading the
 * files git keeps (DESIGN D24): never by running `git`, which costs a
 * process spawn (~5–20 ms) and runs on the prompt path otherwise.
 *
 * From the workspace upwards, the first `.git` wins: a directory (a normal
 * clone), or a file `gitdir: <path>` (a linked worktree or a submodule).
 * A worktree's git dir holds `commondir` (usually `../..`), naming the main
 * repository's git dir, whose `config` has the remotes; so every worktree
 * of a clone reads the same remote. `origin` is preferred, else the first
 * remote with a URL. `include`d config files and `insteadOf` rewrites are
 * not followed (documented in README "Projects").
 *
 * The scan also returns every file it read (for the cache's change check,
 * identity.ts). Synchronous and small: it runs inside a hook.
 *
 * The files come with the repository, and a clone can commit any of them as
 * a symlink (to `/dev/zero`, a FIFO, a terminal, a huge file), so each is
 * read by store/smallFile.ts: regular files only, without blocking, at most
 * MAX_GIT_FILE_BYTES. One that is refused counts as absent, and `ignored`
 * says which and why (doctor shows it). `commondir` may name any path: it
 * is followed only to a directory, whose `config` is read the same way.
 *
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readSmallFile } from '../store/smallFile.js';

export interface GitRepo {
  /** The directory holding `.git` (the work tree's top level). */
  topLevel: string;
  /** The main repository's git directory (shared by its worktrees); a real path when there is no remote (it names the project then). */
  commonDir: string;
  /** The chosen remote's URL, as written (may hold credentials: never log or store it). */
  remoteUrl?: string;
}

/** Git config files are small; a bigger one is not read. */
const MAX_GIT_FILE_BYTES = 256 * 1024;

/** What the scan looked at: `touched` for the cache's change check, `ignored` for the files it refused (`<path> is a FIFO, not a regular file`). */
export interface GitScanNotes {
  touched: string[];
  ignored: string[];
}

/** The repository `workspace` is in, or undefined. */
export function findGitRepo(workspace: string, notes: GitScanNotes): GitRepo | undefined {
  for (let dir = resolve(workspace); ; ) {
    const dotGit = join(dir, '.git');
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat !== undefined) {
      notes.touched.push(dotGit);
      const gitDir = stat.isDirectory() ? dotGit : gitDirFromFile(dotGit, dir, notes);
      if (gitDir !== undefined) return repoAt(dir, gitDir, notes);
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function repoAt(topLevel: string, gitDir: string, notes: GitScanNotes): GitRepo {
  const commonDir = commonDirOf(gitDir, notes);
  const configFile = join(commonDir, 'config');
  notes.touched.push(configFile);
  const config = readSmall(configFile, notes);
  const remoteUrl = config === undefined ? undefined : pickRemoteUrl(config);
  // realpath only when the path is the identity (no remote): its first call costs ~80 µs here.
  return remoteUrl !== undefined ? { topLevel, commonDir, remoteUrl } : { topLevel, commonDir: realPath(commonDir) };
}

/** The directory `commondir` names (a linked worktree's main git dir), else `gitDir` itself. */
function commonDirOf(gitDir: string, notes: GitScanNotes): string {
  const commondirFile = join(gitDir, 'commondir');
  notes.touched.push(commondirFile);
  const common = readSmall(commondirFile, notes)?.trim();
  if (!common) return gitDir;
  const target = resolve(gitDir, common);
  if (statSync(target, { throwIfNoEntry: false })?.isDirectory() === true) return target;
  notes.ignored.push(`${commondirFile} names ${target}, which is not a directory; ignoring it`);
  return gitDir;
}

/** `gitdir: <path>` of a `.git` file, resolved against the directory holding it. */
function gitDirFromFile(dotGit: string, dir: string, notes: GitScanNotes): string | undefined {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit, notes) ?? '');
  return match ? resolve(dir, match[1] as string) : undefined;
}

/**
 * The URL of `origin`, else of the first remote that has one. Reads the
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
function readSmall(path: string, notes: GitScanNotes): string | undefined {
  const file = readSmallFile(path, MAX_GIT_FILE_BYTES);
  if (file.absent !== undefined && file.absent !== 'missing') notes.ignored.push(`${path} ${file.why}; ignoring it`);
  return file.text;
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
