/**
 * Drives the real CodeBuddy CLI (v2.117 from @tencent-ai/agent-sdk) headless,
 * exactly per the recipe of codebuddy-host README §1: `-p` text mode for one
 * prompt, or stream-json with a driver that sends turn N+1 only after turn N's
 * `result` line (README §6: lines sent earlier become separate sessions and
 * can hang the CLI). The plugin comes from `--plugin-dir`,
 * `CODEBUDDY_PLUGIN_DIRS`, or an installed marketplace (no flag at all).
 * Every run is bounded by a timeout and its process group is killed after it.
 *
 * @module
 */
import { drainGroup, killGroup, spawnInGroup, type GroupProcess, type ProcessExit } from './processes.js';
import { CLI_BIN, CLI_HEADLESS_BUNDLE } from './repo.js';
import { FAKE_MODEL_ID, type CliSandbox } from './sandbox.js';

/** Where the plugin comes from for one run. */
export type PluginSource =
  | { kind: 'plugin-dir'; dir: string }
  | { kind: 'env-dirs'; dirs: string[] }
  /** Installed through a marketplace (`settings.json` enabledPlugins): no flag, no env. */
  | { kind: 'installed' }
  | { kind: 'none' };

export interface CliRunOptions {
  plugin: PluginSource;
  /** Extra environment for the CLI (and so for hooks and the MCP server), e.g. OPENVIKING_URL. */
  env?: Record<string, string | undefined>;
  /** Extra CLI arguments, appended after the recipe's. */
  args?: string[];
  /** Hard bound for the whole process; default 60 s. */
  timeoutMs?: number;
  /**
   * Variables whose value is the CLI's own pid: set by a `sh` that then execs
   * the CLI (the pid stays), the way a process can forge what its children
   * inherit (e2e forged-handoff).
   */
  ownPidIn?: readonly string[];
}

export interface CliRun {
  exit: ProcessExit;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

function pluginArgsAndEnv(plugin: PluginSource): { args: string[]; env: Record<string, string> } {
  switch (plugin.kind) {
    case 'plugin-dir':
      return { args: ['--plugin-dir', plugin.dir], env: {} };
    case 'env-dirs':
      return { args: [], env: { CODEBUDDY_PLUGIN_DIRS: plugin.dirs.join(':') } };
    case 'installed':
    case 'none':
      return { args: [], env: {} };
  }
}

function launch(
  sandbox: CliSandbox,
  modeArgs: string[],
  options: CliRunOptions,
  stdin: 'pipe' | 'ignore',
): GroupProcess {
  const plugin = pluginArgsAndEnv(options.plugin);
  const args = [CLI_BIN, ...plugin.args, ...modeArgs, '-y', '--model', FAKE_MODEL_ID, ...(options.args ?? [])];
  const spawnOptions = { cwd: sandbox.workspace, env: sandbox.env({ ...plugin.env, ...options.env }), stdin };
  const named = options.ownPidIn ?? [];
  if (named.length === 0) return spawnInGroup(process.execPath, args, spawnOptions);
  const exports = named.map((name) => `${name}=$$`).join(' ');
  return spawnInGroup('/bin/sh', ['-c', `export ${exports}; exec "$@"`, 'sh', process.execPath, ...args], spawnOptions);
}

/**
 * Hooks still running when the CLI exits (a Stop hook of the last turn) are left to finish, as
 * on a user's machine; longer than any shipped hook timeout (Stop: 10 s).
 */
const GROUP_GRACE_MS = 15_000;

/**
 * Waits for exit or the deadline. A timed-out CLI is killed with its group at once; after a
 * normal exit the group gets GROUP_GRACE_MS to finish. `durationMs` ends at the leader's exit.
 */
export async function settle(
  proc: GroupProcess,
  timeoutMs: number,
  started: number,
): Promise<{ exit: ProcessExit; timedOut: boolean; durationMs: number }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = await Promise.race([proc.exited, deadline]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    killGroup(proc.pid);
    const exit = await proc.exited;
    return { exit, timedOut: true, durationMs: Date.now() - started };
  }
  const durationMs = Date.now() - started;
  await drainGroup(proc.pid, GROUP_GRACE_MS);
  return { exit: outcome, timedOut: false, durationMs };
}

