/**
 * The stage contract: what a stage may touch of the outside world
 * (`StageDeps`), what it decides (`StageResult`), and the shape of a stage.
 * Stages are functions of (input, deps) and never read `process`
 * themselves; the hook process builds the real deps (hook/nodeDeps.ts), the
 * resident builds one per request, and tests build their own. It sits next
 * to the protocol because a stage's result is what envelope.ts encodes.
 *
 * @module
 */
import type { HttpTransport } from '../openviking/http.js';
import type { Runner } from '../store/status.js';
import type { HookInput } from './input.js';

export interface Logger {
  /** Opt-in debug log (the `debug` knob). Never pass secrets. */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Problems worth recording even without debug (still never shown to the model). */
  warn(message: string, fields?: Record<string, unknown>): void;
  /**
   * The debug log's two knobs, once the configuration is loaded (hook/log.ts
   * holds earlier lines until then). Called by `loadStageConfig`.
   */
  configure?(settings: LogSettings): void;
}

/** The knobs the debug log follows. */
export interface LogSettings {
  debug: boolean;
  /** Absolute path (`~` already expanded). */
  debugLogPath: string;
}

export interface StageDeps {
  now(): number;
  /**
   * A monotonic clock in ms, for waits that must not stretch when the wall
   * clock steps (the prompt hook's wait for its resident). Default `now`.
   */
  monotonicMs?(): number;
  env: Readonly<Record<string, string | undefined>>;
  /** The hook process's working directory (the workspace on CodeBuddy). */
  cwd: string;
  homeDir: string;
  /** Absolute path of the plugin root (CODEBUDDY_PLUGIN_ROOT, else derived from the bundle location). */
  pluginRoot: string;
  http: HttpTransport;
  /** This process's id (names the requests it sends a resident). */
  pid: number;
  /**
   * Bytes one write to a pipe delivers whole, never interleaved with
   * another writer's (PIPE_BUF): 4096 on Linux, the POSIX minimum 512
   * elsewhere, and 0 where there are no FIFOs (Windows), which turns the
   * resident helper off (DESIGN D16).
   */
  pipeAtomicBytes: number;
  /**
   * Starts `node <pluginRoot>/scripts/hook.cjs <args>` detached, with `stdin`
   * written to it, and returns at once. The host neither waits for nor kills
   * it (seed 000 §7). Returns false when the spawn failed. `env`, when
   * given, is the child's whole environment (the resident helper starts
   * with a minimal one, DESIGN D20); default: this process's.
   */
  spawnDetached(args: readonly string[], stdin: string, env?: Readonly<Record<string, string>>): boolean;
  /**
   * The last exchange of a transcript (the user message and the answer's
   * text; transcript/lastExchange.ts), for a short prompt's recall query
   * (DESIGN D43). Absent where nothing may read files by itself (the hooks
   * module): the prompt alone is then searched.
   */
  readLastExchange?(path: string): Promise<{ user?: string; assistant?: string }>;
  /**
   * True in a process that already runs off the host's clock (`hook.cjs
   * detached`, behind hooks/detach.sh; DESIGN D11): the host has its
   * answer, so a stage does its background work itself, after the answer
   * (`afterAnswer`), instead of starting one more process. A session start
   * run this way is one the hooks module answers (the hand-off's mark, an
   * argument no child inherits: stages/start.ts, D31).
   */
  offHostClock?: boolean;
  /**
   * The print of its environment that hooks/relay.sh handed this hook
   * (`hook.cjs door <print>`): the resident that answers it opens a door
   * for it, so the next hook of this environment needs no node (DESIGN D45).
   */
  doorPrint?: string;
  /**
   * Which process runs the stage; absent: a hook command's own (`hook`).
   * The resident helper says `resident` for each request it serves
   * (resident/server.ts), the hooks module `module` (mod/deps.ts). The
   * prompt stage records it with each recall, so `why`, doctor and the
   * tests see who answered a prompt.
   */
  runner?: Runner;
  /**
   * Work that must be done but need not delay the answer (status files).
   * A hook process runs it before it exits; the resident helper after it
   * has replied (DESIGN D16). A failure is logged, never thrown.
   */
  afterAnswer(task: () => Promise<void> | void): void;
  log: Logger;
  /**
   * Ends this process at once, with no cleanup (SIGKILL). Only the worker's
   * crash-test seam (`OPENVIKING_TEST_CRASH_AT`) calls it, to prove that a
   * capture killed at any point loses and duplicates nothing.
   */
  killNow?(): void;
}

/**
 * What a stage decided; the protocol encoder turns it into the host's
 * envelope. `notice` is one line for the user only (the envelope's
 * `systemMessage`, seed 000 §5), on SessionStart and UserPromptSubmit.
 */
export type StageResult =
  | { kind: 'pass'; notice?: string }
  | { kind: 'context'; text: string; notice?: string }
  | { kind: 'deny'; reason: string };

export const PASS: StageResult = Object.freeze({ kind: 'pass' });

/**
 * Every stage has this shape: a function of the event and the outside
 * world. A stage may answer synchronously (the guard, the prompt relay
 * when the resident answers): the dispatcher then arms no timer at all.
 */
export type Stage = (input: HookInput, deps: StageDeps) => StageResult | Promise<StageResult>;
