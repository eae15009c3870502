/**
 * The hooks module's side of the file seam's small-file rule (store/
 * fileSeam.ts; build.mjs puts this file in the place of store/smallFile.ts
 * in hooks/register.mjs, D30): the same rule and reasons, answered from the
 * session's `$.fs` snapshot (snapshot.ts). `$.fs.read` of a byte range takes
 * nothing from a FIFO, a socket or a device (it rejects), so a swap after
 * the stat cannot hang the host either. The host names no kind but file and
 * folder: anything else is "not a file".
 *
 * @module
 */
import {
  MISSING,
  smallFileRefusal,
  smallFileText,
  unreadableFile,
  type Implements,
  type SmallFile,
  type SmallFileLeaf,
} from '../../store/fileSeam.js';
import { utf8Length } from '../../util/utf8.js';
import { sessionFiles } from './snapshot.js';

/** This file is the module's side of the seam's SmallFileLeaf. */
export type _ModuleSmallFile = Implements<SmallFileLeaf, typeof import('./smallFile.js')>;

/** Not looked at yet: the run that asked is repeated once the snapshot holds it (snapshot.ts). */
const NOT_YET = MISSING;

export function readSmallFile(path: string, maxBytes: number): SmallFile {
  const files = sessionFiles();
  const seen = files.stat(path);
  if (seen === undefined) {
    // Ask for the text too, so the next round has both.
    files.text(path, maxBytes);
    return NOT_YET;
  }
  if (seen.state === 'missing') return MISSING;
  if (seen.state === 'refused') return unreadableFile(seen.why);
  const { kind, size } = seen.facts;
  const refused = smallFileRefusal(kind === 'dir' ? 'directory' : kind, size, maxBytes);
  if (refused !== undefined) return refused;
  const text = files.text(path, maxBytes);
  return text === undefined ? NOT_YET : smallFileText(text, utf8Length(text), maxBytes);
}
