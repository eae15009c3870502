/**
 * Whether git tracks a file (DESIGN D32): `config.local.json` is the user's
 * own and needs no approval of the peer it names, but only while it is
 * untracked; one the repository commits travels with every clone like
 * `config.json`, and is approved like it. Read from the index git keeps
 * (`<git dir>/index`), never by running `git`.
 *
 * The index is binary; this reads it as text (the small-file reader, and
 * the hooks module's `$.fs.read`, answer text) and looks for the file's
 * path as the index writes it in versions 2 and 3: whole, from the
 * worktree's top, NUL-terminated, in plain ASCII that decoding leaves alone.
 * Anything it cannot read for sure counts as tracked (the file then needs
 * an approval, which asks once): version 4 (paths prefix-compressed), an
 * index over MAX_INDEX_BYTES (the hooks module reads at most 4 MiB), a
 * split index's shared part that cannot be read, an unreadable index. No
 * index at all: nothing is tracked. A path that only ends the same way
 * (`sub/.openviking/config.local.json`) also counts as tracked: safe.
 *
 * Cost: read and searched only when such a file names a peer of its own
 * and no approval covers it (rare): ~1 ms per MiB of index.
 *
 * @module
 */
import { join, sep } from 'node:path';
import { namesInDir } from '../store/fsUtil.js';
import { readSmallFile } from '../store/smallFile.js';
import type { GitDir } from './gitRepo.js';

/** The largest index read (`$.fs.read` answers at most 4 MiB). */
const MAX_INDEX_BYTES = 4 * 1024 * 1024 - 1;

/** True when git tracks `path` (or cannot be read for sure), false when it does not. */
export function trackedByGit(git: GitDir, path: string): boolean {
  const top = git.gitRoot.endsWith(sep) ? git.gitRoot : `${git.gitRoot}${sep}`;
  if (!path.startsWith(top)) return true;
  const inRepo = path.slice(top.length).split(sep).join('/');
  const index = readSmallFile(join(git.gitDir, 'index'), MAX_INDEX_BYTES);
  if (index.absent === 'missing') return false;
  if (index.absent !== undefined || !readableIndex(index.text)) return true;
  const needle = `${inRepo}\u0000`;
  if (index.text.includes(needle)) return true;
  // A split index keeps most entries in a shared part beside it (core.splitIndex).
  for (const name of namesInDir(git.gitDir).filter((entry) => entry.startsWith('sharedindex.'))) {
    const shared = readSmallFile(join(git.gitDir, name), MAX_INDEX_BYTES);
    if (shared.absent !== undefined || !readableIndex(shared.text) || shared.text.includes(needle)) return true;
  }
  return false;
}

/** `DIRC`, then a version this search understands (2 or 3, big-endian). */
function readableIndex(text: string): boolean {
  return text.startsWith('DIRC\u0000\u0000\u0000') && (text.charCodeAt(7) === 2 || text.charCodeAt(7) === 3);
}
