/**
 * Builds the real `StageDeps` from what main.ts reads off `process`, as
 * cheaply as possible: the hook's start-up is the product's latency.
 *
 * - `http` is the socket transport, loaded (its own lazy file, then
 *   node:net) on its first request only, and `readLastExchange` the
 *   transcript reader, likewise: the entry's bytes are parsed by every hook,
 *   and the paths the user waits on (the guard, the relay to the resident)
 *   use neither (D44: 12 KB and 10 KB of the entry, ~0.04 ms a KB).
 * - `spawnDetached` loads node:child_process on its first call, then starts `node <pluginRoot>/scripts/hook.cjs <args>` in
 *   its own process group with stdin piped, stdout/stderr ignored, and
 *   unref'd: the host neither waits for nor kills it (seed 000 §7). The
 *   payload is written asynchronously; `settle()` waits (bounded) until every
 *   payload is flushed, so exiting cannot truncate a worker's input.
 * - `afterAnswer` tasks start on the next turn of the event loop, after
 *   the promise chain that produces the answer has run, and `settle()`
 *   waits for them too: whoever owns the answer writes it, then settles.
 *
 * @module
 */
import type { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { HttpTransport } from '../openviking/http.js';
import { withTimeout } from '../util/withTimeout.js';
import { HOOK_ENTRY } from '../protocol/entryFiles.js';
import type { StageDeps } from '../protocol/stage.js';
import { errorMessage } from '../util/errors.js';

/** What main.ts reads off `process`; the fields StageDeps shares mean what they mean there. */
export interface NodeHost extends Pick<
  StageDeps,
  'env' | 'cwd' | 'homeDir' | 'pluginRoot' | 'pid' | 'log' | 'offHostClock' | 'doorPrint' | 'killNow'
> {
  /** The running node binary (process.execPath), so workers use the same runtime. */
  execPath: string;
  /** process.platform. */
  platform: string;
  /**
   * Returns node:child_process's `spawn`, loaded on first use: that builtin
   * pulls in ~44 internal modules (15-45 ms measured here), which hooks that
   * never spawn (guard, no-op events) must not pay.
   */
  loadSpawn: () => typeof spawn;
  now: () => number;
  /** A monotonic clock in ms (process.hrtime). */
  monotonicMs?: () => number;
  /** Default: the one-exchange-per-connection socket transport, through the proxy `env` names if any (DESIGN D20). */
  http?: HttpTransport;
}

export interface NodeDeps {
  deps: StageDeps;
  /** Resolves once every detached child's stdin is flushed and every `afterAnswer` task is done, or after `capMs`. */
  settle(capMs: number): Promise<void>;
}

export function createNodeDeps(host: NodeHost): NodeDeps {
  const flushes: Promise<void>[] = [];
  const deps: StageDeps = {
    now: host.now,
    ...(host.monotonicMs ? { monotonicMs: host.monotonicMs } : {}),
    env: host.env,
    cwd: host.cwd,
    homeDir: host.homeDir,
    pluginRoot: host.pluginRoot,
    http: host.http ?? lazySocketTransport(host.env),
    pid: host.pid,
    pipeAtomicBytes: pipeAtomicBytes(host.platform),
    ...(host.offHostClock === true ? { offHostClock: true } : {}),
    ...(host.doorPrint !== undefined ? { doorPrint: host.doorPrint } : {}),
    readLastExchange: (path) => import('../transcript/lastExchange.js').then((m) => m.readLastExchange(path)),
    spawnDetached: (args, stdin, env) => {
      const flushed = spawnHookProcess(host, args, stdin, env);
      if (flushed === undefined) return false;
      flushes.push(flushed);
      return true;
    },
    afterAnswer: (task) => {
      flushes.push(
        // A macrotask, not a microtask: a microtask would run inside the stage's own promise chain, before the answer is out.
        new Promise<void>((resolve) => setImmediate(resolve))
          .then(task)
          .catch((error: unknown) => host.log.warn('deferred work failed', { error: errorMessage(error) })),
      );
    },
    log: host.log,
    killNow: host.killNow,
  };
  return {
    deps,
    settle: async (capMs) => {
      // Nothing to wait for: no timer either (a process's first one costs ~0.4 ms).
      if (flushes.length > 0) await withTimeout(Promise.all(flushes), capMs, undefined);
    },
  };
}

/** The socket transport through the proxy `env` names, if any (DESIGN D20), loaded on the first request. */
function lazySocketTransport(env: Readonly<Record<string, string | undefined>>): HttpTransport {
  let transport: Promise<HttpTransport> | undefined;
  return async (request) => {
    transport ??= import('../openviking/socketHttp.js').then((m) => m.socketHttpTransportFor(env));
    return (await transport)(request);
  };
}

/** PIPE_BUF of `platform` (see StageDeps.pipeAtomicBytes). */
export function pipeAtomicBytes(platform: string): number {
  if (platform === 'win32') return 0;
  return platform === 'linux' ? 4096 : 512;
}

/** @returns a promise settled when stdin is flushed, or undefined when the spawn failed. */
function spawnHookProcess(
  host: NodeHost,
  args: readonly string[],
  stdin: string,
  env?: Readonly<Record<string, string>>,
): Promise<void> | undefined {
  try {
    const child = host.loadSpawn()(host.execPath, [join(host.pluginRoot, HOOK_ENTRY), ...args], {
      cwd: host.cwd,
      env: { ...(env ?? host.env) },
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      windowsHide: true,
    });
    child.on('error', (error) => host.log.warn('detached spawn failed', { error: error.message }));
    child.unref();
    const pipe = child.stdin;
    if (pipe === null) return undefined;
    return new Promise<void>((resolve) => {
      pipe.on('error', () => resolve());
      pipe.end(stdin, () => resolve());
    });
  } catch (error: unknown) {
    host.log.warn('detached spawn failed', { error: errorMessage(error) });
    return undefined;
  }
}
