/**
 * A sub-agent's final capture pass waits for its transcript to be written
 * out: to exist, then to stop growing.
 *
 * CodeBuddy's sub-agent file is complete when SubagentStop fires (DESIGN F8),
 * but Claude Code 2.1.328 writes `<session>/subagents/agent-<id>.jsonl` at or
 * after SubagentStop: for a background agent ~0.4 s after the hook ran, and
 * not in one write (FC4). A pass that found no file committed an empty
 * sub-agent session; one that read the file between the prompt's record and
 * the reply's committed the prompt alone. Either way the reply was lost, since
 * that pass is the sub-agent's last. So the pass polls until the file exists
 * and its size and mtime held still for a quiet window, bounded by the wait
 * and the worker's own deadline. The worker runs detached, off the host's
 * clock: the quiet window costs no host any time.
 *
 * @module
 */
import { stat } from 'node:fs/promises';

/** Longest wait for a sub-agent's transcript to appear and settle. */
export const SUBAGENT_TRANSCRIPT_WAIT_MS = 10_000;
/** How long the file must hold still to count as written out. */
export const TRANSCRIPT_QUIET_MS = 750;

const POLL_MS = 100;

export interface AwaitClock {
  now(): number;
  /** Epoch-ms after which the worker starts nothing new; the wait ends before it. */
  deadlineAt: number;
}

/** Size and mtime, or undefined while the file is not there (or unreadable: the read reports that). */
async function signature(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * True once `path` exists and held still for `quietMs`; false when it did not
 * appear within the wait (a file that keeps growing past the wait is read as
 * it is then). Never throws.
 */
export async function awaitTranscriptFile(
  path: string,
  clock: AwaitClock,
  waitMs = SUBAGENT_TRANSCRIPT_WAIT_MS,
  quietMs = TRANSCRIPT_QUIET_MS,
): Promise<boolean> {
  const until = Math.min(clock.now() + waitMs, clock.deadlineAt);
  let last: string | undefined;
  let stillSince = 0;
  for (;;) {
    const current = await signature(path);
    if (current !== last) {
      last = current;
      stillSince = clock.now();
    } else if (current !== undefined && clock.now() - stillSince >= quietMs) {
      return true;
    }
    const left = until - clock.now();
    if (left <= 0) return current !== undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}
