/**
 * Drains a session's request inbox (requests.ts) as its only writer.
 *
 * Holding the session's capture lock, it runs capture passes until the inbox
 * is empty, deleting the requests each completed pass covered. After the
 * lock is released it looks once more: a hook that posted between the last
 * look and the release found the lock busy and left its request to us, so we
 * take the lock again (unless a newer writer already has it, which then
 * drains it). A pass that cannot finish (deadline, server unknown state)
 * leaves its requests for the next run.
 *
 * @module
 */
import { capturePass } from './pass.js';
import { trackedPass } from './tracking.js';
import { jobFor, readInbox, removeRequests } from './requests.js';
import { withSessionWriter } from './writer.js';
import type { CaptureEnv, SessionWriter } from './writer.js';

export type DrainStatus = 'drained' | 'busy' | 'incomplete' | 'error';

/** Upper bound on passes per lock hold (each pass is idempotent; this only bounds a pathological inbox). */
const MAX_PASSES = 50;

/** `waitMs` 0: give up at once when another writer holds the session (it will drain our request). */
export async function drainRequests(env: CaptureEnv, ovSessionId: string, waitMs: number): Promise<DrainStatus> {
  for (let wait = waitMs; ; wait = 0) {
    const inbox = await readInbox(env.dataDir, ovSessionId);
    const job = jobFor(inbox.requests);
    if (job === undefined) return 'drained';
    if (env.now() >= env.deadlineAt) return 'incomplete';
    const outcome = await withSessionWriter(env, job.identity, wait, (writer) => drainLocked(writer));
    if (!outcome.ok) {
      if (outcome.reason === 'error')
        env.log.warn('capture lock failed', { session: ovSessionId, error: outcome.message });
      return outcome.reason;
    }
    if (outcome.value !== 'drained') return outcome.value;
  }
}

async function drainLocked(writer: SessionWriter): Promise<DrainStatus> {
  const { env } = writer;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const inbox = await readInbox(env.dataDir, writer.ovSessionId);
    const job = jobFor(inbox.requests);
    if (job === undefined) return 'drained';
    const result = await trackedPass(writer, job, (tracked) => capturePass(writer, tracked));
    env.log.debug('capture pass', { session: writer.ovSessionId, requests: inbox.names.length, ...result });
    if (result.status !== 'complete') return 'incomplete';
    await removeRequests(env.dataDir, writer.ovSessionId, inbox.names);
  }
  return 'incomplete';
}
