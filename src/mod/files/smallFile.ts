/**
 * store/smallFile.ts in the hooks module (build.mjs puts this file in its
 * place in hooks/register.mjs, D30): the same rule, answered from the
 * session's `$.fs` snapshot (snapshot.ts). A file is read only when it is a
 * regular file of at most `maxBytes` bytes; anything else is absent, with
 * the same reasons. `$.fs.read` of a byte range takes nothing from a FIFO,
 * a socket or a device (it rejects), so a swap after the stat cannot hang
 * the host either.
 *
 * @module
 */
import type { SmallFile } from '../../store/smallFile.js';
import { utf8Length } from '../../util/utf8.js';
import { sessionFiles } from './snapshot.js';

export type { SmallFile, SmallFileAbsence } from '../../store/smallFile.js';

/** Not looked at yet: the run that asked is repeated once the snapshot holds it (snapshot.ts). */
const NOT_YET: SmallFile = { absent: 'missing', why: 'does not exist' };

export function readSmallFile(path: string, maxBytes: number): SmallFile {
  const files = sessionFiles();
  const seen = files.stat(path);
  if (seen === undefined) {
    // Ask for the text too, so the next round has both.
    files.text(path, maxBytes);
    return NOT_YET;
  }
  if (seen.state === 'missing') return { absent: 'missing', why: 'does not exist' };
  if (seen.state === 'refused') return { absent: 'unreadable', why: `cannot be read (${seen.why})` };
  if (seen.facts.kind !== 'file')
    return {
      absent: 'not-a-file',
      why: `is ${seen.facts.kind === 'dir' ? 'a directory' : 'not a file'}, not a regular file`,
    };
  if (seen.facts.size > maxBytes) return tooLarge(maxBytes);
  const text = files.text(path, maxBytes);
  if (text === undefined) return NOT_YET;
  return utf8Length(text) > maxBytes ? tooLarge(maxBytes) : { text };
}

function tooLarge(maxBytes: number): SmallFile {
  return { absent: 'too-large', why: `is larger than ${maxBytes} bytes` };
}
