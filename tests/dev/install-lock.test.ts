/**
 * One install of a venv at a time (scripts/dev/venv-common.sh
 * `hold_install_lock`): `.ci/run` starts the real server's and the
 * embedding model's installs in the background, and the real-server
 * suite's globalSetup asks for them again; the second caller must wait for
 * the first (which may be removing and refilling the venv), never run
 * beside it. The lock is released when the install's subshell returns, so
 * a server that `start` execs afterwards does not hold it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { waitFor } from '../support/wait.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `sh -c SCRIPT` with venv-common.sh sourced, in the repository; resolves with its exit status. */
function sh(script: string): Promise<number | null> {
  const child = spawn('sh', ['-c', `. scripts/dev/venv-common.sh\n${script}`], { cwd: REPO_ROOT, stdio: 'ignore' });
  return new Promise((resolve) => child.on('exit', resolve));
}

it.skipIf(process.platform !== 'linux')(
  'a second install waits for the first, and a finished one holds nothing',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'install-lock-'));
    dirs.push(dir);
    const log = join(dir, 'order.log');
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
    // A slow install: it holds the lock until the test's release file appears.
    const first = sh(
      `install() ( hold_install_lock ${dir}/home; echo first-in >>${log}; while [ ! -e ${dir}/release ]; do sleep 0.05; done; echo first-out >>${log} )\ninstall`,
    );
    await waitFor(() => lines().includes('first-in'), { timeoutMs: 10_000 });
    const second = sh(`install() ( hold_install_lock ${dir}/home; echo second-in >>${log} )\ninstall`);
    // The second is blocked on the lock for as long as the first holds it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines()).toEqual(['first-in']);
    await sh(`touch ${dir}/release`);
    expect(await first).toBe(0);
    expect(await second).toBe(0);
    expect(lines()).toEqual(['first-in', 'first-out', 'second-in']);
    // Once install() has returned, a process that lives on (a server `start` execs) holds no lock.
    const server = sh(
      `install() ( hold_install_lock ${dir}/home; echo third-in >>${log} )\ninstall\nwhile [ ! -e ${dir}/stop ]; do sleep 0.05; done`,
    );
    await waitFor(() => lines().includes('third-in'), { timeoutMs: 10_000 });
    expect(await sh(`install() ( hold_install_lock ${dir}/home; echo fourth-in >>${log} )\ninstall`)).toBe(0);
    expect(lines().at(-1)).toBe('fourth-in');
    await sh(`touch ${dir}/stop`);
    expect(await server).toBe(0);
  },
);
