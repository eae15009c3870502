/**
 * Finds the background dispatchers that hooks/detach.sh starts, and the
 * resident helpers (DESIGN D16) that prompt and start hooks start.
 *
 * Write-path hooks (Stop, SubagentStop, SessionEnd, SubagentStart) return
 * before their work begins: the host-visible hook is a tiny `sh` script that
 * leaves `node scripts/hook.cjs detached` running in the background. A test
 * that wants "the capture this Stop started has finished" must therefore
 * wait for that process, not for the hook. Each test sandbox has its own
 * HOME, so a process is attributed to a sandbox by its environment.
 * Linux-only (/proc), like CI.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * A command line (NUL-separated) running the hook entry `hook.cjs` or its ES
 * shim `hook.mjs` (D38; a test may start either, an older build the shim),
 * with `mode` as its first argument when given.
 */
function hookRun(mode?: string): RegExp {
  return new RegExp(`hook\\.[cm]js${mode === undefined ? '' : `\\0${mode}(\\0|$)`}`);
}

function readProcText(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    // The process ended while we looked, or is not ours to read.
    return undefined;
  }
}

/**
 * Pids of the background job of detach.sh whose HOME is `home`. The job is
 * one process from fork to exit, but its command line changes as it execs
 * (`sh …/detach.sh` → `setsid node …` → `node …/hook.cjs detached`), so all
 * three spellings count (the entry's ES shim `hook.mjs` too: hookRun); otherwise a poll could fall in the gap. While a
 * process is inside `execve` its cmdline and environment may read empty:
 * such a process counts (isMidExec; caught under load: a poll in that
 * window let a test start the next turn beside a running capture).
 */
export function detachedRuns(home: string): number[] {
  return processesOf(
    home,
    (cmdline) => cmdline === '' || hookRun('detached').test(cmdline) || cmdline.includes('detach.sh'),
  );
}

/**
 * Pids of every plugin process of `home` still running: detach.sh jobs,
 * workers that stages spawned (`hook.cjs worker …`), residents, and a
 * process caught inside `execve` (empty cmdline).
 */
export function pluginProcesses(home: string): number[] {
  return processesOf(home, (cmdline) => cmdline === '' || hookRun().test(cmdline) || cmdline.includes('detach.sh'));
}

/**
 * Waits (at most `timeoutMs`) until no plugin process of `home` runs, so a
 * sandbox is not removed under a background job still writing into it.
 * Resolves false when some are still running then.
 */
export async function pluginProcessesGone(home: string, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pluginProcesses(home).length > 0) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Pids of the resident helpers (`node …/hook.cjs resident`) whose HOME is `home`. */
export function residentPids(home: string): number[] {
  return processesOf(home, (cmdline) => hookRun('resident').test(cmdline));
}

/**
 * Asks every resident of `home` to stop (SIGTERM: it removes its FIFO and
 * lock) and waits until they are gone, SIGKILLing any left after `graceMs`.
 * Every suite that lets hooks start residents calls this when it ends.
 */
export async function stopResidents(home: string, graceMs = 3_000): Promise<void> {
  const signal = (pids: number[], name: NodeJS.Signals): void => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // Already gone.
      }
    }
  };
  signal(residentPids(home), 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (residentPids(home).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  signal(residentPids(home), 'SIGKILL');
}

function processesOf(home: string, matches: (cmdline: string) => boolean): number[] {
  const needle = `\0HOME=${home}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      const cmdline = readProcText(`/proc/${pid}/cmdline`);
      if (cmdline === undefined || !matches(cmdline)) return false;
      const environ = readProcText(`/proc/${pid}/environ`);
      if (environ === '') return isMidExec(pid);
      return environ !== undefined && `\0${environ}`.includes(needle);
    })
    .map(Number);
}

/** Set in /proc/<pid>/stat's flags for a kernel thread (include/linux/sched.h). */
const PF_KTHREAD = 0x00200000;

/**
 * Inside `execve` a process's environment reads empty too, whatever its
 * command line says at that instant (`sh`, `setsid`, `node` or nothing:
 * measured, 40 `sh -c 'exec setsid node …'` polled in a loop), so it cannot
 * be told apart by HOME: it counts, whoever's, for the poll or two the exec
 * lasts (a poll in that window let `settle` return before a Stop's
 * capture had written its queue entry: tests/stages/switches, hostile-repo,
 * under a full parallel run). Zombies and kernel threads read empty for
 * good and do not count.
 */
function isMidExec(pid: string): boolean {
  const stat = readProcText(`/proc/${pid}/stat`);
  if (stat === undefined) return false;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, flags] = [fields[0], Number(fields[6])];
  return state !== 'Z' && state !== 'X' && (flags & PF_KTHREAD) === 0;
}
