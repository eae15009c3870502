/**
 * Finding processes by command line on Linux (`/proc`), for the suites and
 * benchmarks that must wait for, kill, or measure the plugin's DETACHED
 * workers, which no parent waits for. Workers are identified by the private
 * plugin root in their command line (plugin.ts), never by a broad name.
 *
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HOOK_ENTRY, HOOK_SHIM } from '../../../src/protocol/entryFiles.js';

/** Pids whose argv satisfies `matches`. */
export async function findPids(matches: (argv: readonly string[]) => boolean): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const argv = await argvOf(Number(name));
    if (argv !== undefined && argv.length > 0 && matches(argv)) found.push(Number(name));
  }
  return found;
}

/** The NUL-separated argv of a live pid, split; undefined once it is gone. */
export async function argvOf(pid: number): Promise<string[] | undefined> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return cmdline === undefined ? undefined : cmdline.split('\0').filter((part) => part !== '');
}

/** Reads VmHWM (peak RSS, KiB) of a live pid; undefined once it is gone. */
export async function vmHwmKb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const match = status === undefined ? null : /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  return match === null ? undefined : Number(match[1]);
}

/**
 * A background process of `pluginRoot`: `hook.cjs worker <kind>` (spawned by
 * a stage) or `hook.cjs detached` (started by hooks/detach.sh for the
 * write-path events), and before that the background job itself while it
 * is still `sh …/hooks/detach.sh` (the host's hook has returned by then).
 * The ES shim `hook.mjs` counts too: a test may start a job through it, and
 * a build from before D38 (a bench's A/B tree) starts its jobs that way.
 */
export function isBackgroundOf(pluginRoot: string): (argv: readonly string[]) => boolean {
  const entries = new Set([HOOK_ENTRY, HOOK_SHIM].map((file) => resolve(pluginRoot, file)));
  const detacher = resolve(pluginRoot, 'hooks', 'detach.sh');
  return (argv) => {
    if (argv.some((arg) => arg.endsWith('detach.sh') && resolve(arg) === detacher)) return true;
    // detach.sh names the entry as <root>/hooks/../scripts/hook.cjs.
    const at = argv.findIndex((arg) => /hook\.[cm]js$/.test(arg) && entries.has(resolve(arg)));
    return at !== -1 && (argv[at + 1] === 'worker' || argv[at + 1] === 'detached');
  };
}

/**
 * Resolves true when no background process of `pluginRoot` runs any more,
 * false after `timeoutMs`. Gone means two scans in a row: a job inside
 * `execve` (`sh` → `setsid` → `node`) reads an empty command line for that
 * instant (tests/support/detached.ts), and a scan there saw none while a
 * Stop's capture was starting (tests/faults/durability, a clean-clone run).
 */
export async function waitForWorkersGone(pluginRoot: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let emptyScans = 0; ;) {
    emptyScans = (await findPids(isBackgroundOf(pluginRoot))).length === 0 ? emptyScans + 1 : 0;
    if (emptyScans === 2) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** SIGKILLs every worker of `pluginRoot` still running (cleanup after a test); returns how many. */
export async function killWorkers(pluginRoot: string): Promise<number> {
  const pids = await findPids(isBackgroundOf(pluginRoot));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone between the scan and the kill.
    }
  }
  return pids.length;
}
