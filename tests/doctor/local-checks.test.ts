import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkActivity } from '../../src/doctor/activityCheck.js';
import { checkHooks } from '../../src/doctor/hooksCheck.js';
import { checkDataDir, checkQueue } from '../../src/doctor/localCheck.js';
import { createNodeDoctorIo } from '../../src/doctor/nodeIo.js';
import { enqueue } from '../../src/store/queue.js';
import { recordActivity, recordServerStatus } from '../../src/store/status.js';
import { writeJsonAtomic } from '../../src/store/atomic.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

/** The server every recorded observation here is of. */
const SERVER_URL = 'http://127.0.0.1:9';

const NOW = 1_800_000_000_000;
const sandbox = () => mkdtempSync(join(tmpdir(), 'ov-doctor-local-'));
const envFor = (dataDir: string) => ({ OPENVIKING_CODEBUDDY_DATA_DIR: dataDir });
const { runProgram } = createNodeDoctorIo();

describe('data-dir check', () => {
  it('is informational before the first event', async () => {
    const home = sandbox();
    const check = await checkDataDir({}, home);
    expect(check).toMatchObject({
      status: 'info',
      data: { exists: false, source: 'default', dir: join(home, '.codebuddy', 'openviking') },
    });
  });

  it('passes on private state and names every entry that is too open', async () => {
    const dir = join(sandbox(), 'data');
    await writeJsonAtomic(join(dir, 'sessions', 'a.json'), { version: 1 });
    expect(await checkDataDir(envFor(dir), '/nonexistent')).toMatchObject({
      status: 'pass',
      data: { mode: '0700', looseEntries: 0 },
    });

    chmodSync(join(dir, 'sessions', 'a.json'), 0o644);
    chmodSync(dir, 0o755);
    const loose = await checkDataDir(envFor(dir), '/nonexistent');
    expect(loose).toMatchObject({
      status: 'warn',
      data: { looseEntries: 2, source: 'env:OPENVIKING_CODEBUDDY_DATA_DIR' },
    });
    expect(loose.lines.join('\n')).toContain(`${join(dir, 'sessions', 'a.json')} is 0644, should be 0600`);
    expect(loose.fix).toContain('chmod 600');
  });
});

describe('queue check', () => {
  it('counts pending writes and dead letters with their age', async () => {
    const dir = join(sandbox(), 'data');
    const queueDir = join(dir, 'queue');
    expect(await checkQueue(envFor(dir), '/nonexistent', NOW, true)).toMatchObject({ status: 'pass' });
    for (const n of [1, 2, 3]) {
      await enqueue(
        queueDir,
        { type: 'commit', sessionId: `s${n}`, payload: {}, createdAt: NOW - n * 60_000 },
        { now: () => NOW, lockTimeoutMs: 500 },
      );
    }
    const pending = await checkQueue(envFor(dir), '/nonexistent', NOW, false);
    expect(pending).toMatchObject({ status: 'warn', data: { pending: { count: 3, oldestAgeMs: 180_000 } } });
    expect(pending.lines[0]).toBe('pending: 3, oldest 3m ago');
    expect(pending.fix).toContain('once the server is reachable again');

    mkdirSync(join(queueDir, 'dead'), { recursive: true });
    writeFileSync(join(queueDir, 'dead', `${String(NOW - 7_200_000).padStart(15, '0')}-x.json`), '{}');
    const dead = await checkQueue(envFor(dir), '/nonexistent', NOW, true);
    expect(dead).toMatchObject({ status: 'warn', data: { dead: { count: 1, oldestAgeMs: 7_200_000 } } });
    expect(dead.fix).toContain(join(queueDir, 'dead'));
  });
});

describe('activity check', () => {
  it('lists the newest sessions with their last recall and capture', async () => {
    const dir = sandbox();
    await recordServerStatus(dir, { up: false, at: NOW - 60_000, detail: 'TIMEOUT' }, SERVER_URL);
    await recordActivity(dir, 'recall', 'old', { at: NOW - 3_600_000, count: 2 });
    await recordActivity(dir, 'recall', 'new', { at: NOW - 30_000, count: 1, by: 'resident' });
    await recordActivity(dir, 'capture', 'new', { at: NOW - 20_000, count: 6 });
    await recordActivity(dir, 'recall', 'module', { at: NOW - 40_000, count: 0, by: 'module' });
    const check = await checkActivity(dir, NOW, SERVER_URL);
    // Who answered each recall, when its record says (an earlier version's, `old`, does not).
    expect(check.lines).toEqual([
      'server last seen down (TIMEOUT) 1m ago',
      'new: recall 1 memory 30s ago by the resident helper; capture 6 messages 20s ago',
      'module: recall 0 memories 40s ago by the hooks module; capture never',
      'old: recall 2 memories 1h ago; capture never',
    ]);
  });

  // Issue 30 item 4: on 4953f41 "server last seen down" showed whatever server any configuration's hooks met last.
  it("shows the server's state only for the configuration in use", async () => {
    const dir = sandbox();
    await recordServerStatus(dir, { up: false, at: NOW - 60_000, detail: 'NETWORK' }, 'https://work.example');
    const other = await checkActivity(dir, NOW, SERVER_URL);
    expect(other.lines[0]).toBe(
      `no hook has talked to ${SERVER_URL} lately (the last server the hooks saw, 1m ago, was another configuration's)`,
    );
    expect(other.lines.join('\n')).not.toContain('down');
    expect(other.data?.['server']).toBeNull();
    const same = await checkActivity(dir, NOW, 'https://work.example');
    expect(same.lines[0]).toBe('server last seen down (NETWORK) 1m ago');
  });

  it('says so when nothing happened yet', async () => {
    expect((await checkActivity(sandbox(), NOW, SERVER_URL)).lines).toEqual([
      'no session has recalled or captured anything yet',
    ]);
  });
});

