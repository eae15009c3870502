/**
 * Runs a real process with stdin, a timeout and the host's kill sequence
 * (SIGTERM, then SIGKILL a second later), and reports what a host would see.
 * The host simulator runs hooks through it; tests that need the bundle
 * directly (doctor, worker, bad input without a shell) use `spawnHook`.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';

/** The repository root (this file is tests/support/spawn-hook.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ProcessRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** True when the run was killed at `timeoutMs`. */
  timedOut: boolean;
}

export interface RunProcessOptions {
  stdin?: string | Uint8Array;
  env: Record<string, string | undefined>;
  cwd: string;
  timeoutMs: number;
}

/** Grace between the process's exit and its pipes' close, after which the run is reported anyway. */
const CLOSE_GRACE_MS = 200;

/** Spawns `file args`, writes stdin, and resolves when it ended (never rejects for a failed process). */
export function runProcess(file: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessRun> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const finish = (): void => {
      if (settled || exit === undefined) return;
      settled = true;
      clearTimeout(killTimer);
      resolvePromise({
        exitCode: exit.code,
        signal: exit.signal,
        stdout,
        stderr,
        durationMs: performance.now() - started,
        timedOut,
      });
    };
    const killTimer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), 1_000).unref();
    }, options.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      clearTimeout(killTimer);
      if (!settled) reject(error);
      settled = true;
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      setTimeout(finish, CLOSE_GRACE_MS).unref();
    });
    child.on('close', finish);
    // A hook may exit before reading all of its stdin (that is allowed): ignore EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}

export interface SpawnHookOptions {
  /** Defaults to the repository root, whose scripts/hook.cjs is the built bundle. */
  pluginRoot?: string;
  args?: readonly string[];
  stdin?: string | Uint8Array;
  env?: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs?: number;
}

/** Runs `node <pluginRoot>/scripts/hook.cjs [args]` (the hook entry, as hooks run it) with the same node as the tests. */
export function spawnHook(options: SpawnHookOptions = {}): Promise<ProcessRun> {
  const pluginRoot = options.pluginRoot ?? REPO_ROOT;
  return runProcess(process.execPath, [join(pluginRoot, HOOK_ENTRY), ...(options.args ?? [])], {
    stdin: options.stdin ?? '',
    env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
    cwd: options.cwd ?? pluginRoot,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
}
