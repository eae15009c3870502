/**
 * `node scripts/hook.mjs import` through the BUILT plugin against the test
 * server (DESIGN D35): sessions of both hosts of one workspace land once
 * each, in the session ids live capture uses, committed; a second run
 * sends nothing; a session live capture sent in part is completed; a live
 * session (its lock held, or written minutes ago) is left alone; private
 * text, injected blocks and a secret never leave; a dry run sends nothing;
 * corrupt lines are counted; a session the server holds already is
 * skipped; two imports at once do not both run. The rest:
 * import-edges.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { captureLockPath } from '../../src/session/locks.js';
import { tryLock } from '../../src/store/lock.js';
import { age, codebuddyTurn, createImportWorld, type ImportWorld } from './support/world.js';
import { workersIdle } from '../capture/support/world.js';

let world: ImportWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('import of a workspace', () => {
  it('both hosts and a sub-agent: each turn exactly once in its live-capture session id, each session committed; a second run sends nothing', async () => {
    world = await createImportWorld();
    const w = world;
    const cb = w.codebuddy({
      turns: [
        ['IMP-CB1 how do we build', 'IMP-CB1 with make'],
        ['IMP-CB2 and test', 'IMP-CB2 npm test'],
      ],
    });
    const sub = w.codebuddySubagent(cb, { turns: [['IMP-SUB find callers', 'IMP-SUB three callers']] });
    const cc = w.claude({ turns: [['IMP-CC1 which db', 'IMP-CC1 sqlite']] });
    const elsewhere = w.codebuddy({ cwd: '/somewhere/else', turns: [['IMP-OTHER x', 'IMP-OTHER y']] });
    const first = await w.run([]);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(/imported 3 sessions · 4 turns · 8 messages/);
    expect(w.texts(cb.ovId)).toEqual([
      'IMP-CB1 how do we build',
      'IMP-CB1 with make',
      'IMP-CB2 and test',
      'IMP-CB2 npm test',
    ]);
    expect(w.texts(sub.ovId)).toEqual(['IMP-SUB find callers', 'IMP-SUB three callers']);
    expect(sub.ovId).toMatch(/^cb-[0-9a-f-]+__subagent-agent-[0-9a-f]{8}$/);
    expect(w.texts(cc.ovId)).toEqual(['IMP-CC1 which db', 'IMP-CC1 sqlite']);
    expect(w.texts(elsewhere.ovId)).toEqual([]);
    for (const id of [cb.ovId, sub.ovId, cc.ovId])
      expect(
        w.server.session(id)?.commits.map((commit) => commit.status),
        id,
      ).toEqual(['accepted']);
    w.server.clearRequests();
    const second = await w.run([]);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toMatch(/nothing new to import/);
    expect(second.stdout).toMatch(/Skipped 3 sessions: 3 imported before/);
    expect(w.server.requests().filter((request) => request.method !== 'GET')).toEqual([]);
    const all = await w.run(['--all']);
    expect(all.stdout).toMatch(/imported 1 session · 1 turns/);
    expect(w.texts(elsewhere.ovId)).toEqual(['IMP-OTHER x', 'IMP-OTHER y']);
  });

  it('a dry run sends nothing, and says per workspace what would go', async () => {
    world = await createImportWorld();
    const w = world;
    w.codebuddy({ turns: [['IMP-DRY1 a', 'IMP-DRY1 b']] });
    w.claude({
      cwd: join(w.workspace, 'pkg'),
      turns: [
        ['IMP-DRY2 a', 'IMP-DRY2 b'],
        ['IMP-DRY3 a', 'IMP-DRY3 b'],
      ],
    });
    w.server.clearRequests();
    const dry = await w.run(['--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(w.server.requests()).toEqual([]);
    expect(dry.stdout).toContain(`${w.workspace}: 1 session · 1 turns · 2 messages`);
    expect(dry.stdout).toContain(`${join(w.workspace, 'pkg')}: 1 session · 2 turns · 4 messages`);
    expect(dry.stdout).toMatch(/in all: 2 sessions · 3 turns · 6 messages/);
    expect(w.allTexts()).toEqual([]);
  });

  it('private text, injected blocks and a seeded secret never reach the server', async () => {
    world = await createImportWorld();
    const w = world;
    const secret = `ghp_${randomBytes(24).toString('hex').slice(0, 36)}`;
    const note = `PRIVATE-${randomBytes(6).toString('hex')}`;
    const injected = `INJECTED-${randomBytes(6).toString('hex')}`;
    const cb = w.codebuddy({
      turns: [
        [
          `IMP-PRIV token is ${secret} <private>${note}</private>\n<openviking-context source="recall">${injected}</openviking-context>`,
          'IMP-PRIV noted',
        ],
      ],
    });
    const cc = w.claude({
      turns: [[`IMP-PRIV2 <system-reminder>${injected}</system-reminder> export GITHUB_TOKEN=${secret}`, 'ok']],
    });
    const run = await w.run([]);
    expect(run.exitCode, run.stdout).toBe(0);
    const sent = w.server
      .requests({ method: 'POST' })
      .map((request) => request.rawBody)
      .join('\n');
    expect(sent).toContain('IMP-PRIV token is [REDACTED:');
    for (const leaked of [secret, note, injected]) expect(sent.includes(leaked), leaked).toBe(false);
    expect(w.texts(cb.ovId)).toHaveLength(2);
    expect(w.texts(cc.ovId)).toHaveLength(2);
  });

  it('corrupt and cut lines are skipped and counted, never fatal', async () => {
    world = await createImportWorld();
    const w = world;
    const cb = w.codebuddy({ turns: [['IMP-BAD1 a', 'IMP-BAD1 b']] });
    w.appendRaw(cb, ['{"id":"x", this is not json', 'plain junk', '[1,2,3]']);
    w.appendRaw(
      cb,
      codebuddyTurn(cb.sessionId, w.workspace, 'IMP-BAD2 a', 'IMP-BAD2 b').map((record) => JSON.stringify(record)),
    );
    // The host died mid-write: the last line has no end.
    appendFileSync(cb.path, '{"id":"cut-short","type":"message","role":"user","content":[{"type":"input_te');
    age(cb.path, 120);
    const dry = await w.run(['--dry-run']);
    expect(dry.stdout).toMatch(/Corrupt or cut transcript lines: 4 \(skipped\)\./);
    const run = await w.run([]);
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/Corrupt or cut transcript lines skipped: 4\./);
    expect(w.texts(cb.ovId)).toEqual(['IMP-BAD1 a', 'IMP-BAD1 b', 'IMP-BAD2 a', 'IMP-BAD2 b']);
    const again = await w.run(['--dry-run', '--all']);
    expect(again.stdout).toMatch(/Would skip 1 session: 1 imported before/);
  });
});

describe('exactly once with what came before', () => {
  it('a session live capture sent in part is completed, not duplicated', async () => {
    world = await createImportWorld();
    const w = world;
    const sim = createHostSim({ pluginRoot: REPO_ROOT, home: w.home, workspace: w.workspace, env: w.env });
    const p = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
    const live = w.codebuddy({ turns: [['IMP-LIVE1 q', 'IMP-LIVE1 a']], ageMinutes: 0 }, p.sessionId);
    expect(live.path).toBe(p.transcriptPath);
    await sim.fire('Stop', p.stop('IMP-LIVE1 a'));
    await waitFor(() => w.texts(live.ovId).length === 2);
    await workersIdleIn(w, live.ovId);
    w.appendRaw(
      live,
      [
        ...codebuddyTurn(p.sessionId, w.workspace, 'IMP-LIVE2 q', 'IMP-LIVE2 a'),
        ...codebuddyTurn(p.sessionId, w.workspace, 'IMP-LIVE3 q', 'IMP-LIVE3 a'),
      ].map((record) => JSON.stringify(record)),
    );
    const run = await w.run([]);
    expect(run.exitCode, run.stdout).toBe(0);
    expect(w.texts(live.ovId)).toEqual([
      'IMP-LIVE1 q',
      'IMP-LIVE1 a',
      'IMP-LIVE2 q',
      'IMP-LIVE2 a',
      'IMP-LIVE3 q',
      'IMP-LIVE3 a',
    ]);
    expect(w.server.session(live.ovId)?.commits.map((commit) => commit.status)).toEqual(['accepted']);
    expect(run.stdout).toMatch(/imported 1 session · 2 turns · 4 messages/);
  });

  it('a session the server already holds, unknown here, is skipped rather than sent twice', async () => {
    world = await createImportWorld();
    const w = world;
    const known = w.claude({ turns: [['IMP-KNOWN q', 'IMP-KNOWN a']] });
    const res = await fetch(`${w.server.url}/api/v1/sessions/${known.ovId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'user', content: 'IMP-KNOWN q' }),
    });
    expect(res.status).toBe(200);
    const run = await w.run([]);
    expect(run.stdout).toMatch(/1 already on the server/);
    expect(w.texts(known.ovId)).toEqual(['IMP-KNOWN q']);
  });

  it('a live session is left to live capture: its lock held, or its transcript written minutes ago', async () => {
    world = await createImportWorld();
    const w = world;
    const locked = w.codebuddy({ turns: [['IMP-LOCKED q', 'IMP-LOCKED a']] });
    const recent = w.claude({ turns: [['IMP-RECENT q', 'IMP-RECENT a']], ageMinutes: 2 });
    const idle = w.codebuddy({ turns: [['IMP-IDLE q', 'IMP-IDLE a']] });
    const lock = await tryLock(captureLockPath(w.dataDir, locked.ovId), { now: Date.now, staleMs: 300_000 });
    expect(lock.ok).toBe(true);
    try {
      const run = await w.run([]);
      expect(run.exitCode, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/Skipped 2 sessions: 2 live/);
      expect(w.texts(locked.ovId)).toEqual([]);
      expect(w.texts(recent.ovId)).toEqual([]);
      expect(w.texts(idle.ovId)).toEqual(['IMP-IDLE q', 'IMP-IDLE a']);
    } finally {
      if (lock.ok) await lock.handle.release();
    }
    const later = await w.run([]);
    expect(later.stdout).toMatch(/imported 1 session/);
    expect(w.texts(locked.ovId)).toEqual(['IMP-LOCKED q', 'IMP-LOCKED a']);
  });

  it('two imports at once: one runs, the other says so; each turn once', async () => {
    world = await createImportWorld();
    const w = world;
    const sessions = Array.from({ length: 6 }, (_, index) =>
      w.codebuddy({ turns: [[`IMP-TWO${index} q`, `IMP-TWO${index} a`]] }),
    );
    w.server.faults.latency(150, { path: /\/messages\/batch$/ });
    const [a, b] = await Promise.all([w.run([]), w.run([])]);
    const outputs = [a.stdout, b.stdout];
    expect(outputs.filter((text) => text.startsWith('Another import is running here'))).toHaveLength(1);
    for (const session of sessions) expect(w.texts(session.ovId)).toHaveLength(2);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Until the live capture of `ovId` (a detached worker of the Stop hook) is done. */
async function workersIdleIn(w: ImportWorld, ovId: string): Promise<void> {
  await workersIdle({ home: w.home, dataDir: w.dataDir } as Parameters<typeof workersIdle>[0], ovId);
}
