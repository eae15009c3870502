/**
 * Owns every process an e2e run starts. The CLI is spawned as the leader of
 * its own process group (hooks and the MCP server inherit the group), and the
 * plugin's detached workers — which leave the group on purpose — are found by
 * the sandbox marker in their environment or by a cwd inside the sandbox.
 * Teardown kills exactly those pids, nothing found by name.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface GroupProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Settles once the leader has exited and its stdio closed. */
  exited: Promise<ProcessExit>;
  hasExited(): boolean;
}

export interface SpawnGroupOptions {
  cwd: string;
  env: Record<string, string>;
  /** 'pipe' keeps stdin open for stream-json; 'ignore' gives the CLI an immediate EOF. */
  stdin: 'pipe' | 'ignore';
}

/** Spawns `command` as a new process-group leader and collects its output. */
export function spawnInGroup(command: string, args: string[], options: SpawnGroupOptions): GroupProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: [options.stdin, 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let done = false;
  child.stdout?.setEncoding('utf8').on('data', (piece: string) => (out += piece));
  child.stderr?.setEncoding('utf8').on('data', (piece: string) => (err += piece));
  const exited = new Promise<ProcessExit>((resolve) => {
    child.on('error', (error) => {
      err += `\n[spawn error] ${error.message}`;
      done = true;
      resolve({ code: null, signal: null });
    });
    child.on('close', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${command}`);
  return { child, pid: child.pid, stdout: () => out, stderr: () => err, exited, hasExited: () => done };
}

/** Live members of the process group `pgid` (Linux /proc; elsewhere none). */
export function groupMembers(pgid: number): number[] {
  return otherPids().filter((pid) => {
    const stat = procFact(() => readFileSync(`/proc/${pid}/stat`, 'latin1'));
    if (stat === undefined) return false;
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[2]) === pgid && fields[0] !== 'Z';
  });
}

/**
 * After the leader exited by itself: lets the rest of its group (a Stop hook
 * still running, the MCP server shutting down) finish for up to `graceMs`, as
 * it would on a user's machine, then SIGKILLs whatever is left.
 */
export async function drainGroup(pgid: number, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (groupMembers(pgid).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  killGroup(pgid);
}

/** SIGKILLs the whole group led by `pid`; a group that is already gone is fine. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group has already exited
  }
}

function otherPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch {
    return []; // no procfs (not Linux): nothing to sweep
  }
}

/** Reads one /proc fact of `pid`, or undefined when it exited meanwhile or is not ours to read. */
function procFact(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Pids of live processes that belong to the sandbox at `root`: their
 * environment holds `NAME=root`, or their cwd lies inside `root` (a worker
 * that scrubbed its environment still runs in the workspace).
 */
export function sandboxPids(name: string, root: string): number[] {
  const needle = `${name}=${root}`;
  return otherPids().filter((pid) => {
    const environ = procFact(() => readFileSync(`/proc/${pid}/environ`, 'latin1'));
    if (environ?.split('\0').includes(needle)) return true;
    const cwd = procFact(() => readlinkSync(`/proc/${pid}/cwd`));
    return cwd !== undefined && (cwd === root || cwd.startsWith(`${root}/`));
  });
}

/** SIGKILLs every process of the sandbox (see sandboxPids); returns the pids it hit. */
export function killSandboxProcesses(name: string, root: string): number[] {
  const pids = sandboxPids(name, root);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ESRCH: exited between the scan and the kill
    }
  }
  return pids;
}
