/**
 * A commit the server took with a task, noted in its workspace's ledger
 * (store/learned.ts) so the next session start can say what the session
 * taught (DESIGN D36). Written by the session's capture writer under the
 * workspace's learned lock (held for one small read and write); a note that
 * cannot be written costs that one report, never the commit.
 *
 * @module
 */
import { writeFileAtomicSync } from '../store/atomic.js';
import { commitsWith, learnedLockFile, type CommitNote } from '../store/learned.js';
import { withLock } from '../store/lock.js';

/** How long a writer waits for another session's note of the same workspace. */
const NOTE_LOCK_WAIT_MS = 5_000;

/** False when the workspace is unknown, or the lock or the disk refused. Never throws. */
export async function noteCommit(
  dataDir: string,
  workspace: string,
  note: CommitNote,
  now: () => number,
): Promise<boolean> {
  if (workspace === '' || note.taskId === '') return false;
  const locked = await withLock(
    learnedLockFile(dataDir, workspace),
    { now, timeoutMs: NOTE_LOCK_WAIT_MS, staleMs: 30_000 },
    () => {
      const { file, text } = commitsWith(dataDir, workspace, note);
      writeFileAtomicSync(file, text);
      return true;
    },
  ).catch(() => ({ ok: false as const }));
  return locked.ok;
}
