/**
 * Vocabulary of the hook wire protocol as a host runs it: the hooks.json
 * shapes, the neutral decoding of one hook's exit code and output, and the
 * folded outcome of every hook matched by one event. No runtime code.
 *
 * The plugin's own hook process only encodes (envelope.ts); the decoding side
 * (codec, runner, merge) exists so the tests' host simulator reads our output
 * exactly the way CodeBuddy does, with the same code a reviewer can check
 * against seed 001 and the 2.117 bundle.
 *
 * @module
 */

/**
 * How a matcher pattern is read.
 * - `codebuddy`: always an unanchored JavaScript regex (the 2.117 bundle's
 *   `findMatchingHooks` does `new RegExp(matcher).test(query)`), so `Edit`
 *   also selects `NotebookEdit` and `MultiEdit`.
 * - `claude`: a pattern made only of `[A-Za-z0-9_|]` is a literal, `|`
 *   separating exact alternatives; anything else is an unanchored regex.
 * In both, an absent, empty or `*` pattern matches everything and an invalid
 * regex matches nothing.
 */
export type MatcherMode = 'codebuddy' | 'claude';

/** One `{ type: "command", command, timeout? }` entry of hooks.json. */
export interface CommandHook {
  type: 'command';
  command: string;
  /** Seconds, the wire unit of hooks.json; the host default is 60. */
  timeout?: number;
}

/** One matcher group: a pattern and the hooks it selects. */
export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHook[];
}

/** The `hooks` object of hooks.json: event name → matcher groups. */
export type HooksConfig = Record<string, MatcherGroup[]>;

/** One process run as the host sees it (what an executor reports). */
export interface ProcessOutcome {
  /** `null` when the process ended by a signal. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** True when the executor killed the process at its timeout. */
  timedOut: boolean;
}

/** Runs one command line; see runner.ts. May reject when nothing could be started. */
export type ShellExecutor = (request: ShellRequest) => Promise<ProcessOutcome>;

export interface ShellRequest {
  command: string;
  /** Exact bytes written to the process's stdin, then closed (bytes allow tests to send non-UTF-8 input). */
  stdin: string | Uint8Array;
  timeoutMs: number;
}

/**
 * The host-neutral meaning of one hook's exit code, stdout and stderr
 * (codec.ts). Every field but the raw ones is optional: a hook may say any
 * subset, and the reader decides what matters for its event.
 */
export interface HookOutput {
  /** Raw exit code; `undefined` when the hook never ran or was killed. */
  exitCode: number | undefined;
  /** Trimmed stdout; plain text when it was not JSON. */
  stdout: string;
  /** Trimmed stderr. */
  stderr: string;
  /** How the run ended: `ok` (exit 0), `blocking` (exit 2 or timeout), `non-blocking` (any other failure). */
  status: 'ok' | 'blocking' | 'non-blocking';
  /** True when the hook was killed at its timeout (CodeBuddy treats that as a block). */
  timedOut?: boolean;
  /** `continue: false` asks the host to halt. */
  continue?: boolean;
  stopReason?: string;
  /**
   * The decision, folded from the two channels: top-level `decision`
   * (`approve` | `block`, legacy) and `hookSpecificOutput.permissionDecision`
   * (`allow` | `deny` | `ask`). The latter wins when both are present, as in
   * CodeBuddy's parser. Exit code 2 and a timeout read as `block`.
   */
  decision?: 'approve' | 'block' | 'allow' | 'deny' | 'ask';
  /** `permissionDecisionReason`, else top-level `reason`, else stderr on a block. */
  reason?: string;
  /** `hookSpecificOutput.hookEventName`, as claimed by the hook. */
  hookEventName?: string;
  additionalContext?: string;
  /** User-visible only; never reaches the model. */
  systemMessage?: string;
  /** `hookSpecificOutput.updatedInput` / `modifiedInput`, parsed but never honoured here. */
  updatedInput?: Record<string, unknown>;
}

/** What the runner reports for one hook. */
export interface HookRun {
  output: HookOutput;
  durationMs: number;
}

/** Decision after folding every matched hook: deny > ask > allow > none. */
export type MergedDecision = 'deny' | 'ask' | 'allow' | 'none';

/** The folded outcome of all hooks one event matched (merge.ts). */
export interface MergedHookOutcome {
  decision: MergedDecision;
  /** Reasons of the hooks that produced the winning (deny or ask) decision, joined by a blank line. */
  reason?: string;
  /** True once any hook said `continue: false`. */
  stop: boolean;
  /** The first halting hook's `stopReason`. */
  stopReason?: string;
  /** Every hook's context, in registration order (Claude Code delivers all of them). */
  additionalContext: string[];
  /**
   * What CodeBuddy 2.117 actually delivers: it shallow-merges the hooks'
   * `hookSpecificOutput` objects in registration order, so the LAST
   * registered hook that set `additionalContext` wins and the others are
   * lost (codebuddy-host README §3, scenario W).
   */
  hostAdditionalContext?: string;
  systemMessages: string[];
}
