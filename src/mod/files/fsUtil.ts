/**
 * The hooks module's side of the file seam's FsUtilLeaf (store/fileSeam.ts;
 * build.mjs puts this file in the place of store/fsUtil.ts in
 * hooks/register.mjs, D30): the same calls, answered from and written to
 * the session's `$.fs` snapshot (snapshot.ts). What `$.fs` cannot do is said
 * here: there is no delete (a file the rules would remove stays; only
 * notice marks older than a month are ever removed on this path, and the
 * hook commands still sweep them) and no inode (a stat's `ino` is 0, so a
 * file replaced by one of the same size and time is not seen to change; the
 * project cache's other signs and its minute's limit stand).
 *
 * @module
 */
import type { FsUtilLeaf, Implements, PathStat } from '../../store/fileSeam.js';
import { sessionFiles } from './snapshot.js';

/** This file is the module's side of the seam's FsUtilLeaf. */
export type _ModuleFsUtil = Implements<FsUtilLeaf, typeof import('./fsUtil.js')>;

/** Most bytes an append reads back: `$.fs.read` answers up to 4 MiB. */
const MAX_APPEND_BASE_BYTES = 4 * 1024 * 1024 - 1;

export function statQuietly(path: string): PathStat | undefined {
  const seen = sessionFiles().stat(path);
  if (seen?.state !== 'found') return undefined;
  const { kind, size, mtimeMs } = seen.facts;
  return { isFile: () => kind === 'file', isDirectory: () => kind === 'dir', size, mtimeMs, ino: 0 };
}

export function realPath(path: string): string | undefined {
  const seen = sessionFiles().stat(path);
  return seen?.state === 'found' ? seen.facts.realPath : undefined;
}

/** The host resolves one way: as `realPath`. */
export const realPathNative = realPath;

export function namesInDir(dir: string): string[] {
  return sessionFiles().names(dir) ?? [];
}

/** `$.fs` has no delete: the file stays (see the header). */
export function removeFileQuietly(_path: string): void {}

/** The file's text with `text` after it, written whole (`$.fs` has no append). Throws when it cannot be read back. */
export function appendPrivateFileSync(path: string, text: string): void {
  const files = sessionFiles();
  const seen = files.stat(path);
  if (seen === undefined) throw new Error(`${path} not looked at yet`);
  if (seen.state === 'refused' || (seen.state === 'found' && seen.facts.kind !== 'file'))
    throw new Error(`${path} cannot be appended to`);
  const before = seen.state === 'missing' ? '' : files.text(path, MAX_APPEND_BASE_BYTES);
  if (before === undefined) throw new Error(`${path} not read yet`);
  files.write(path, before + text);
}

export function createFileExclusive(path: string): boolean {
  const files = sessionFiles();
  if (files.stat(path)?.state !== 'missing') return false;
  files.write(path, '');
  return true;
}
