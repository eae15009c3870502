/**
 * Doctor check `resident` (src/doctor/residentCheck.ts): off, unsupported,
 * not running, and listening, against a real FIFO with a real reader.
 *
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkResident } from '../../src/doctor/residentCheck.js';
import { residentKey, residentPaths } from '../../src/resident/identity.js';

const FAKE = new URL('../resident/support/fake-resident.mjs', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'ov-doctor-resident-'));
const deps = {
  env: { HOME: home, OPENVIKING_URL: 'http://127.0.0.1:1933' },
  homeDir: home,
  pluginRoot: '/plugins/ov',
  pipeAtomicBytes: 4096,
};

afterEach(() => rmSync(join(home, '.codebuddy'), { recursive: true, force: true }));

describe('doctor: resident helper', () => {
  it('says when it is off or unavailable, never as a failure', () => {
    expect(checkResident({ ...deps, env: { ...deps.env, OPENVIKING_RESIDENT: 'off' } })).toMatchObject({
      status: 'info',
      data: { state: 'off' },
    });
    expect(checkResident({ ...deps, pipeAtomicBytes: 0 })).toMatchObject({
      status: 'info',
      data: { state: 'unsupported' },
    });
  });

  // Issue 30 item 4: on 4953f41 doctor from a shell said "not running" while a session's helper served its prompts
  // (the session's hooks have the host's variables, so another key than the shell's).
  it("from a shell, names the helpers a session's environment started", async () => {
    const sessionEnv = { ...deps.env, CODEBUDDY_PLUGIN_ROOT: '/plugins/ov', CODEBUDDY_PLUGIN_OPTION_USER: 'alice' };
    const paths = residentPaths(join(home, '.codebuddy', 'openviking'), residentKey(sessionEnv, deps.pluginRoot));
    mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
    expect(spawnSync('mkfifo', ['-m', '600', paths.fifo]).status).toBe(0);
    const reader = spawn(process.execPath, [FAKE, paths.fifo, paths.dir, 'k', 'silent', join(home, 'log')], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await new Promise<void>((resolve) => reader.stdout.once('data', () => resolve()));
      const check = checkResident(deps);
      expect(check).toMatchObject({ status: 'info', data: { state: 'listening-other' } });
      expect(check.lines[0]).toMatch(/^1 helper listening in .*, started by sessions whose environment/);
      expect(check.lines[0]).not.toContain('not running');
    } finally {
      reader.kill('SIGKILL');
    }
  });

  it('not running, then listening once a process reads its FIFO', async () => {
    expect(checkResident(deps)).toMatchObject({ status: 'info', data: { state: 'not-running' } });
    const paths = residentPaths(join(home, '.codebuddy', 'openviking'), residentKey(deps.env, deps.pluginRoot));
    mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
    expect(spawnSync('mkfifo', ['-m', '600', paths.fifo]).status).toBe(0);
    expect(checkResident(deps)).toMatchObject({ data: { state: 'not-running' } });
    const reader = spawn(process.execPath, [FAKE, paths.fifo, paths.dir, 'k', 'silent', join(home, 'log')], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await new Promise<void>((resolve) => reader.stdout.once('data', () => resolve()));
      expect(checkResident(deps)).toMatchObject({ status: 'info', data: { state: 'listening' } });
    } finally {
      reader.kill('SIGKILL');
    }
  });
});
