/**
 * `node scripts/hook.mjs import` through the BUILT plugin against the test
 * server (DESIGN D35), the rest: what is skipped (`--since`, memory or
 * capture off everywhere, folders whose capture is off, bypassed sessions), 429 and 503 waited out, a server
 * away or refusing for good, sub-agents and peers as live capture would
 * have written them, a long transcript read in slices, `--background`
 * with `--status`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createImportWorld, type ImportWorld } from './support/world.js';

let world: ImportWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('what is skipped, and a server that refuses for now', () => {
  it('--since, and a folder whose capture is off or a bypassed session: nothing sent for them', async () => {
    world = await createImportWorld();
    const w = world;
    const old = w.codebuddy({ turns: [['IMP-OLD q', 'IMP-OLD a']], ageMinutes: 60 * 24 * 40 });
    const quiet = join(w.workspace, 'quiet');
    mkdirSync(join(quiet, '.openviking'), { recursive: true });
    writeFileSync(join(quiet, '.openviking', 'config.json'), JSON.stringify({ autoCapture: false }));
    const off = w.codebuddy({ cwd: quiet, turns: [['IMP-OFF q', 'IMP-OFF a']] });
    const bypassed = w.claude({ turns: [['IMP-BYPASS q', 'IMP-BYPASS a']] }, 'scratch-0001');
    const fresh = w.codebuddy({ turns: [['IMP-NEW q', 'IMP-NEW a']] });
    const since = new Date(Date.now() - 10 * 24 * 3600_000).toISOString().slice(0, 10);
    const run = await w.run(['--since', since], { OPENVIKING_BYPASS_SESSION_PATTERNS: 'scratch-*' });
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/1 older than --since/);
    expect(run.stdout).toMatch(/2 memory or capture off there/);
    for (const skipped of [old, off, bypassed]) expect(w.texts(skipped.ovId)).toEqual([]);
    expect(w.texts(fresh.ovId)).toEqual(['IMP-NEW q', 'IMP-NEW a']);
  });

  it('memory or capture off for every folder: nothing read, nothing sent, nothing recorded', async () => {
    world = await createImportWorld();
    const w = world;
    const session = w.codebuddy({ turns: [['IMP-GLOBAL-OFF q', 'IMP-GLOBAL-OFF a']] });
    for (const [env, said] of [
      [{ OPENVIKING_MEMORY_ENABLED: 'false' }, /^Nothing imported: OpenViking memory is off \(/],
      [{ OPENVIKING_AUTO_CAPTURE: 'false' }, /^Nothing imported: capture is off \(/],
    ] as const) {
      const run = await w.run(['--all'], env);
      expect(run.exitCode, run.stdout).toBe(0);
      expect(run.stdout).toMatch(said);
    }
    expect(w.server.requests()).toEqual([]);
    expect(w.texts(session.ovId)).toEqual([]);
    const dry = await w.run(['--dry-run']);
    expect(dry.stdout).not.toMatch(/imported before/);
    expect(dry.stdout).toMatch(/1 session · 1 turns · 2 messages/);
  });

  it('429 and 503 are waited out: every session lands once, none is left queued', async () => {
    world = await createImportWorld();
    const w = world;
    const sessions = Array.from({ length: 5 }, (_, index) =>
      w.codebuddy({ turns: [[`IMP-BUSY${index} q`, `IMP-BUSY${index} a`]] }),
    );
    w.server.faults.errorBurst({ status: 429, count: 3, match: { path: /\/messages\/batch$/ } });
    w.server.faults.errorBurst({ status: 503, count: 2, match: { path: /\/commit$/ } });
    const run = await w.run([]);
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/imported 5 sessions/);
    expect(run.stdout).not.toMatch(/Queued/);
    for (const session of sessions) {
      expect(w.texts(session.ovId)).toHaveLength(2);
      expect(w.server.session(session.ovId)?.commits.filter((commit) => commit.status === 'accepted')).toHaveLength(1);
    }
    expect(w.server.requests({ status: 429 }).length).toBe(3);
  });
});

describe('sessions as live capture would have written them', () => {
  it("a Claude Code sub-agent goes into the sub-agent session its SubagentStop names (the records' agentId)", async () => {
    world = await createImportWorld();
    const w = world;
    const main = w.claude({ turns: [['IMP-CCMAIN q', 'IMP-CCMAIN a']] });
    const sub = w.claudeSubagent(main, { turns: [['IMP-CCSUB q', 'IMP-CCSUB a']] }, 'a1b2c3d4e5');
    const run = await w.run([]);
    expect(run.exitCode, run.stdout).toBe(0);
    expect(sub.ovId).toBe(`${main.ovId}__subagent-a1b2c3d4e5`);
    expect(w.texts(sub.ovId)).toEqual(['IMP-CCSUB q', 'IMP-CCSUB a']);
    expect(w.texts(main.ovId)).toEqual(['IMP-CCMAIN q', 'IMP-CCMAIN a']);
  });

  it("each message carries the peer its session's folder derives (DESIGN D24)", async () => {
    world = await createImportWorld();
    const w = world;
    const repo = (folder: string, origin: string): void => {
      mkdirSync(join(folder, '.git'), { recursive: true });
      writeFileSync(join(folder, '.git', 'config'), `[remote "origin"]\n\turl = ${origin}\n`);
    };
    repo(w.workspace, 'git@github.com:Acme/App.git');
    const tool = join(w.workspace, 'vendor', 'tool');
    repo(tool, 'https://github.com/acme/tool.git');
    const app = w.codebuddy({ turns: [['IMP-PEER1 q', 'IMP-PEER1 a']] });
    const vendored = w.claude({ cwd: tool, turns: [['IMP-PEER2 q', 'IMP-PEER2 a']] });
    expect((await w.run([])).exitCode).toBe(0);
    const peers = (ovId: string) => [...new Set(w.server.session(ovId)?.allMessages.map((m) => m.peer_id))];
    expect(peers(app.ovId)).toEqual(['github.com-acme-app']);
    expect(peers(vendored.ovId)).toEqual(['github.com-acme-tool']);
  });

  it('a long transcript is read in slices: every turn of a 10 MB session once, all of it archived', async () => {
    world = await createImportWorld();
    const w = world;
    const pad = 'x'.repeat(48 * 1024);
    const turns = Array.from(
      { length: 200 },
      (_, index) => [`IMP-LONG${index} q`, `IMP-LONG${index} a ${pad}`] as const,
    );
    const long = w.codebuddy({ turns });
    const log = join(w.home, 'debug.log');
    const run = await w.run([], { OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: log });
    expect(run.exitCode, run.stdout).toBe(0);
    const passes = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"message":"import pass"'));
    expect(passes.length, 'a pass per 4 MiB slice').toBe(3);
    expect(passes.slice(0, 2).every((line) => line.includes('"more":true'))).toBe(true);
    const texts = w.texts(long.ovId);
    expect(texts).toHaveLength(400);
    expect(new Set(texts.map((text) => text.slice(0, 16))).size).toBe(400);
    // Archived whole: by the server's policy (D19, set after the first batch) as it filled, then the import's own full commit.
    const commits = w.server.session(long.ovId)?.commits ?? [];
    expect(commits.filter((commit) => commit.auto === undefined)).toHaveLength(1);
    expect(w.server.session(long.ovId)?.messages).toEqual([]);
  });
});

describe('the server away, and the import in the background', () => {
  it('no server: nothing imported, nothing recorded; a server that keeps refusing ends the import, the rest not started', async () => {
    world = await createImportWorld();
    const w = world;
    for (let index = 0; index < 8; index++) w.codebuddy({ turns: [[`IMP-AWAY${index} q`, `IMP-AWAY${index} a`]] });
    const away = await w.run([], { OPENVIKING_URL: 'http://127.0.0.1:9' });
    expect(away.exitCode).toBe(1);
    expect(away.stdout).toMatch(/^Nothing imported: the server does not answer/);
    w.server.faults.errorBurst({ status: 503, count: 10_000, match: { path: /\/messages\/batch$/ } });
    const refused = await w.run([]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toMatch(/Queued \d+ sessions?: the server refused for now/);
    expect(refused.stdout).toMatch(/Not started: \d+ sessions?, because the server kept refusing/);
    w.server.faults.clear();
    const later = await w.run([]);
    expect(later.exitCode, later.stdout).toBe(0);
    for (let index = 0; index < 8; index++)
      expect(w.allTexts().filter((text) => text.startsWith(`IMP-AWAY${index} `))).toHaveLength(2);
  }, 90_000);

  it('--background returns at once; --status follows it to its summary', async () => {
    world = await createImportWorld();
    const w = world;
    const sessions = Array.from({ length: 3 }, (_, index) =>
      w.codebuddy({ turns: [[`IMP-BG${index} q`, `IMP-BG${index} a`]] }),
    );
    const started = await w.run(['--background']);
    expect(started.exitCode).toBe(0);
    expect(started.stdout).toMatch(/runs in the background now/);
    let status = '';
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      status = (await w.run(['--status'])).stdout;
      if (status.startsWith('The last import finished')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toMatch(/^The last import finished .*\nOpenViking import of .* imported 3 sessions/);
    for (const session of sessions) expect(w.texts(session.ovId)).toHaveLength(2);
    expect((await w.run(['--background', '--dry-run'])).exitCode).toBe(2);
  });
});
