/**
 * Spawning for the benchmarks: one timed run of a command (spawn → exit and
 * pipes closed, exactly what a host waits for), and the peak resident set
 * of a command measured in separate runs under GNU `time -f %M`, so the
 * timed runs carry no measuring overhead.
 *
 * `time` reports the largest RSS of the process and of every descendant it
 * waited for (the prefilter's `sh`, `head` and node), but not of detached
 * workers, which nobody waits for (capture.ts reads theirs from the
 * worker's own debug-log line).
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elapsedMs } from './stats.js';

export interface Command {
  file: string;
  args: readonly string[];
  /** Exact stdin bytes (closed afterwards). */
  stdin?: string;
  env: Record<string, string>;
  cwd: string;
}

export interface TimedRun {
  ms: number;
  exitCode: number | null;
  stdout: string;
}

/** Runs `command` once and times spawn → close. Rejects only when nothing could be started. */
export function timedRun(command: Command): Promise<TimedRun> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      cwd: command.cwd,
      env: command.env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    let exitCode: number | null = null;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (exitCode = code));
    child.on('close', () => resolve({ ms: elapsedMs(start), exitCode, stdout }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(command.stdin ?? '');
  });
}

export const GNU_TIME = '/usr/bin/time';

/** True when GNU time is installed (RSS columns read "n/a" otherwise). */
export function canMeasureRss(): boolean {
  return existsSync(GNU_TIME);
}

/** Largest peak RSS (KiB) over `runs` runs of `command`; undefined without GNU time. */
export async function peakRssKb(command: Command, runs: number): Promise<number | undefined> {
  if (!canMeasureRss()) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'ov-bench-rss-'));
  try {
    let peak = 0;
    for (let run = 0; run < runs; run++) {
      const out = join(dir, `${run}.txt`);
      await timedRun({ ...command, file: GNU_TIME, args: ['-o', out, '-f', '%M', command.file, ...command.args] });
      const kb = Number.parseInt((await readFile(out, 'utf8')).trim().split('\n').pop() ?? '', 10);
      if (Number.isFinite(kb)) peak = Math.max(peak, kb);
    }
    return peak;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
