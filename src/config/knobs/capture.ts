/**
 * What a finished turn sends and when a session is committed: the client's
 * thresholds and the server's own commit policy (DESIGN D19), and how long
 * capture state is kept.
 *
 * One part of the knob table (index.ts assembles it, in the order of
 * docs/settings.md); a knob is defined in one part only.
 *
 * @module
 */
import type { KnobTable } from '../knobTypes.js';
import { SECOND } from './units.js';

export const CAPTURE_KNOBS = {
  commitTokenThreshold: {
    env: 'OPENVIKING_COMMIT_TOKEN_THRESHOLD',
    type: 'int',
    default: 20000,
    min: 1000,
    max: 10_000_000,
    description: 'Pending server tokens that trigger a commit after a turn.',
  },
  commitKeepRecentCount: {
    env: 'OPENVIKING_COMMIT_KEEP_RECENT_COUNT',
    type: 'int',
    default: 10,
    min: 0,
    max: 10000,
    description:
      "Newest messages a client-side threshold commit leaves out of the archive. Applies only where the server's commit policy is not used (`OPENVIKING_SERVER_COMMIT_POLICY=false`, or a server without it): the policy always archives everything (DESIGN D19).",
  },
  staleCommitIdleMs: {
    env: 'OPENVIKING_STALE_COMMIT_IDLE_MS',
    type: 'int',
    default: 30 * 60 * SECOND,
    min: 0,
    max: 7 * 24 * 3600 * SECOND,
    description:
      'A session start commits another session of the workspace only after this long without transcript growth or capture (a live session is never cut).',
  },
  serverCommitPolicy: {
    env: 'OPENVIKING_SERVER_COMMIT_POLICY',
    type: 'bool',
    default: true,
    description:
      "Give each captured session the server's own `auto_commit_policy` (`OPENVIKING_COMMIT_TOKEN_THRESHOLD`, `OPENVIKING_SERVER_COMMIT_MESSAGE_THRESHOLD`, `OPENVIKING_SERVER_COMMIT_IDLE_SECONDS`, keep 0); servers without it keep the client-side rules.",
  },
  serverCommitMessageThreshold: {
    env: 'OPENVIKING_SERVER_COMMIT_MESSAGE_THRESHOLD',
    type: 'int',
    default: 200,
    min: 0,
    max: 1000,
    description:
      'Live messages after which the server commits a session by itself (its policy; 0: no message threshold).',
  },
  captureRetentionDays: {
    env: 'OPENVIKING_CAPTURE_RETENTION_DAYS',
    type: 'int',
    default: 90,
    min: 1,
    max: 3650,
    description:
      "Days a committed, idle session's capture state is kept while its transcript exists (then it goes; a session resumed later is captured again from its start). Gone at once when the transcript is.",
  },
  serverCommitIdleSeconds: {
    env: 'OPENVIKING_SERVER_COMMIT_IDLE_SECONDS',
    type: 'int',
    default: 1800,
    min: 0,
    max: 604800,
    description:
      "Idle seconds after which the server commits a session by itself (honoured when the server's idle scanner is on; 0: none; OpenViking takes 0 or at least 300, so less is sent as 300).",
  },
  captureAssistantTurns: {
    env: 'OPENVIKING_CAPTURE_ASSISTANT_TURNS',
    type: 'bool',
    failClosed: false,
    default: true,
    description: "Capture the assistant's turns too, not only the user's.",
  },
  captureToolMaxChars: {
    env: 'OPENVIKING_CAPTURE_TOOL_MAX_CHARS',
    type: 'int',
    default: 1_000_000,
    min: 1000,
    max: 1_000_000,
    description: 'Characters of a tool output kept when capturing (the server externalises big ones).',
  },
} satisfies Partial<KnobTable>;
