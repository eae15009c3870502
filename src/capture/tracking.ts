/**
 * What the session's writer records around each capture pass, beside the
 * capture state: its entry in the uncommitted index (commitIndex.ts), put
 * there before anything is sent and removed once a full commit left nothing
 * behind, and, once the session exists on the server, the server's own
 * commit policy (serverPolicy.ts), remembered in that entry so it is set
 * once per session; from then on the server makes the threshold commits
 * (the pass makes only the full ones it is asked for).
 *
 * @module
 */
import { clearUncommitted, entryOf, markUncommitted, nothingLeftToCommit, readUncommitted } from './commitIndex.js';
import type { UncommittedEntry } from './commitIndex.js';
import type { CaptureJob, PassResult } from './pass.js';
import { applyServerPolicy, policyFor } from './serverPolicy.js';
import type { SessionWriter } from './writer.js';

/** Runs one pass of `job` with the bookkeeping above. */
export async function trackedPass(
  writer: SessionWriter,
  job: CaptureJob,
  pass: (job: CaptureJob) => Promise<PassResult>,
): Promise<PassResult> {
  const { dataDir } = writer.env;
  const policyIdle = readUncommitted(dataDir, writer.ovSessionId)?.serverIdleSeconds;
  const entry = (serverIdleSeconds: number | undefined): UncommittedEntry => ({
    ...entryOf(writer.state),
    transcriptPath: job.transcriptPath,
    ...(serverIdleSeconds !== undefined ? { serverIdleSeconds } : {}),
  });
  markUncommitted(dataDir, entry(policyIdle));
  const result = await pass(policyIdle === undefined ? job : { ...job, serverCommits: true });
  if (policyIdle === undefined && result.sent > 0 && (await applyServerPolicy(writer)) === 'set') {
    // the idle timeout the server got (a knob under 300 s is sent as 300)
    markUncommitted(dataDir, entry(policyFor(writer.env.settings)?.idle_timeout_seconds));
  }
  if (result.status === 'complete' && job.commit && nothingLeftToCommit(writer.state, result.commit))
    clearUncommitted(dataDir, writer.ovSessionId);
  return result;
}