describe('hooks check', () => {
  /** A copy of the plugin's hook files with hooks.json replaced. */
  function pluginWith(hooks: unknown): string {
    const root = sandbox();
    mkdirSync(join(root, 'hooks'));
    mkdirSync(join(root, 'scripts'));
    copyFileSync(join(REPO_ROOT, 'hooks', 'guard-prefilter.sh'), join(root, 'hooks', 'guard-prefilter.sh'));
    writeFileSync(join(root, 'scripts', 'hook.cjs'), '');
    writeFileSync(join(root, 'scripts', 'hook.mjs'), '');
    writeFileSync(join(root, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    return root;
  }
  const command = (placeholder: string, file = 'scripts/hook.cjs') => ({
    hooks: [{ type: 'command', command: `node "\${${placeholder}}/${file}"` }],
  });
  const allEvents = (placeholder: string, file?: string) => ({
    hooks: Object.fromEntries(
      ['SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact', 'SessionEnd']
        .map((event) => [event, [command(placeholder, file)]])
        .concat([
          [
            'PreToolUse',
            [{ hooks: [{ type: 'command', command: `sh "\${${placeholder}}/hooks/guard-prefilter.sh"` }] }],
          ],
        ]),
    ),
  });

  it('passes the shipped hooks.json, running the real prefilter', async () => {
    const check = await checkHooks(REPO_ROOT, runProgram);
    expect(check.status).not.toBe('fail');
    expect(check.lines.join('\n')).toContain('prefilter runs under sh and passes an ordinary Read silently');
  });

  it('passes a config that works on both hosts', async () => {
    expect(await checkHooks(pluginWith(allEvents('CLAUDE_PLUGIN_ROOT')), runProgram)).toMatchObject({ status: 'pass' });
  });

  it('warns when only CodeBuddy would resolve the commands', async () => {
    const check = await checkHooks(pluginWith(allEvents('CODEBUDDY_PLUGIN_ROOT')), runProgram);
    expect(check.status).toBe('warn');
    expect(check.fix).toContain('${CLAUDE_PLUGIN_ROOT}');
  });

  it('fails on a missing event, a hard-coded path and a foreign command', async () => {
    const config = allEvents('CLAUDE_PLUGIN_ROOT') as { hooks: Record<string, unknown> };
    delete config.hooks['Stop'];
    config.hooks['SessionEnd'] = [{ hooks: [{ type: 'command', command: 'node /opt/plugin/scripts/hook.mjs' }] }];
    config.hooks['SubagentStop'] = [{ hooks: [{ type: 'command', command: 'echo hi' }] }];
    const check = await checkHooks(pluginWith(config), runProgram);
    expect(check.status).toBe('fail');
    expect(check.data?.['problems']).toEqual([
      'Stop is not registered',
      'SubagentStop: "echo hi" does not run scripts/hook.cjs',
      'SubagentStop: "echo hi" does not use a plugin-root placeholder',
      'SessionEnd: "node /opt/plugin/scripts/hook.mjs" does not use a plugin-root placeholder',
    ]);
  });

  it('fails when the prefilter misbehaves or hooks.json is unreadable', async () => {
    const root = pluginWith(allEvents('CLAUDE_PLUGIN_ROOT'));
    writeFileSync(join(root, 'hooks', 'guard-prefilter.sh'), 'echo leaked; exit 3\n');
    expect((await checkHooks(root, runProgram)).data?.['problems']).toEqual(['prefilter exited 3 on an ordinary Read']);
    writeFileSync(join(root, 'hooks', 'hooks.json'), '{oops');
    expect(await checkHooks(root, runProgram)).toMatchObject({ status: 'fail' });
  });

  it("passes an older release's hooks.json naming the ES shim, and fails when the CommonJS entry is missing (D38)", async () => {
    const older = pluginWith(allEvents('CLAUDE_PLUGIN_ROOT', 'scripts/hook.mjs'));
    expect(await checkHooks(older, runProgram)).toMatchObject({ status: 'pass' });
    rmSync(join(older, 'scripts', 'hook.cjs'));
    expect((await checkHooks(older, runProgram)).data?.['problems']).toEqual([
      'scripts/hook.cjs is missing (run `npm run build` in a checkout)',
    ]);
  });
});
