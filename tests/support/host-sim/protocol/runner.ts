/**
 * Runs one command hook through an injected executor and decodes the result.
 *
 * The executor owns the process (spawn, stdin, SIGTERM at the timeout); the
 * runner owns the protocol: the default timeout, the timeout-means-block rule
 * of CodeBuddy, and the promise that nothing escapes. A spare timer a little
 * after the hook's timeout stops a misbehaving executor from hanging the
 * caller.
 *
 * @module
 */
import { parseHookOutput } from './codec.js';
import { withTimeout } from '../../../../src/util/withTimeout.js';
import type { CommandHook, HookOutput, HookRun, ShellExecutor } from './types.js';

/** The host default when hooks.json gives no `timeout` (seconds → ms). */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** How long after the hook's own timeout the runner stops waiting for the executor. */
export const EXECUTOR_GRACE_MS = 2_000;

export interface RunHookOptions {
  /** The event payload, serialised exactly once by the caller. */
  stdin: string | Uint8Array;
  now: () => number;
  /** Used when the hook has no `timeout`; defaults to the host's 60 s. */
  defaultTimeoutMs?: number;
  /** How long past the timeout to wait for the executor; defaults to EXECUTOR_GRACE_MS. */
  executorGraceMs?: number;
}

/** The hook's timeout in ms: its own `timeout` (seconds) when positive, else the default. */
export function hookTimeoutMs(hook: CommandHook, defaultTimeoutMs = DEFAULT_HOOK_TIMEOUT_MS): number {
  const seconds = hook.timeout;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : defaultTimeoutMs;
}

/**
 * @returns the decoded output and the wall time; never rejects. A timeout
 *   reads as a blocking error with CodeBuddy's message; an executor failure
 *   as a non-blocking error carrying the failure text in stderr.
 */
export async function runHook(executor: ShellExecutor, hook: CommandHook, options: RunHookOptions): Promise<HookRun> {
  const started = options.now();
  const timeoutMs = hookTimeoutMs(hook, options.defaultTimeoutMs);
  try {
    const run = executor({ command: hook.command, stdin: options.stdin, timeoutMs });
    const outcome = await withTimeout(
      run,
      timeoutMs + (options.executorGraceMs ?? EXECUTOR_GRACE_MS),
      'stalled' as const,
    );
    const output =
      outcome === 'stalled'
        ? timedOutOutput(timeoutMs, '', '')
        : outcome.timedOut
          ? timedOutOutput(timeoutMs, outcome.stdout, outcome.stderr)
          : parseHookOutput(outcome.exitCode, outcome.stdout, outcome.stderr);
    return { output, durationMs: options.now() - started };
  } catch (error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    return { output: parseHookOutput(undefined, '', message), durationMs: options.now() - started };
  }
}

/** CodeBuddy's reading of a killed hook: blocked, with "Hook timed out after <ms>ms". */
function timedOutOutput(timeoutMs: number, stdout: string, stderr: string): HookOutput {
  return {
    exitCode: undefined,
    stdout: stdout.trim(),
    stderr: stderr.trim(),
    status: 'blocking',
    timedOut: true,
    decision: 'block',
    reason: `Hook timed out after ${timeoutMs}ms`,
  };
}
