/**
 * Runs the doctor in-process, the way `node scripts/hook.mjs doctor` does,
 * but with a sandboxed HOME, an explicit env, the real node:http transport
 * and the real prefilter spawn; only stdout is captured.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDoctor, type DoctorOptions } from '../../src/doctor/main.js';
import { createNodeDoctorIo } from '../../src/doctor/nodeIo.js';
import type { DoctorReport } from '../../src/doctor/types.js';
import { createNodeDeps } from '../../src/hook/nodeDeps.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

export interface DoctorRun {
  code: number;
  stdout: string;
  durationMs: number;
}

export function freshHome(): string {
  return mkdtempSync(join(tmpdir(), 'ov-doctor-home-'));
}

/** The deps a command builds in this process (the real transport and spawn), for a sandboxed HOME, `env` and `cwd`. */
export function inProcessDeps(env: Record<string, string>, home: string, pluginRoot = REPO_ROOT, cwd = home) {
  return createNodeDeps({
    env: { HOME: home, ...env },
    cwd,
    homeDir: home,
    pluginRoot,
    execPath: process.execPath,
    pid: process.pid,
    platform: process.platform,
    loadSpawn: () => spawn,
    now: Date.now,
    log: { debug: () => undefined, warn: () => undefined },
  }).deps;
}

export async function runDoctorInProcess(
  options: DoctorOptions,
  env: Record<string, string>,
  home: string,
  pluginRoot = REPO_ROOT,
  cwd = home,
): Promise<DoctorRun> {
  const deps = inProcessDeps(env, home, pluginRoot, cwd);
  let stdout = '';
  const io = { ...createNodeDoctorIo(), write: async (text: string) => void (stdout += text) };
  const started = performance.now();
  const code = await runDoctor(options, deps, io);
  return { code, stdout, durationMs: performance.now() - started };
}

export function parseReport(run: DoctorRun): DoctorReport {
  return JSON.parse(run.stdout) as DoctorReport;
}

export function checkOf(report: DoctorReport, id: string) {
  const check = report.checks.find((entry) => entry.id === id);
  if (!check) throw new Error(`no check ${id} in ${report.checks.map((entry) => entry.id).join(', ')}`);
  return check;
}
