/**
 * Entry of `scripts/hook.cjs`: with hook/resident.ts (the resident's own
 * entry, which it hands what it builds here) the only code that touches
 * `process`. CommonJS, so no hook starts node's ESM loader (D38);
 * `scripts/hook.mjs` is an ES shim that runs it, for people's command lines.
 *
 * Its run modes:
 * - `node hook.cjs` (hooks in hooks/hooks.json): read stdin once,
 *   bounded; dispatch by `hook_event_name`; write the encoded answer; exit 0.
 * - `node hook.cjs door <print>` (hooks/relay.sh): hook mode, with the print
 *   of the environment the script saw, for the resident's door (D45).
 * - `node hook.cjs detached` (started in the background by hooks/detach.sh
 *   for Stop, SubagentStop, SessionEnd and SubagentStart, whose answer is
 *   always the pass-through): the same dispatch, but already off the host's
 *   clock, so the stage does its background work in this process after its
 *   answer (`StageDeps.offHostClock`; no second node).
 * - `node hook.mjs <command> …` (`doctor`, `why`, `recall-preview`,
 *   `learned`, `import`, `requeue-dead`, `trust`, `--help`, `--version`): a person's command, checked and
 *   run by the lazily loaded command line (cli.ts, the table in
 *   commands.ts); a typo is an error naming the nearest command.
 * - `node hook.cjs worker <kind>`: a detached background job (capture),
 *   started by a stage through `StageDeps.spawnDetached`.
 * - `node hook.cjs resident`: the resident helper that answers prompt hooks
 *   (DESIGN D16), started the same way; its entry is hook/resident.ts.
 *
 * Hook mode never fails the host: any exception, a stdin that never closes,
 * or a stage past its budget answers the pass-through (no output) with exit
 * 0, under one whole-process safety timer (armed once the event is routed)
 * kept inside the event's hooks.json timeout (a killed hook BLOCKS on
 * CodeBuddy). Start-up cost is the product's latency, so this file imports
 * only small modules and takes builtins through getBuiltinModule (build.mjs);
 * stages other than the guard, the doctor and the worker are dynamic
 * imports (each a `require` of its lazy file in the bundle), and so is the HTTP transport (on its first request).
 *
 * @module
 */
