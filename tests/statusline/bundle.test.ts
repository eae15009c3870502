/**
 * The built `scripts/statusline.mjs`, run the way CodeBuddy runs a
 * `statusLine` command: the session JSON on stdin, the first stdout line
 * shown. Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueue } from '../../src/store/queue.js';
import { recordActivity, recordServerStatus } from '../../src/store/status.js';
import { writeImportStatus } from '../../src/store/importStatus.js';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';

/** The server every recorded observation here is of. */
const SERVER_URL = 'http://127.0.0.1:9';

const SCRIPT = join(REPO_ROOT, 'scripts', 'statusline.mjs');
const ANSI = /\u001b\[[0-9;]*m/;

function world() {
  const home = mkdtempSync(join(tmpdir(), 'ov-statusline-'));
  const dataDir = join(home, 'data');
  return { home, dataDir, env: { PATH: process.env.PATH, HOME: home, OPENVIKING_CODEBUDDY_DATA_DIR: dataDir } };
}

async function statusLine(
  env: Record<string, string | undefined>,
  args: string[] = [],
  stdin = JSON.stringify({ hook_event_name: 'Status', session_id: 'sess-1', cwd: '/w' }),
) {
  const run = await runProcess(process.execPath, [SCRIPT, ...args], { stdin, env, cwd: REPO_ROOT, timeoutMs: 10_000 });
  expect(run.exitCode).toBe(0);
  const lines = run.stdout.split('\n');
  expect(lines[1] ?? '').toBe('');
  return { line: lines[0] ?? '', durationMs: run.durationMs };
}

describe('scripts/statusline.mjs', () => {
  it('server up with a recall recorded, with and without colour', async () => {
    const { env, dataDir } = world();
    const now = Date.now();
    await recordServerStatus(dataDir, { up: true, at: now }, SERVER_URL);
    await recordActivity(dataDir, 'recall', 'cb-sess-1', { at: now - 90_000, count: 3 });
    await recordActivity(dataDir, 'recall', 'cb-other-session', { at: now, count: 7 });
    const coloured = await statusLine(env);
    expect(coloured.line).toMatch(ANSI);
    expect(coloured.line.replace(/\u001b\[[0-9;]*m/g, '')).toBe('OV ● up · recall 3 memories 1m ago');
    expect((await statusLine({ ...env, NO_COLOR: '1' })).line).toBe('OV ● up · recall 3 memories 1m ago');
    expect((await statusLine(env, ['--no-color'])).line).toBe('OV ● up · recall 3 memories 1m ago');
  });

  it("what this session's start said earlier sessions taught, and a running import's progress (DESIGN D35, D36)", async () => {
    const { env, dataDir } = world();
    const now = Date.now();
    await recordServerStatus(dataDir, { up: true, at: now }, SERVER_URL);
    await recordActivity(dataDir, 'learned', 'cb-sess-1', { at: now, count: 3 });
    const running = { state: 'running' as const, pid: 1, startedAt: now - 5_000, at: now, bytesDone: 0, bytesTotal: 9 };
    writeImportStatus(dataDir, { ...running, sessionsDone: 12, sessionsTotal: 340 });
    expect((await statusLine({ ...env, NO_COLOR: '1' })).line).toBe('OV ● up · learned 3 memories · importing 12/340');
    // A status file that stopped moving is an import that died: not shown.
    writeImportStatus(dataDir, { ...running, at: now - 60_000, sessionsDone: 12, sessionsTotal: 340 });
    expect((await statusLine({ ...env, NO_COLOR: '1' })).line).toBe('OV ● up · learned 3 memories');
  });

  it('server down with queued writes', async () => {
    const { env, dataDir } = world();
    const now = Date.now();
    await recordServerStatus(dataDir, { up: false, at: now - 120_000, detail: 'NETWORK' }, SERVER_URL);
    for (const id of ['a', 'b'])
      await enqueue(
        join(dataDir, 'queue'),
        { type: 'commit', sessionId: id, payload: {}, createdAt: now },
        { now: () => now, lockTimeoutMs: 500 },
      );
    expect((await statusLine({ ...env, NO_COLOR: '1' })).line).toBe('OV ○ down 2m ago · 2 queued');
    const coloured = await statusLine(env);
    expect(coloured.line).toMatch(ANSI);
    expect(coloured.line.replace(/\u001b\[[0-9;]*m/g, '')).toBe('OV ○ down 2m ago · 2 queued');
  });

  it('says "off" when memory is switched off, and survives garbage stdin', async () => {
    const { env } = world();
    expect((await statusLine({ ...env, NO_COLOR: '1', OPENVIKING_MEMORY_ENABLED: 'false' })).line).toBe('OV off');
    expect((await statusLine({ ...env, NO_COLOR: '1' }, [], '\u0000not json')).line).toBe('OV not contacted yet');
  });

  it('does not wait for a stdin that never closes', async () => {
    const { env } = world();
    const child = spawn(process.execPath, [SCRIPT], {
      env: { ...env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(stdout).toBe('OV not contacted yet\n');
  });
});
