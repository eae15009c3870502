/**
 * Sessions left alone (the bypass), and the queue of writes that could not
 * be sent: how much a start replays, when an entry goes to the dead-letter
 * folder, how long a lock is waited for (DESIGN D18).
 *
 * One part of the knob table (index.ts assembles it, in the order of
 * docs/settings.md); a knob is defined in one part only.
 *
 * @module
 */
import type { KnobTable } from '../knobTypes.js';
import { SECOND } from './units.js';

export const QUEUE_KNOBS = {
  bypassSession: {
    env: 'OPENVIKING_BYPASS_SESSION',
    type: 'bool',
    failClosed: true,
    default: false,
    description: 'Leave every session (and the MCP tools) alone: nothing is sent, as with memory off.',
  },
  bypassPatterns: {
    env: 'OPENVIKING_BYPASS_SESSION_PATTERNS',
    type: 'csv',
    default: [],
    description:
      'Comma-separated globs (`*`, `**`; `dir/**` is `dir` and everything below it, no `~`); a session whose id or folder matches is left alone. The MCP tools match their folder only (they never learn the session).',
  },
  pendingReplayLimit: {
    env: 'OPENVIKING_PENDING_REPLAY_LIMIT',
    type: 'int',
    default: 50,
    min: 0,
    max: 1000,
    description:
      'Queued writes a session start replays (0: none there); a capture, `requeue-dead` or replay run takes at least 100.',
  },
  pendingReplayBudgetMs: {
    env: 'OPENVIKING_PENDING_REPLAY_BUDGET_MS',
    type: 'int',
    default: 1500,
    min: 0,
    max: 60 * SECOND,
    description: "Time a session start's replay may spend (inside the start deadline) before it stops.",
  },
  pendingMaxRetries: {
    env: 'OPENVIKING_PENDING_MAX_RETRIES',
    type: 'int',
    default: 3,
    min: 1,
    max: 100,
    description:
      'Refusals by the server (a 4xx other than 408, 429 and a retryable 409) before a queued write moves to the dead-letter folder (with the reason; never deleted silently). No answer, a timeout or a 5xx never counts.',
  },
  pendingTtlDays: {
    env: 'OPENVIKING_PENDING_TTL_DAYS',
    type: 'int',
    default: 7,
    min: 1,
    max: 365,
    description: 'Age (days) after which a queued write moves to the dead-letter folder.',
  },
  lockTimeoutMs: {
    env: 'OPENVIKING_LOCK_TIMEOUT_MS',
    type: 'int',
    default: SECOND,
    min: 0,
    max: 60 * SECOND,
    description:
      "Longest wait for a lock another process holds: a session's capture lock during a session start's replay (past it the entry waits for a later run) and the queue's lock when queueing (past it the write is queued anyway).",
  },
} satisfies Partial<KnobTable>;
