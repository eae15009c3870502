/**
 * How an import is doing, for whoever is not its terminal (DESIGN D35): the
 * status line, `import --status` and the slash command, whose import runs
 * detached. One small file, `status/import.json`, rewritten by the running
 * import about once a second and once more at its end with its summary.
 * Read without a lock; written atomically (a reader sees the old or the
 * new, whole).
 *
 * @module
 */
import { join } from 'node:path';
import { isRecord } from '../util/json.js';
import { readJsonSync, writeFileAtomicSync } from './atomic.js';

export interface ImportStatus {
  /** `running` until the import ends (or dies: `at` then stops moving). */
  state: 'running' | 'done';
  pid: number;
  startedAt: number;
  /** When this was written. */
  at: number;
  sessionsDone: number;
  sessionsTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** The summary, once done. */
  summary?: string;
}

/** A running import's file is rewritten about every second; older than this, it stopped without a word. */
export const IMPORT_STATUS_STALE_MS = 30_000;

export function importStatusFile(dataDir: string): string {
  return join(dataDir, 'status', 'import.json');
}

/** Never throws: a status the disk refused only leaves the display behind. */
export function writeImportStatus(dataDir: string, status: ImportStatus): void {
  try {
    writeFileAtomicSync(importStatusFile(dataDir), JSON.stringify(status));
  } catch {
    // The next write tries again.
  }
}

/** The last status written, or undefined. Never throws. */
export function readImportStatus(dataDir: string): ImportStatus | undefined {
  const value = readJsonSync(importStatusFile(dataDir));
  if (!isRecord(value) || (value['state'] !== 'running' && value['state'] !== 'done')) return undefined;
  const numbers = ['pid', 'startedAt', 'at', 'sessionsDone', 'sessionsTotal', 'bytesDone', 'bytesTotal'] as const;
  const read: Partial<Record<(typeof numbers)[number], number>> = {};
  for (const key of numbers) {
    const number = value[key];
    if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) return undefined;
    read[key] = number;
  }
  return {
    state: value['state'],
    pid: read.pid ?? 0,
    startedAt: read.startedAt ?? 0,
    at: read.at ?? 0,
    sessionsDone: read.sessionsDone ?? 0,
    sessionsTotal: read.sessionsTotal ?? 0,
    bytesDone: read.bytesDone ?? 0,
    bytesTotal: read.bytesTotal ?? 0,
    ...(typeof value['summary'] === 'string' ? { summary: value['summary'] } : {}),
  };
}

/** True for an import still writing its status. */
export function importRunning(status: ImportStatus | undefined, now: number): boolean {
  return status?.state === 'running' && now - status.at < IMPORT_STATUS_STALE_MS;
}
