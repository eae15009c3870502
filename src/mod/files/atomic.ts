/**
 * The hooks module's side of the file seam's AtomicLeaf (store/fileSeam.ts;
 * build.mjs puts this file in the place of store/atomic.ts in
 * hooks/register.mjs, D30): a replacement goes into the session's
 * snapshot (snapshot.ts) and is queued for one whole-file `$.fs.write` after
 * the answer (files 0600, folders made 0700 by the host). `$.fs` has no
 * rename, so a write is not atomic against a crash mid-write; each file the
 * module writes is a cache or a record whose reader takes a torn or
 * corrupt file as absent (D30 says which, and why that is enough).
 *
 * @module
 */
import type { AtomicLeaf, AtomicWriteOptions, Implements } from '../../store/fileSeam.js';
import { sessionFiles } from './snapshot.js';

export {
  MAX_STATE_FILE_BYTES,
  readJson,
  readJsonDetailed,
  readJsonSync,
  type JsonReadResult,
} from '../../store/jsonFile.js';
export { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, TEMP_SUFFIX } from '../../store/fileSeam.js';
/** This file is the module's side of the seam's AtomicLeaf. */
export type _ModuleAtomic = Implements<AtomicLeaf, typeof import('./atomic.js')>;

/** The host's write makes missing folders (0700). */
export async function ensurePrivateDir(_dir: string): Promise<void> {}

export function ensurePrivateDirSync(_dir: string): void {}

export function writeFileAtomicSync(path: string, data: string): void {
  sessionFiles().write(path, data);
}

export async function writeFileAtomic(path: string, data: string, _options: AtomicWriteOptions = {}): Promise<void> {
  sessionFiles().write(path, data);
}

export async function writeJsonAtomic(path: string, value: unknown, _options: AtomicWriteOptions = {}): Promise<void> {
  sessionFiles().write(path, JSON.stringify(value));
}
