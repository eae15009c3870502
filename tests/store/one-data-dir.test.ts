/**
 * One data directory, whoever asks (DESIGN D21, issue 15 item 2). Hooks run
 * through the host simulator with each install form's variables (2.117 sets
 * no data variable; 2.163 sets `CODEBUDDY_PLUGIN_DATA` with an `-inline`
 * suffix under `--plugin-dir` and without it from a marketplace; Claude Code
 * sets `CLAUDE_PLUGIN_DATA`); then the status line and doctor run with only
 * HOME and PATH, as from a shell or the host's statusLine, and must see what
 * the hooks wrote. Writes an earlier version left in a per-install directory
 * are replayed, and the README's override really overrides. Needs
 * `npm run build`.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostSim, createPayloads, type SimulatedHost } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';
import { checkOf, parseReport, runDoctorInProcess } from '../doctor/support.js';
import { enqueue } from '../../src/store/queue.js';

/** A port nothing listens on: every request is refused at once. */
const DEAD_URL = 'http://127.0.0.1:9';

const sandboxes: string[] = [];
afterAll(() => {
  for (const dir of sandboxes) rmSync(dir, { recursive: true, force: true });
});

function sandbox() {
  const root = mkdtempSync(join(tmpdir(), 'ov-datadir-'));
  sandboxes.push(root);
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  for (const dir of [home, workspace]) mkdirSync(dir, { recursive: true });
  return { root, home, workspace };
}

async function statusLineWithoutHostVariables(home: string): Promise<string> {
  const run = await runProcess(process.execPath, [join(REPO_ROOT, 'scripts', 'statusline.mjs')], {
    stdin: '',
    env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' },
    cwd: home,
    timeoutMs: 10_000,
  });
  return run.stdout.split('\n')[0] ?? '';
}

interface InstallForm {
  name: string;
  host: SimulatedHost;
  /** The host's per-install data directory, relative to HOME; undefined when the host sets none. */
  pluginData?: string;
}

const FORMS: InstallForm[] = [
  { name: 'CodeBuddy 2.117 (no data variable)', host: 'codebuddy' },
  { name: 'CodeBuddy 2.163 --plugin-dir', host: 'codebuddy', pluginData: '.codebuddy/plugins/data/openviking-inline' },
  { name: 'CodeBuddy 2.163 marketplace', host: 'codebuddy', pluginData: '.codebuddy/plugins/data/openviking' },
  { name: 'Claude Code --plugin-dir', host: 'claude-code', pluginData: '.claude/plugins/data/openviking-inline' },
];

describe('every process reads the state the hooks write', () => {
  for (const form of FORMS) {
    it(`${form.name}: a down server seen by a prompt hook shows in the status line and doctor run without host variables`, async () => {
      const { home, workspace } = sandbox();
      const sim = createHostSim({
        pluginRoot: REPO_ROOT,
        home,
        workspace,
        host: form.host,
        env: { OPENVIKING_URL: DEAD_URL },
        ...(form.pluginData !== undefined ? { pluginData: join(home, form.pluginData) } : {}),
      });
      const p = createPayloads({
        workspace,
        configDir: join(home, '.codebuddy'),
        hostVersion: form.pluginData && form.host === 'codebuddy' ? '2.163' : '2.117',
      });
      const result = await sim.fire(
        'UserPromptSubmit',
        p.userPromptSubmit('How do I deploy the kestrel staging cluster?'),
      );
      expect(result.timedOut).toBe(false);

      expect(await statusLineWithoutHostVariables(home)).toMatch(/^OV ○ down/);
      const report = parseReport(await runDoctorInProcess({ json: true }, { OPENVIKING_URL: DEAD_URL }, home));
      expect(checkOf(report, 'data-dir').data).toMatchObject({
        dir: join(home, '.codebuddy', 'openviking'),
        exists: true,
      });
      if (form.pluginData !== undefined) expect(existsSync(join(home, form.pluginData, 'status'))).toBe(false);
    });
  }
});

describe('moving between install forms strands no queued write', () => {
  let server: OvTestServer;
  beforeAll(async () => {
    server = await startOvServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('a write queued in the --plugin-dir data directory is replayed by a session of the marketplace install', async () => {
    const { home, workspace } = sandbox();
    const oldDir = join(home, '.codebuddy', 'plugins', 'data', 'openviking-inline');
    const now = Date.now();
    await enqueue(
      join(oldDir, 'queue'),
      {
        type: 'addMessages',
        sessionId: 'cb-stranded',
        payload: { messages: [{ role: 'user', parts: [{ type: 'text', text: 'STRANDED-WRITE-7' }] }] },
        createdAt: now,
      },
      { now: () => now, lockTimeoutMs: 500 },
    );
    const sim = createHostSim({
      pluginRoot: REPO_ROOT,
      home,
      workspace,
      env: { OPENVIKING_URL: server.url },
      pluginData: join(home, '.codebuddy', 'plugins', 'data', 'openviking'),
    });
    const p = createPayloads({ workspace, configDir: join(home, '.codebuddy'), hostVersion: '2.163' });
    await sim.fire('SessionStart', p.sessionStart());
    const stored = (server.session('cb-stranded')?.allMessages ?? []).map((message) => JSON.stringify(message.parts));
    expect(stored.join('\n')).toContain('STRANDED-WRITE-7');
    expect(readdirSync(join(oldDir, 'queue', 'pending'))).toEqual([]);
  });

  it('doctor from a shell counts a write an earlier install left in its own data directory', async () => {
    const { home } = sandbox();
    const oldDir = join(home, '.claude', 'plugins', 'data', 'openviking-inline');
    const now = Date.now();
    await enqueue(
      join(oldDir, 'queue'),
      { type: 'commit', sessionId: 'cb-left', payload: {}, createdAt: now },
      { now: () => now, lockTimeoutMs: 500 },
    );
    const report = parseReport(await runDoctorInProcess({ json: true }, { OPENVIKING_URL: DEAD_URL }, home));
    const queue = checkOf(report, 'queue');
    expect(queue.lines.join('\n')).toContain('moved 1 queued write here');
    expect(queue.data).toMatchObject({ pending: { count: 1 } });
  });
});

describe('OPENVIKING_CODEBUDDY_DATA_DIR overrides', () => {
  it('wins over the host data variable, for the hooks and for the status line', async () => {
    const { root, home, workspace } = sandbox();
    const override = join(root, 'my-data');
    const sim = createHostSim({
      pluginRoot: REPO_ROOT,
      home,
      workspace,
      env: { OPENVIKING_URL: DEAD_URL, OPENVIKING_CODEBUDDY_DATA_DIR: override },
      pluginData: join(home, '.codebuddy', 'plugins', 'data', 'openviking-inline'),
    });
    const p = createPayloads({ workspace, configDir: join(home, '.codebuddy'), hostVersion: '2.163' });
    await sim.fire('UserPromptSubmit', p.userPromptSubmit('How do I deploy the kestrel staging cluster?'));
    expect(readdirSync(override)).toContain('status');
    const run = await runProcess(process.execPath, [join(REPO_ROOT, 'scripts', 'statusline.mjs')], {
      stdin: '',
      env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', OPENVIKING_CODEBUDDY_DATA_DIR: override },
      cwd: home,
      timeoutMs: 10_000,
    });
    expect(run.stdout).toMatch(/^OV ○ down/);
  });
});