import { fstatSync, readSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { HttpTransport } from '../openviking/http.js';
import { dispatchHook } from './dispatch.js';
import { createLogger, type HookLogger } from './log.js';
import { createNodeDeps } from './nodeDeps.js';
import type { NodeDeps, NodeHost } from './nodeDeps.js';
import type { LogSettings, Logger } from '../protocol/stage.js';
import { PREFLIGHT_SAFETY_MS } from '../protocol/budgets.js';
import { socketBufferBytes, withReadBarrier } from '../protocol/readBarrier.js';
import { routeFor } from './routes.js';
import { MAX_STDIN_BYTES, readBoundedStdin, readHookStdin } from '../protocol/stdin.js';
import type { StdinFd, StdinResult } from '../protocol/stdin.js';
import { errorMessage } from '../util/errors.js';

/** Longest wait for detached workers' stdin to flush before the hook exits. */
const SETTLE_CAP_MS = 1_000;
/** Stdin reading gives up a little before the preflight budget ends. */
const STDIN_TIMEOUT_MS = PREFLIGHT_SAFETY_MS - 500;
/** A worker's job payload may be larger than a hook's stdin. */
const WORKER_MAX_STDIN_BYTES = 16 * 1024 * 1024;
const WORKER_STDIN_TIMEOUT_MS = 10_000;
/** A detached worker never lives longer than this, whatever it is waiting for. */
const WORKER_LIFETIME_MS = 10 * 60_000;

const startedAt = Date.now();

/** The bundle this process runs (scripts/hook.cjs): CommonJS names its own file. */
const ENTRY_FILE = __filename;

/**
 * A node builtin loaded on demand, synchronously (the bundle's banner provides getBuiltinModule on nodes
 * older than 20.16): node:child_process (≈44 internal modules) and node:os stay off hooks that never use them.
 */
function builtin<T>(id: string): T {
  return process.getBuiltinModule(id) as T;
}

function homeDir(): string {
  return process.env.HOME || builtin<typeof import('node:os')>('node:os').homedir();
}

/** Loggers still holding lines (their settings never came, hook/log.ts): written at exit. */
const unconfigured = new Set<HookLogger>();

function buildLogger(): HookLogger {
  const logger = createLogger({
    env: process.env,
    homeDir: homeDir(),
    now: Date.now,
    pid: process.pid,
    writeStderr: (line) => process.stderr.write(line),
  });
  if (unconfigured.size === 0) process.once('exit', () => unconfigured.forEach((held) => held.flush()));
  unconfigured.add(logger);
  return logger;
}

/**
 * The logger, built on its first line: most hooks never log. It learns the
 * debug knobs when the stage loads the configuration (`configure`).
 */
function lazyLogger(): Logger {
  let logger: HookLogger | undefined;
  let settings: LogSettings | undefined;
  const get = (): HookLogger => {
    if (logger === undefined) {
      logger = buildLogger();
      if (settings !== undefined) configure(settings);
    }
    return logger;
  };
  const configure = (next: LogSettings): void => {
    settings = next;
    if (logger === undefined) return;
    logger.configure(next);
    unconfigured.delete(logger);
  };
  return {
    debug: (message, fields) => get().debug(message, fields),
    warn: (message, fields) => get().warn(message, fields),
    configure,
  };
}

/** `stage`: the env, cwd and transport of a hook's stage the resident runs; `mode`: `hook.cjs detached` or `door`. */
function buildDeps(
  stage?: { env: Record<string, string>; cwd: string; http: HttpTransport },
  mode: Pick<NodeHost, 'offHostClock' | 'doorPrint'> = {},
): NodeDeps {
  const env = stage?.env ?? process.env;
  const log = lazyLogger();
  const pluginRoot = env.CODEBUDDY_PLUGIN_ROOT || env.CLAUDE_PLUGIN_ROOT || resolve(dirname(ENTRY_FILE), '..');
  return createNodeDeps({
    env,
    cwd: stage?.cwd ?? process.cwd(),
    homeDir: env.HOME || homeDir(),
    pluginRoot: resolve(pluginRoot),
    execPath: process.execPath,
    pid: process.pid,
    platform: process.platform,
    loadSpawn: () => builtin<typeof import('node:child_process')>('node:child_process').spawn,
    now: Date.now,
    log,
    monotonicMs: () => Number(process.hrtime.bigint()) / 1e6,
    ...mode,
    killNow: () => process.kill(process.pid, 'SIGKILL'),
    ...(stage ? { http: stage.http } : {}),
  });
}

/** A background job's last debug line: how long it ran and its peak memory. */
function logJobEnd(log: Logger, job: string): void {
  log.debug('process done', { job, ms: Date.now() - startedAt, maxRssKb: process.resourceUsage().maxRSS });
}

const STDIN_FD: StdinFd = {
  isCharacterDevice: () => fstatSync(0).isCharacterDevice(),
  readSync: (buffer) => readSync(0, buffer, 0, buffer.length, null),
};

/** A hook's stdin, bounded; `process.stdin` is created only if the fast path needs it. */
function readStdin(maxBytes: number, timeoutMs: number): Promise<StdinResult> {
  return readHookStdin(STDIN_FD, () => process.stdin, maxBytes, timeoutMs);
}

/**
 * A background job's stdin (detached dispatcher, worker): the plain stream
 * reader to end-of-file. These run off the host's clock, so the fast path's
 * few milliseconds buy nothing there, and reading to EOF is the simplest
 * contract with the writer (detach.sh's here-document, a parent's pipe).
 */
function readJobStdin(maxBytes: number, timeoutMs: number): Promise<StdinResult> {
  return readBoundedStdin(process.stdin, maxBytes, timeoutMs);
}

/**
 * Writes `text` to fd 1 synchronously, then calls `done`. `process.stdout`
 * on the host's pipe would load node's stream stack and `net` (~5 ms) for
 * one small answer; it is used only for what a non-blocking fd 1 refuses
 * (EAGAIN). Any other error (the host closed the pipe) ends the write.
 */
function writeStdout(text: string, done: () => void): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EAGAIN')
      return void process.stdout.write(bytes.subarray(written), done);
  }
  done();
}

/** Writes `stdout` (if any), then ends the process with `code`, once. */
let exiting = false;
function exitWith(stdout: string, code: number): void {
  if (exiting) return;
  exiting = true;
  if (stdout === '') process.exit(code);
  writeStdout(stdout, () => process.exit(code));
}

/** Re-arms the one whole-process timer; when it fires the answer is the pass-through. */
let safetyTimer: ReturnType<typeof setTimeout> | undefined;
function armSafety(untilMsSinceStart: number, code: number): void {
  clearTimeout(safetyTimer);
  safetyTimer = setTimeout(() => exitWith('', code), Math.max(0, untilMsSinceStart - (Date.now() - startedAt)));
  safetyTimer.unref();
}

/**
 * No safety timer until the event is routed: reading stdin is one
 * synchronous read, or the stream reader under its own STDIN_TIMEOUT_MS;
 * parsing and routing are synchronous. The first timer of a process costs
 * ~0.5 ms (node sets up its timer lists), a third of what the no-op path
 * spends above an empty module.
 */