/** One `-p '<prompt>'` run in text mode; resolves when the CLI exits (or is killed at the timeout). */
export async function runPrompt(sandbox: CliSandbox, prompt: string, options: CliRunOptions): Promise<CliRun> {
  const started = Date.now();
  const proc = launch(sandbox, ['-p', prompt], options, 'ignore');
  const { exit, timedOut, durationMs } = await settle(proc, options.timeoutMs ?? 60_000, started);
  return { exit, stdout: proc.stdout(), stderr: proc.stderr(), durationMs, timedOut };
}

/** A stream-json line the CLI printed (`system/init`, `assistant`, `user`, `result`, …). */
export type StreamLine = Record<string, unknown> & { type?: string; subtype?: string; session_id?: string };

export interface StreamSession {
  /** Sends one user turn and resolves with that turn's `result` line. Turns must not overlap. */
  send(prompt: string, timeoutMs?: number): Promise<StreamLine>;
  /** Every JSON line printed so far. */
  lines(): StreamLine[];
  /** The session id from the `init` line (or the first line that has one). */
  sessionId(): string | undefined;
  /** Closes stdin and waits for the CLI to exit (killing it at the timeout). */
  close(timeoutMs?: number): Promise<CliRun>;
  stderr(): string;
}

function parseLines(text: string): StreamLine[] {
  const lines: StreamLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as StreamLine);
    } catch {
      // a partial last line: picked up on the next read
    }
  }
  return lines;
}

/** The arguments of a stream-json session (the same on CodeBuddy and Claude Code). */
export const STREAM_JSON_ARGS = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];

/** Starts `-p --input-format stream-json --output-format stream-json --verbose` with stdin open. */
export function startStreamSession(sandbox: CliSandbox, options: CliRunOptions): StreamSession {
  const started = Date.now();
  return driveStreamSession(launch(sandbox, STREAM_JSON_ARGS, options, 'pipe'), started);
}

/** The turn-by-turn driver over a CLI already started in stream-json mode with stdin piped. */
export function driveStreamSession(proc: GroupProcess, started: number): StreamSession {
  let busy = false;
  const lines = (): StreamLine[] => parseLines(proc.stdout());
  const resultCount = (): number => lines().filter((line) => line.type === 'result').length;

  const send = async (prompt: string, timeoutMs = 45_000): Promise<StreamLine> => {
    if (busy)
      throw new Error('stream-json driver: the previous turn has no result yet (sending now would fork a new session)');
    if (proc.hasExited()) throw new Error(`stream-json driver: the CLI already exited\nstderr: ${proc.stderr()}`);
    busy = true;
    const before = resultCount();
    const message = { type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] } };
    proc.child.stdin?.write(`${JSON.stringify(message)}\n`);
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        const results = lines().filter((line) => line.type === 'result');
        if (results.length > before) return results[before] as StreamLine;
        if (proc.hasExited())
          throw new Error(`CLI exited before the result of "${prompt}"\nstderr: ${proc.stderr().slice(-2000)}`);
        if (Date.now() > deadline)
          throw new Error(
            `no result for "${prompt}" within ${timeoutMs} ms\nstdout tail: ${proc.stdout().slice(-2000)}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      busy = false;
    }
  };

  return {
    send,
    lines,
    sessionId: () => lines().find((line) => typeof line.session_id === 'string')?.session_id,
    stderr: () => proc.stderr(),
    close: async (timeoutMs = 20_000) => {
      proc.child.stdin?.end();
      const { exit, timedOut, durationMs } = await settle(proc, timeoutMs, started);
      return { exit, stdout: proc.stdout(), stderr: proc.stderr(), durationMs, timedOut };
    },
  };
}

/**
 * Runs `codebuddy plugin <args…>` (marketplace add, install, list) through the
 * headless bundle, in the sandbox's HOME/config dir.
 */
export async function runPluginCommand(sandbox: CliSandbox, args: string[], timeoutMs = 60_000): Promise<CliRun> {
  const started = Date.now();
  const proc = spawnInGroup(process.execPath, [CLI_HEADLESS_BUNDLE, 'plugin', ...args], {
    cwd: sandbox.workspace,
    env: sandbox.env(),
    stdin: 'ignore',
  });
  const { exit, timedOut, durationMs } = await settle(proc, timeoutMs, started);
  return { exit, stdout: proc.stdout(), stderr: proc.stderr(), durationMs, timedOut };
}
