/**
 * A sub-agent's final capture pass waits for its transcript to exist.
 *
 * CodeBuddy's sub-agent file is complete when SubagentStop fires (DESIGN F8),
 * but Claude Code 2.1.328 writes `<session>/subagents/agent-<id>.jsonl` at or
 * after SubagentStop: for a background agent ~0.4 s after the hook ran (FC4).
 * A pass that found no file then committed an empty sub-agent session and the
 * turn was lost. The worker runs detached, off the host's clock, so it polls
 * for the file, bounded by its own deadline; a file already there costs one
 * stat.
 *
 * @module
 */
import { stat } from 'node:fs/promises';

/** Longest wait for a sub-agent's transcript to appear. */
export const SUBAGENT_TRANSCRIPT_WAIT_MS = 10_000;

const POLL_MS = 100;

export interface AwaitClock {
  now(): number;
  /** Epoch-ms after which the worker starts nothing new; the wait ends before it. */
  deadlineAt: number;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false; // not written yet (or unreadable: the read reports that)
  }
}

/** True once `path` exists; false when it did not appear within the wait. Never throws. */
export async function awaitTranscriptFile(path: string, clock: AwaitClock, waitMs = SUBAGENT_TRANSCRIPT_WAIT_MS): Promise<boolean> {
  const until = Math.min(clock.now() + waitMs, clock.deadlineAt);
  for (;;) {
    if (await exists(path)) return true;
    const left = until - clock.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}
