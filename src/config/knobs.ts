/**
 * The one table of the plugin's tunables.
 *
 * Each `Settings` field is defined here once: its env name, type, default,
 * bounds and a one-line description. The loader (settings.ts), the README
 * table (knobTable.ts) and doctor all read this table, so a knob cannot exist
 * in one place and be missing from another. Its type (`KnobTable`,
 * knobTypes.ts) makes the compiler insist on exactly one entry per
 * `Settings` field with a default of the field's type.
 *
 * A table, not logic: the one file of src/ past the size rule's 300 lines
 * (eslint.config.mjs), because splitting it would spread one list over
 * several files.
 *
 * Env names follow openviking-api.md §5.3/§5.4 where the reference plugins
 * already have one; the rest are new and use the same `OPENVIKING_` prefix.
 * Defaults follow the thin-hook runtime unless noted.
 *
 * @module
 */
import type { Knob, KnobTable } from './knobTypes.js';
import { DEFAULT_DEBUG_LOG_PATH } from './scalars.js';

const SECOND = 1000;

export const KNOB_TABLE: KnobTable = {
  enabled: {
    env: 'OPENVIKING_MEMORY_ENABLED',
    type: 'bool',
    failClosed: false,
    default: true,
    description:
      'Master switch; off: nothing is sent at all (no recall, start read, capture, replay or MCP call; see README: Privacy).',
  },
  autoRecall: {
    env: 'OPENVIKING_AUTO_RECALL',
    type: 'bool',
    failClosed: false,
    default: true,
    description: 'Inject relevant memories before each prompt.',
  },
  autoCapture: {
    env: 'OPENVIKING_AUTO_CAPTURE',
    type: 'bool',
    failClosed: false,
    default: true,
    description:
      'Send each finished turn to OpenViking and commit it; off: nothing of the conversation is stored (no capture, no replay of queued turns, no commit); recall still follows `OPENVIKING_AUTO_RECALL`.',
  },
  autoProfile: {
    env: 'OPENVIKING_AUTO_PROFILE',
    type: 'bool',
    default: true,
    description: 'Inject the user profile and memory listing at session start.',
  },
  mcpEnabled: {
    env: 'OPENVIKING_MCP_ENABLED',
    type: 'bool',
    default: true,
    description:
      "Offer this plugin's MCP tools (`servers/mcp-proxy.mjs`); off (hooks only, for your own OpenViking MCP server): the proxy offers no tool and contacts nothing, and the hints (start and recall blocks, the guard's reason) name the tools of `OPENVIKING_MCP_SERVER` instead.",
  },
  mcpServer: {
    env: 'OPENVIKING_MCP_SERVER',
    type: 'string',
    // It goes into text the model reads (the blocks' tool lines, the guard's reason, the tools-off answer): a tool name's shape only (issue 29 item 3).
    shape: {
      pattern: /^(?:mcp__[A-Za-z0-9_-]{1,59}|(?!mcp__)[^\u0000-\u001f\u007f-\u009f<>]{1,64})$/,
      expected:
        'a server key (1-64 characters, no control character, < or >) or a tool-name prefix mcp__<letters, digits, _ or -> (at most 64 characters)',
    },
    default: 'openviking',
    description:
      "With `OPENVIKING_MCP_ENABLED` off: the key of your own OpenViking MCP server in the host's MCP settings; the hints call its tools `mcp__<key>__<tool>` on both hosts (a value starting with `mcp__` is taken as the tool-name prefix itself).",
  },
  recallLimit: {
    env: 'OPENVIKING_RECALL_LIMIT',
    type: 'int',
    default: 10,
    min: 1,
    max: 100,
    description: 'Most memories injected per prompt.',
  },
  scoreThreshold: {
    env: 'OPENVIKING_SCORE_THRESHOLD',
    type: 'float',
    default: 0.35,
    min: 0,
    max: 1,
    description: 'Lowest relevance score a recalled memory may have.',
  },
  minQueryLength: {
    env: 'OPENVIKING_MIN_QUERY_LENGTH',
    type: 'int',
    default: 3,
    min: 1,
    max: 1000,
    description: 'Prompts shorter than this (characters, once private parts are removed) skip recall.',
  },
  recallMaxTokens: {
    env: 'OPENVIKING_RECALL_MAX_TOKENS',
    type: 'int',
    default: 1600,
    min: 64,
    max: 32000,
    description: 'Server-side token budget of the recall block (context search `max_tokens`).',
  },
  recallDedupTurns: {
    env: 'OPENVIKING_RECALL_DEDUP_TURNS',
    type: 'int',
    default: 5,
    min: 0,
    max: 100,
    description: 'Turns during which the server does not repeat a memory it already injected (0: off).',
  },
  recallTokenBudget: {
    env: 'OPENVIKING_RECALL_TOKEN_BUDGET',
    type: 'int',
    default: 2000,
    min: 200,
    max: 32000,
    description: 'Token budget of the client-side fallback recall block.',
  },
  recallMaxContentChars: {
    env: 'OPENVIKING_RECALL_MAX_CONTENT_CHARS',
    type: 'int',
    default: 500,
    min: 50,
    max: 20000,
    description: 'Characters kept per memory in the fallback recall block.',
  },
  workspacePeer: {
    env: 'OPENVIKING_WORKSPACE_PEER',
    type: 'bool',
    default: true,
    description:
      'Give each project its own peer id (by `OPENVIKING_PEER_SOURCE`) when none is named; off: none (named ids still apply); see projects.md.',
  },
  peerSource: {
    env: 'OPENVIKING_PEER_SOURCE',
    type: 'csv',
    default: [],
    description:
      "How a project's peer id is derived when none is named, as OpenViking's own plugins do (see projects.md): `git` (empty: the `origin` remote, else the repository's path), `cwd` (the working folder's path), `none`, or comma-separated templates over `{git_remote}`, `{git_root}`, `{cwd}`, `{dir}`, `{git_port}` (the first that resolves wins). A workspace's `peer.source` comes after the environment, before ovcli.conf.",
  },
  recallPeerScope: {
    env: 'OPENVIKING_RECALL_PEER_SCOPE',
    type: 'string',
    choices: ['all', 'actor'],
    default: 'all',
    description:
      "`all`: other projects' memories may be recalled, penalised; `actor`: only this project's and those of no project.",
  },
  recallOtherPeerPenalty: {
    env: 'OPENVIKING_RECALL_OTHER_PEER_PENALTY',
    type: 'float',
    default: 0.3,
    min: 0,
    max: 1,
    description:
      "Score taken off another project's memories in recall (`all` scope), so they appear only when strongly relevant.",
  },
  recallExcludeUris: {
    env: 'OPENVIKING_RECALL_EXCLUDE_URIS',
    type: 'csv',
    default: [],
    description: 'Comma-separated URIs (a folder URI covers everything below it) that recall never injects.',
  },
  recallPrefix: {
    env: 'OPENVIKING_RECALL_PREFIX',
    type: 'string',
    default: '',
    description:
      'Opt-in recall: only prompts starting with this (e.g. `?ov`) are recalled for, without it; empty: every prompt.',
  },
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
  resident: {
    env: 'OPENVIKING_RESIDENT',
    type: 'bool',
    default: true,
    description:
      'Keep the resident helper that answers prompt hooks (see README: The resident helper); off: each prompt hook recalls by itself (always so on Windows).',
  },
  residentIdleMs: {
    env: 'OPENVIKING_RESIDENT_IDLE_MS',
    type: 'int',
    default: 15 * 60 * SECOND,
    min: 100,
    max: 12 * 3600 * SECOND,
    description: 'The resident helper leaves after this long without a prompt.',
  },
  module: {
    env: 'OPENVIKING_MODULE',
    type: 'bool',
    default: true,
    description:
      'The in-process hooks module on Claude Code 2.1.328+ (the only host that loads it; see Hosts and versions); off: it only passes every event on and the hook commands do everything, as on CodeBuddy. The module reads this variable (from the environment or `~/.claude/settings.json` `env`), not ovcli.conf.',
  },
  debug: {
    env: 'OPENVIKING_DEBUG',
    type: 'bool',
    default: false,
    description:
      "Write a JSON-lines debug log (hooks, workers, resident, doctor; the MCP tools log to the host's MCP log).",
  },
  debugLogPath: {
    env: 'OPENVIKING_DEBUG_LOG',
    type: 'path',
    default: DEFAULT_DEBUG_LOG_PATH,
    description: 'Where the debug log goes; `~` is your home directory, and a relative path is taken from it.',
  },
};

/** The table as a list, in declaration order. */
export function listKnobs(): Knob[] {
  return Object.entries(KNOB_TABLE).map(([key, knob]) => ({ ...knob, key }) as Knob);
}
