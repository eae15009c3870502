/**
 * store/atomic.ts in the hooks module (build.mjs puts this file in its place
 * in hooks/register.mjs, D30): a replacement goes into the session's
 * snapshot (snapshot.ts) and is queued for one whole-file `$.fs.write` after
 * the answer (files 0600, folders made 0700 by the host). `$.fs` has no
 * rename, so a write is not atomic against a crash mid-write; each file the
 * module writes is a cache or a record whose reader takes a torn or
 * corrupt file as absent (D30 says which, and why that is enough).
 *
 * @module
 */
import type { AtomicWriteOptions } from '../../store/atomic.js';
import { sessionFiles } from './snapshot.js';

export {
  MAX_STATE_FILE_BYTES,
  readJson,
  readJsonDetailed,
  readJsonSync,
  type JsonReadResult,
} from '../../store/jsonFile.js';
export type { AtomicWriteOptions } from '../../store/atomic.js';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
export const TEMP_SUFFIX = '.tmp';

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
