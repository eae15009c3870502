/**
 * The session start's token budgets and every stage's deadline, kept
 * together because each must fit inside the host's hook timeout (DESIGN D5).
 *
 * One part of the knob table (index.ts assembles it, in the order of
 * docs/settings.md); a knob is defined in one part only.
 *
 * @module
 */
import type { KnobTable } from '../knobTypes.js';
import { SECOND } from './units.js';

export const BUDGET_KNOBS = {
  profileTokenBudget: {
    env: 'OPENVIKING_PROFILE_TOKEN_BUDGET',
    type: 'int',
    default: 6000,
    min: 500,
    max: 64000,
    description: 'Token budget of the session-start profile block.',
  },
  resumeContextBudget: {
    env: 'OPENVIKING_RESUME_CONTEXT_BUDGET',
    type: 'int',
    default: 32000,
    min: 1024,
    max: 128000,
    description: 'Token budget asked of the server for the archive overview on resume and compact.',
  },
  promptDeadlineMs: {
    env: 'OPENVIKING_PROMPT_DEADLINE_MS',
    type: 'int',
    default: 2 * SECOND,
    min: 200,
    max: 30 * SECOND,
    description: 'Whole-stage deadline of recall; past it the prompt goes on without memories.',
  },
  startDeadlineMs: {
    env: 'OPENVIKING_START_DEADLINE_MS',
    type: 'int',
    default: 3 * SECOND,
    min: 200,
    max: 30 * SECOND,
    description: 'Whole-stage deadline of the session-start profile injection.',
  },
  syncCaptureDeadlineMs: {
    env: 'OPENVIKING_SYNC_CAPTURE_DEADLINE_MS',
    type: 'int',
    default: 20 * SECOND,
    min: SECOND,
    max: 120 * SECOND,
    description: 'Deadline of the synchronous capture before compaction.',
  },
  timeoutMs: {
    env: 'OPENVIKING_TIMEOUT_MS',
    type: 'int',
    default: 15 * SECOND,
    min: SECOND,
    max: 300 * SECOND,
    description: 'Per-request timeout of background work (capture worker, replay) and of each MCP tool call.',
  },
} satisfies Partial<KnobTable>;