async function runHookEvent(doorPrint?: string): Promise<void> {
  const stdin = await readStdin(MAX_STDIN_BYTES, STDIN_TIMEOUT_MS);
  // A person at a terminal, not a host (hosts pipe the event): the usage, and still exit 0.
  if (stdin.status === 'tty') return runPersonCommand(['--help']).then(() => undefined);
  if (stdin.status !== 'complete') return exitWith('', 0);
  let built: NodeDeps | undefined;
  const stdout = await dispatchHook(stdin.text, {
    parsedJson: stdin.json,
    routeFor,
    createDeps: () => (built ??= buildDeps(undefined, doorPrint === undefined ? {} : { doorPrint })).deps,
    elapsedMs: () => Date.now() - startedAt,
    onRoute: (route) => armSafety(route.safetyMs, 0),
  });
  await built?.settle(SETTLE_CAP_MS);
  exitWith(withReadBarrier(stdout, process.env, socketBufferBytes), 0);
}

/**
 * Write-path events run here in the background: the host already has its
 * (empty) answer from detach.sh, so the only bound is the worker lifetime.
 * The stage does its background work itself after its answer
 * (StageDeps.offHostClock), which `settle` awaits before the process exits.
 */
async function runDetachedHookEvent(): Promise<void> {
  armSafety(WORKER_LIFETIME_MS, 0);
  const stdin = await readJobStdin(WORKER_MAX_STDIN_BYTES, WORKER_STDIN_TIMEOUT_MS);
  if (stdin.status !== 'complete') return exitWith('', 0);
  let built: NodeDeps | undefined;
  await dispatchHook(stdin.text, {
    routeFor,
    createDeps: () => (built ??= buildDeps(undefined, { offHostClock: true })).deps,
    elapsedMs: () => 0,
  });
  await built?.settle(WORKER_LIFETIME_MS);
  if (built) logJobEnd(built.deps.log, 'detached');
  exitWith('', 0);
}

/**
 * A command a person runs (`doctor`, `why`, `--help`, …: the table in
 * commands.ts): the command line's lazily loaded code checks it and runs
 * it, then its text, its usage errors on stderr, and its exit code.
 */
async function runPersonCommand(argv: readonly string[]): Promise<void> {
  const { runCommandLine } = await import('./cli.js');
  let built: NodeDeps | undefined;
  const result = await runCommandLine(argv, () => (built ??= buildDeps()).deps, { stderr: stderrTerminal() });
  await built?.settle(SETTLE_CAP_MS);
  if (result.stderr) writeSync(2, result.stderr);
  exitWith(result.text, result.code);
}

/** Where a long command shows its progress (the import's): one line rewritten in place on a TTY, plain lines otherwise. */
function stderrTerminal(): { isTTY: boolean; columns?: number; write(text: string): void } {
  const stderr = process.stderr;
  return { isTTY: stderr.isTTY === true, columns: stderr.columns, write: (text) => void stderr.write(text) };
}

async function runWorkerCommand(argv: readonly string[]): Promise<void> {
  armSafety(WORKER_LIFETIME_MS, 0);
  const stdin = await readJobStdin(WORKER_MAX_STDIN_BYTES, WORKER_STDIN_TIMEOUT_MS);
  const { runWorker } = await import('../capture/worker.js');
  const nodeDeps = buildDeps();
  const code = await runWorker(argv, stdin.status === 'complete' ? stdin.text : '', nodeDeps.deps);
  await nodeDeps.settle(SETTLE_CAP_MS);
  logJobEnd(nodeDeps.deps.log, `worker ${argv[0] ?? ''}`);
  exitWith('', code);
}

/** The resident helper (DESIGN D16): its own entry, hook/resident.ts, with what this process builds. */
async function runResidentCommand(): Promise<void> {
  const { runResident } = await import('./resident.js');
  await runResident({
    buildDeps: (stage) => buildDeps(stage),
    codeFile: ENTRY_FILE,
  });
  exitWith('', 0);
}

/** The plugin's own run modes; any other first argument is a person's command (commands.ts). */
const RUN_MODES = new Set(['resident', 'worker', 'detached', 'door']);

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined) return runHookEvent();
  if (command === 'resident') return runResidentCommand();
  if (command === 'worker') return runWorkerCommand(rest);
  if (command === 'detached') return runDetachedHookEvent();
  if (command === 'door') return runHookEvent(rest[0]);
  return runPersonCommand(argv);
}

/** Last resort: in hook mode, an escaped error still answers pass-through with exit 0; a person's command fails with 1. */
function failSafe(error: unknown): void {
  try {
    buildLogger().warn('hook process failed; answering pass-through', { error: errorMessage(error) });
  } catch {
    // Logging is the try's only statement; the process still answers below.
  }
  const command = process.argv[2];
  exitWith('', command !== undefined && !RUN_MODES.has(command) ? 1 : 0);
}

process.on('uncaughtException', failSafe);
process.on('unhandledRejection', failSafe);
main(process.argv.slice(2)).catch(failSafe);
