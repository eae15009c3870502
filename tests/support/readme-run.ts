/**
 * Running the README's commands as a user copies them (issues 30 and 37):
 * the one command of a section that starts a certain way, a private HOME
 * where `~/openviking-codebuddy` is this checkout, `sh -c` with the
 * server's address in place of the default `http://127.0.0.1:1933` (and
 * as `OPENVIKING_URL`, the plugin's default being 1933 too), and the first
 * prompt of a session fired as the host fires it. Shared by the quick
 * start against the stand-in (tests/ov-server/cli.test.ts) and against
 * the real server (tests/real/quick-start.real.test.ts).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { freshHome } from '../doctor/support.js';
import { REPO_ROOT, runProcess, spawnHook } from './spawn-hook.js';

export const DEFAULT_URL = 'http://127.0.0.1:1933';

/** The one command of `commands` that starts with `prefix`. */
export function command(commands: string[], prefix: string): string {
  const found = commands.filter((line) => line.startsWith(prefix));
  expect(found, `one README command starting "${prefix}"`).toHaveLength(1);
  return found[0] as string;
}

/** A private HOME whose `~/openviking-codebuddy` is this checkout, as the quick start puts it. */
export function userHome(): string {
  const home = freshHome();
  symlinkSync(REPO_ROOT, join(home, 'openviking-codebuddy'));
  return home;
}

/**
 * Runs a README command as written with `sh -c`, the server's address in
 * place of the default (`url` '': none, the configuration's own); its stdout.
 */
export async function sh(line: string, url: string, home: string, cwd = home): Promise<string> {
  const run = await runProcess('sh', ['-c', url === '' ? line : line.replaceAll(DEFAULT_URL, url)], {
    env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', ...(url === '' ? {} : { OPENVIKING_URL: url }) },
    cwd,
    timeoutMs: 30_000,
  });
  expect(run.exitCode, `${line}\n${run.stdout}${run.stderr}`).toBe(0);
  return run.stdout;
}

/** Whether `curl` is on PATH (not in every CI image: the other steps run without it). */
export const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * A session's first prompt in `<home>/project`, as the host sends it, recalling in the hook itself
 * (a resident helper it started would outlive the test), speaking as `user`.
 */
export async function firstPrompt(home: string, url: string, user: string, prompt: string): Promise<void> {
  const project = join(home, 'project');
  mkdirSync(project, { recursive: true });
  const run = await spawnHook({
    stdin: JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: 'readme-first-session',
      cwd: project,
      prompt,
    }),
    env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: url, OPENVIKING_USER: user, OPENVIKING_RESIDENT: 'off' },
    cwd: project,
    timeoutMs: 30_000,
  });
  expect(run.exitCode).toBe(0);
}
