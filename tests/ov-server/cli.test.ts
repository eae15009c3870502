/**
 * `npm run stand-in-server`: the README's way to try the plugin without
 * Python or model keys (issue 30 item 3). The npm script starts the test
 * server as a standalone process with the chosen auth mode and the seeded
 * demo user, and prints its URL; the README's checks run against it as
 * written: `curl -s …/health`, and `OPENVIKING_USER=demo node
 * scripts/hook.mjs recall-preview which editor do I use`, which finds the
 * demo user's memory (the demo memories are user `demo`'s, so without the
 * variable a dev-mode server answers for user `default`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';
import { freshHome } from '../doctor/support.js';
import { clientFor } from './http-client.js';

let running: ChildProcess | undefined;

afterEach(async () => {
  if (running?.pid === undefined || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running?.once('exit', resolve));
  process.kill(-running.pid, 'SIGTERM'); // npm, its shell and the server: the group this test started
  await exited;
});

/** `npm run stand-in-server -- <args>` as the README runs it (on port 0 here); resolves with its URL. */
function standIn(...args: string[]): Promise<string> {
  const child = spawn('npm', ['run', 'stand-in-server', '--', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = child;
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`stand-in exited ${code}: ${out}`)));
  });
}

const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('npm run stand-in-server', () => {
  it('--auth api_key: prints the URL and serves the demo user with the demo key', async () => {
    const url = await standIn('--auth', 'api_key');
    const api = clientFor(url, { Authorization: 'Bearer demo-user-key' });
    expect((await api.get('/health')).json).toMatchObject({ auth_mode: 'api_key', user_id: 'demo' });
    const profile = await api.get('/api/v1/content/read?uri=viking://~/memories/profile.md');
    expect(profile.json.result).toContain('Demo developer');
  }, 60_000);

  it.runIf(hasCurl)(
    "dev auth: the README's curl check answers, and OPENVIKING_USER=demo recalls the demo memories",
    async () => {
      const url = await standIn();
      const health = execFileSync('curl', ['-s', `${url}/health`], { encoding: 'utf8' });
      expect(JSON.parse(health)).toMatchObject({ auth_mode: 'dev' });
      const home = freshHome();
      const preview = (env: Record<string, string>) =>
        spawnHook({
          args: ['recall-preview', 'which', 'editor', 'do', 'I', 'use'],
          cwd: home,
          env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: url, ...env },
          timeoutMs: 20_000,
        });
      const asDemo = await preview({ OPENVIKING_USER: 'demo' });
      expect(asDemo.exitCode, asDemo.stdout).toBe(0);
      expect(asDemo.stdout).toContain('viking://user/demo/memories/preferences/demo/editor.md');
      const asDefault = await preview({});
      expect(asDefault.stdout).not.toContain('editor.md');
    },
    60_000,
  );
});
