/**
 * Which workspace a folder belongs to, the way OpenViking's own plugins
 * decide it (`findWorkspaceRoot` of their shared library; DESIGN D24):
 *
 * - From the folder's real path upwards, each directory is asked first for
 *   a `.git` (gitRepo.ts): the nearest repository is the workspace, a
 *   submodule its own, a linked worktree and every subdirectory its
 *   repository's.
 * - A directory holding `.openviking/config.json` or
 *   `.openviking/config.local.json` (regular files) is a workspace of its
 *   own: the nearest one is the ROOT (where those files are read and what
 *   `{dir}` names); the walk goes on up to find the repository around it,
 *   which still names the peer.
 * - `$HOME` and `/` are never tested: a repository at `$HOME` (dotfiles)
 *   claims nothing below it, and the walk from inside `$HOME` stops there.
 *   A folder that is `$HOME` or `/` is no workspace at all.
 * - Outside any repository and without such a file: no workspace.
 *
 * Real paths come from the JavaScript `realpathSync` (not `.native`, which
 * would also fold case on macOS); when the folder's or `$HOME`'s fails,
 * both are used as given. A folder spelled longer than `MAX_FOLDER_CHARS`
 * (Linux's PATH_MAX) is no directory anyone works in: it is no workspace,
 * and its thousands of levels are never walked (a hook's `cwd` is the
 * host's text; a 160 KB one of `</private>` runs took 12 s to walk).
 *
 * @module
 */
import { realPath, statQuietly } from '../store/fsUtil.js';
import { dirname, join, parse, resolve } from 'node:path';
import { gitDirAt, type GitDir, type ScanNotes } from './gitRepo.js';

export const WORKSPACE_DIR = '.openviking';
export const WORKSPACE_FILES = ['config.json', 'config.local.json'] as const;
/** PATH_MAX on Linux: no directory one can work in is spelled longer. */
export const MAX_FOLDER_CHARS = 4_096;

export interface WorkspaceRoot {
  /** The nearest marked directory, else the repository's checkout. */
  root: string;
  rootKind: 'git' | 'config';
  /** Whether the root holds a workspace file of any kind (for a `config` root always; a non-regular one is read to say why it is ignored). */
  hasFiles: boolean;
  /** The enclosing repository, when there is one. */
  git?: GitDir;
}

/** The workspace of `folder`, or undefined. `homeDir` is never a workspace. */
export function findWorkspaceRoot(folder: string, homeDir: string, notes: ScanNotes): WorkspaceRoot | undefined {
  if (folder.trim() === '' || folder.length > MAX_FOLDER_CHARS) return undefined;
  const absolute = resolve(folder);
  if (absolute.length > MAX_FOLDER_CHARS) return undefined;
  const real = realPath(absolute);
  const realHome = realPath(resolve(homeDir));
  // Both real, or both as given (a folder that cannot be resolved is compared with $HOME as spelled).
  let current = real !== undefined && realHome !== undefined ? real : absolute;
  const stopAt = real !== undefined && realHome !== undefined ? realHome : resolve(homeDir);
  const fsRoot = parse(current).root;
  let marked: string | undefined;
  for (; current !== fsRoot && current !== stopAt; current = dirname(current)) {
    const git = gitDirAt(current, notes);
    if (git !== undefined && marked !== undefined) return { root: marked, rootKind: 'config', hasFiles: true, git };
    const files = marked === undefined ? workspaceFilesAt(current, notes) : 'none';
    if (git !== undefined) return { root: current, rootKind: 'git', hasFiles: files !== 'none', git };
    if (files === 'regular') marked = current;
  }
  return marked === undefined ? undefined : { root: marked, rootKind: 'config', hasFiles: true };
}

/** What workspace files `dir` holds: a regular one (a marker), only something else (a FIFO, a device: read to say why not), or none. */
function workspaceFilesAt(dir: string, notes: ScanNotes): 'regular' | 'other' | 'none' {
  // Both are looked at (and recorded for the cache's change check), even when the first is there.
  const stats = WORKSPACE_FILES.map((name) => {
    const path = join(dir, WORKSPACE_DIR, name);
    notes.touched.push(path);
    return statQuietly(path);
  });
  if (stats.some((stat) => stat?.isFile() === true)) return 'regular';
  return stats.some((stat) => stat !== undefined) ? 'other' : 'none';
}
