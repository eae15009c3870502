/**
 * Vocabulary of the configuration layer. The knob table (knobs/index.ts) is the one
 * place that defines each tunable's default, bounds and env name; `Settings`
 * is its typed result. No runtime code here.
 *
 * @module
 */

/** Where a resolved value came from, for doctor (`env:OPENVIKING_API_KEY`, `file:~/.openviking/ovcli.conf`, `userConfig:api_key`, `default`). */
export type ValueSource = string;

export interface Credentials {
  baseUrl: string;
  mcpUrl: string;
  apiKey?: string;
  account?: string;
  user?: string;
  peerId?: string;
  /** Field name → where its value came from. */
  sources: Partial<Record<'baseUrl' | 'mcpUrl' | 'apiKey' | 'account' | 'user' | 'peerId', ValueSource>>;
  /** True when the only key found is ov.conf `server.root_api_key` (OpenViking rejects root keys on data APIs). */
  rootKeyOnly: boolean;
  /** Config files that were read (and exist), for doctor and for the MCP proxy's change watch. */
  files: string[];
  /** Values found but not used, and why (a source before them won, another server's identity, `cli` mode), for doctor. */
  skipped?: SkippedValue[];
  /** The URL in use (server or MCP) is not an http(s) URL: kept as written, so requests fail rather than go elsewhere. */
  urlProblem?: { source: ValueSource; problem: string };
  /** Configuration files that exist but were ignored whole (not JSON, not a regular file, too large), for doctor. */
  refused?: RefusedFile[];
}

/** A configuration file the plugin ignored whole, and why (the warning, naming the file and the line). */
export interface RefusedFile {
  /** As shown to the user (`~/.openviking/ovcli.conf`). */
  path: string;
  problem: string;
}

/** A credential value a source set that the resolution did not use. */
export interface SkippedValue {
  field: keyof Credentials['sources'];
  source: ValueSource;
  reason: string;
  /** `shadowed`: a source before it set the field; `other-server`: another server's identity; `cli-mode`: not ovcli.conf in `cli` mode (also a warning). */
  kind: 'shadowed' | 'other-server' | 'cli-mode';
}

export interface Settings {
  enabled: boolean;
  autoRecall: boolean;
  autoCapture: boolean;
  autoProfile: boolean;
  /** Offer the bundled MCP server's tools (DESIGN D29); off: hooks only, hints name `mcpServer`'s tools. */
  mcpEnabled: boolean;
  /** The user's own OpenViking MCP server key (or `mcp__…` tool prefix), named by the hints when `mcpEnabled` is off. */
  mcpServer: string;
  recallLimit: number;
  scoreThreshold: number;
  /** Recall injects nothing when its best relevance (score plus re-rank) is below this; 0: off (D43, recall/relevanceGate.ts). */
  recallMinRelevance: number;
  minQueryLength: number;
  recallMaxTokens: number;
  recallDedupTurns: number;
  recallTokenBudget: number;
  recallMaxContentChars: number;
  /** Derive the project's peer id from git when none is configured (DESIGN D24). */
  workspacePeer: boolean;
  /** `peer.source` of the environment or ovcli.conf: a preset (`git`, `cwd`, `none`) or templates; empty: `git` (DESIGN D24). */
  peerSource: string[];
  /** `actor`: recall only this project's and peer-less memories; `all`: others too, penalised. */
  recallPeerScope: string;
  /** Score penalty of another project's memories in recall (peer scope `all`). */
  recallOtherPeerPenalty: number;
  /** URIs (or URI prefixes) recall never injects. */
  recallExcludeUris: string[];
  /** Opt-in recall: when set, only prompts starting with it are recalled for (it is stripped from the query). */
  recallPrefix: string;
  profileTokenBudget: number;
  resumeContextBudget: number;
  /** Whole-stage deadline of the prompt stage (UserPromptSubmit timeout drops the prompt). */
  promptDeadlineMs: number;
  /** Whole-stage deadline of the start stage. */
  startDeadlineMs: number;
  /** Deadline of synchronous capture (PreCompact) inside the hook. */
  syncCaptureDeadlineMs: number;
  /** Per-request timeout for background work (capture worker, replay). */
  timeoutMs: number;
  commitTokenThreshold: number;
  commitKeepRecentCount: number;
  /** A session counts as left behind (commit-stale may commit it) after this long without transcript growth or capture. */
  staleCommitIdleMs: number;
  /** Give each captured session the server's own commit policy (openviking-api.md §10). */
  serverCommitPolicy: boolean;
  /** The server policy's message-count threshold. */
  serverCommitMessageThreshold: number;
  /** The server policy's idle timeout (seconds; enforced only when the server's idle scanner is on). */
  serverCommitIdleSeconds: number;
  /** Days a committed, idle session's capture state is kept while its transcript exists (retention.ts). */
  captureRetentionDays: number;
  captureAssistantTurns: boolean;
  captureToolMaxChars: number;
  bypassSession: boolean;
  /** Comma-separated globs matched against the session id and the cwd. */
  bypassPatterns: string[];
  pendingReplayLimit: number;
  pendingReplayBudgetMs: number;
  pendingMaxRetries: number;
  pendingTtlDays: number;
  lockTimeoutMs: number;
  /** Let prompt hooks hand their work to the resident helper (DESIGN D16). */
  resident: boolean;
  /** The resident helper's idle time before it leaves. */
  residentIdleMs: number;
  /** The in-process hooks module where the host loads one (DESIGN D27); off: it only passes events on. */
  module: boolean;
  debug: boolean;
  debugLogPath: string;
}

export interface PluginConfig {
  credentials: Credentials;
  settings: Settings;
  /** Settings field → where its value came from (`env:…`, `file:…#plugin.codebuddy.…`, `default`), for doctor. */
  settingSources?: Partial<Record<keyof Settings, ValueSource>>;
  /** Human-readable problems (malformed file, out-of-range value, root key), each naming its source. */
  warnings: string[];
  /** The plugin's data dir (store/paths.ts), where the user's approvals of workspace files' peers are (project/trust.ts, D32). */
  dataDir?: string;
  /** Privacy switches whose value was not understood and reads as the value that sends less, each as it was set (`OPENVIKING_MEMORY_ENABLED="disabled"`), for the session-start line and the switches' reasons. */
  failedClosed?: Partial<Record<keyof Settings, string>>;
}
