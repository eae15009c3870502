/**
 * Which transcripts an import already brought in whole (DESIGN D35): one
 * small file per OpenViking session, `<data dir>/import/sessions/<key>.json`,
 * written once a session's import ended with everything acknowledged (sent,
 * or queued for the next session start) and its commit taken or queued.
 * A later import skips a transcript that is still the same file, of the
 * same size and time, without reading it. Apart from the capture state on
 * purpose: retention removes a capture state after 90 idle days (D19), and
 * an import of a session it removed must still be skipped.
 *
 * @module
 */
import { join } from 'node:path';
import { readJsonSync, writeFileAtomicSync } from '../store/atomic.js';
import { safeFileKey } from '../store/paths.js';
import { isRecord } from '../util/json.js';
import type { Transcript } from './scan.js';

export interface ImportRecord {
  fileId: string;
  size: number;
  mtimeMs: number;
  /** The session's working folder, so a later import of one workspace can skip it unread. */
  cwd: string;
  at: number;
}

function recordFile(dataDir: string, ovSessionId: string): string {
  return join(dataDir, 'import', 'sessions', `${safeFileKey(ovSessionId)}.json`);
}

/** The session's record, or undefined. Never throws. */
export function readImportRecord(dataDir: string, ovSessionId: string): ImportRecord | undefined {
  const value = readJsonSync(recordFile(dataDir, ovSessionId));
  if (!isRecord(value)) return undefined;
  const { fileId, size, mtimeMs, cwd, at } = value;
  if (typeof fileId !== 'string' || typeof cwd !== 'string') return undefined;
  if (typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof at !== 'number') return undefined;
  return { fileId, size, mtimeMs, cwd, at };
}

/** True when the transcript is the very file the record describes, unchanged since. */
export function importedAsIs(record: ImportRecord | undefined, transcript: Transcript): boolean {
  return (
    record !== undefined &&
    record.fileId === transcript.fileId &&
    record.size === transcript.size &&
    record.mtimeMs === transcript.mtimeMs
  );
}

/** Records a session imported whole; false when the disk refused. */
export function writeImportRecord(dataDir: string, ovSessionId: string, record: ImportRecord): boolean {
  try {
    writeFileAtomicSync(recordFile(dataDir, ovSessionId), JSON.stringify(record));
    return true;
  } catch {
    return false;
  }
}
