/**
 * The README's quick start and its "Try it without Python or model keys",
 * run as written against the stand-in server (issue 30 item 3): each shell
 * command of the two sections is read from README.md and run with `sh -c`
 * in a private HOME where `~/openviking-codebuddy` is this checkout, and
 * each step's check is asserted. A command added to either section fails
 * here until it is run or named as not runnable, so the README cannot
 * drift from what the plugin does.
 *
 * One liberty: the stand-in listens on a port of its own (`-- --port 0`)
 * rather than 1933, which another process on this machine may hold; the
 * commands get that address in place of `http://127.0.0.1:1933` (curl) and
 * through `OPENVIKING_URL` (the plugin, whose default 1933 is).
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { readmeCommands, readmeSection } from '../support/readme.js';
import { command, DEFAULT_URL, firstPrompt, hasCurl, sh, userHome } from '../support/readme-run.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { clientFor } from './http-client.js';

/** Commands of the two sections that cannot run here (docs/readme-commands.md says why) or run elsewhere. */
const NOT_RUN_HERE = new Set(['pip install openviking', 'openviking-server', 'npm ci --omit=optional']);
const RUN_BY_E2E = /^codebuddy plugin /; // tests/e2e/marketplace.e2e.test.ts

const quickStart = readmeCommands(readmeSection('Quick start'));
const tryIt = readmeCommands(readmeSection('Try it without Python or model keys'));

let running: ChildProcess | undefined;

afterEach(async () => {
  if (running?.pid === undefined || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running?.once('exit', resolve));
  process.kill(-running.pid, 'SIGTERM'); // npm, its shell and the server: the group this test started
  await exited;
});

/** The README's `npm run stand-in-server` (plus `extra` args, on a port of its own); resolves with its URL. */
function standIn(extra = ''): Promise<string> {
  const child = spawn('sh', ['-c', `${command(tryIt, 'npm run stand-in-server')} -- --port 0 ${extra}`], {
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

describe("the README's quick start, against the stand-in server", () => {
  it('every command of the two sections is run here, run by the e2e suite, or named as not runnable', () => {
    const runHere = [...quickStart, ...tryIt].filter((line) => !NOT_RUN_HERE.has(line) && !RUN_BY_E2E.test(line));
    expect(runHere).toEqual([
      `curl -s ${DEFAULT_URL}/health`,
      'node ~/openviking-codebuddy/scripts/hook.mjs doctor',
      'node ~/openviking-codebuddy/scripts/statusline.mjs',
      'npm run stand-in-server',
      'OPENVIKING_USER=demo node scripts/hook.mjs recall-preview which editor do I use',
    ]);
  });

  it("each step's check: health, doctor's verdicts, the demo user's recall, the status line after a first prompt", async () => {
    const url = await standIn();
    const home = userHome();

    // 1. A server: "it answers {"status":"ok", …}" (curl is not in every CI image: the other steps run without it).
    expect(readmeSection('Quick start')).toContain('Check: it answers `{"status":"ok", …}`');
    if (hasCurl) {
      const health = await sh(command(quickStart, 'curl -s'), url, home);
      expect(JSON.parse(health)).toMatchObject({ status: 'ok', auth_mode: 'dev' });
    }

    // 2. The plugin and where its server is: the verdicts the README names.
    const doctor = await sh(command(quickStart, 'node ~/openviking-codebuddy/scripts/hook.mjs doctor'), url, home);
    const named = /Check: doctor says `([^`]+)` and `([^`]+)`\./.exec(readmeSection('Quick start'));
    expect(named, 'the README names the verdicts of step 2').not.toBeNull();
    const verdicts = doctor.split('\n').filter((line) => line.startsWith('['));
    expect(verdicts).toEqual(expect.arrayContaining([named?.[1], named?.[2]]));

    // Try it: the demo memories are user demo's, so they show with OPENVIKING_USER=demo and not without.
    const preview = command(tryIt, 'OPENVIKING_USER=demo ');
    const asDemo = await sh(preview, url, home, REPO_ROOT);
    expect(asDemo).toContain('viking://user/demo/memories/preferences/demo/editor.md');
    const asDefault = await sh(preview.replace('OPENVIKING_USER=demo ', ''), url, home, REPO_ROOT);
    expect(asDefault).not.toContain('editor.md');

    // 4. A first session: after a prompt (the event the host sends), the status line says up and recall ran.
    await firstPrompt(home, url, 'demo', 'which editor do I use');
    const statusLine = await sh(command(quickStart, 'node ~/openviking-codebuddy/scripts/statusline.mjs'), url, home);
    expect(statusLine).toMatch(/^OV ● up · recall \d+ memor(y|ies) (now|\d+s ago)/);
  }, 90_000);

  it('--auth api_key: the demo key is the demo user, as the README says', async () => {
    expect(readmeSection('Try it without Python or model keys').replace(/\s+/g, ' ')).toContain(
      'With `-- --auth api_key` after the npm command it asks for keys instead (user key `demo-user-key`)',
    );
    const url = await standIn('--auth api_key');
    const api = clientFor(url, { Authorization: 'Bearer demo-user-key' });
    expect((await api.get('/health')).json).toMatchObject({ auth_mode: 'api_key', user_id: 'demo' });
    expect((await api.get('/api/v1/content/read?uri=viking://~/memories/profile.md')).json.result).toContain(
      'Demo developer',
    );
  }, 60_000);
});
