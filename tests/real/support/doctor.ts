/**
 * Doctor's report as a user reads it (`node scripts/hook.mjs doctor`), cut
 * into its checks: `[PASS] Server` and the indented lines below it, so a
 * test can say which check failed and what cause and fix it printed.
 *
 * @module
 */
import type { RealWorld } from './world.js';

export interface DoctorCheck {
  status: string;
  /** The check's lines, the `fix:` line among them. */
  text: string;
}

export function doctorChecks(report: string): Map<string, DoctorCheck> {
  const checks = new Map<string, DoctorCheck>();
  let current: DoctorCheck | undefined;
  for (const line of report.split('\n')) {
    const head = /^\[(PASS|FAIL|WARN|INFO)\] (.+)$/.exec(line);
    if (head !== null) checks.set(head[2]!, (current = { status: head[1]!, text: '' }));
    else if (current !== undefined && line.startsWith('  ')) current.text += `${line.trim()}\n`;
  }
  return checks;
}

/** Runs doctor in the world's workspace and answers its checks (and the raw report for messages). */
export async function runDoctor(world: RealWorld): Promise<{ checks: Map<string, DoctorCheck>; report: string }> {
  const run = await world.command(['doctor']);
  if (run.exitCode === null) throw new Error(`doctor did not finish: ${run.stderr}`);
  return { checks: doctorChecks(run.stdout), report: run.stdout };
}
