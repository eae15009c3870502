/**
 * What the status line shows of an unapproved workspace peer (DESIGN D32):
 * the session start records, per session, the peer a committed workspace
 * file names and the files it would approve (`status/trust.json`, only when
 * there is one: nothing is written otherwise), and the status line, which
 * reads cached state only, shows it while the approvals (trust.ts) do not
 * cover those files. A display cache like store/status.ts: newest sessions
 * kept, never throws.
 *
 * @module
 */
import { join } from 'node:path';
import { readJsonSync, writeFileAtomicSync } from '../store/atomic.js';
import { isRecord } from '../util/json.js';
import type { UnapprovedPeer } from './peerApproval.js';
import { isApproved, readApprovals } from './trust.js';

const MAX_SESSIONS = 20;

interface Mark {
  at: number;
  root: string;
  named: string;
  files: Array<{ file: string; digest: string }>;
}

function marksFile(dataDir: string): string {
  return join(dataDir, 'status', 'trust.json');
}

/** Records `unapproved` for `sessionId` (nothing when there is none and none was recorded). */
export function recordUnapproved(
  dataDir: string,
  sessionId: string,
  unapproved: UnapprovedPeer | undefined,
  at: number,
): void {
  if (sessionId === '') return;
  const marks = readMarks(dataDir);
  if (unapproved === undefined && marks[sessionId] === undefined) return;
  delete marks[sessionId];
  const kept = Object.entries(marks)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_SESSIONS - 1);
  const mark: Mark | undefined =
    unapproved === undefined
      ? undefined
      : {
          at,
          root: unapproved.root,
          named: unapproved.named,
          files: unapproved.files.map(({ file, digest }) => ({ file, digest })),
        };
  try {
    writeFileAtomicSync(
      marksFile(dataDir),
      JSON.stringify(Object.fromEntries(mark === undefined ? kept : [[sessionId, mark], ...kept])),
    );
  } catch {
    // A display cache: the status line just does not show it.
  }
}

/** The peer `sessionId`'s workspace files name and the user has not approved yet, or undefined. */
export function unapprovedPeerOf(dataDir: string, sessionId: string | undefined): string | undefined {
  const mark = sessionId === undefined ? undefined : readMarks(dataDir)[sessionId];
  if (mark === undefined) return undefined;
  const approvals = readApprovals(dataDir);
  return mark.files.every((file) => isApproved(approvals, mark.root, file.file, file.digest)) ? undefined : mark.named;
}

function readMarks(dataDir: string): Record<string, Mark> {
  const value = readJsonSync(marksFile(dataDir));
  const marks: Record<string, Mark> = {};
  if (!isRecord(value)) return marks;
  for (const [id, mark] of Object.entries(value)) {
    if (id === '__proto__' || !isRecord(mark) || typeof mark['root'] !== 'string') continue;
    if (typeof mark['named'] !== 'string' || typeof mark['at'] !== 'number' || !Array.isArray(mark['files'])) continue;
    const files = mark['files'].filter(
      (file): file is { file: string; digest: string } =>
        isRecord(file) && typeof file['file'] === 'string' && typeof file['digest'] === 'string',
    );
    marks[id] = { at: mark['at'], root: mark['root'], named: mark['named'], files };
  }
  return marks;
}
