/**
 * `why` and `recall-preview` (issue 17.2) through the host simulator, the
 * built bundle and the test server: the start and prompt stages keep a
 * private, bounded record of what they injected, which `why` prints
 * (newest session by default, or `--session`), each recall with the process
 * that answered it; `recall-preview` shows what
 * a query would recall here, with URIs and scores, speaking as the
 * workspace's project and outside any session. Needs `npm run build`.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInjection, whyFile, MAX_FILE_BYTES } from '../../src/why/record.js';
import { spawnHook } from '../support/spawn-hook.js';
import { contextOf, createWorld, RECALL_MARKER, RECALL_PROMPT, type World } from '../support/session-world.js';

let world: World;
beforeAll(async () => {
  world = await createWorld();
  execFileSync('git', ['init', '-q'], { cwd: world.workspace });
  execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:acme/why-demo.git'], { cwd: world.workspace });
});
afterAll(async () => world.dispose());

const hook = (args: string[]) => spawnHook({ args, cwd: world.workspace, env: { ...world.sim.env } });

describe('why', () => {
  it('prints the start block and each recall of the newest session, with times, URIs and scores', async () => {
    const older = world.payloads();
    await world.sim.fire('SessionStart', older.sessionStart('startup'));
    const p = world.payloads();
    expect(contextOf(await world.sim.fire('SessionStart', p.sessionStart('startup')))).not.toBe('');
    expect(contextOf(await world.sim.fire('UserPromptSubmit', p.userPromptSubmit(RECALL_PROMPT)))).toContain(
      RECALL_MARKER,
    );
    const run = await hook(['why']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`session cb-${p.sessionId}`);
    expect(run.stdout).toMatch(
      /\d{4}-\d\d-\d\dT[\d:.]+Z {2}session start \(startup\): profile block {2}\[project github\.com-acme-why-demo\]/,
    );
    expect(run.stdout).toContain('viking://user/default/memories/profile.md');
    expect(run.stdout).toContain(`recall for: ${RECALL_PROMPT}`);
    expect(run.stdout).toMatch(
      /\d\.\d\d {2}viking:\/\/user\/default\/memories\/entities\/default\/osprey-deploy\.md {2}\(entities\)/,
    );
    // Resident helpers are off in this world: the prompt hook answered the recall itself, and says so.
    expect(run.stdout).toMatch(/\d+ characters injected by the prompt hook itself\n/);
    const olderRun = await hook(['why', '--session', older.sessionId]);
    expect(olderRun.stdout).toContain(`session cb-${older.sessionId} (as asked; 1 time)`);
    expect(olderRun.stdout).not.toContain('recall for:');
  });

  // README: "`/openviking:why` | what the plugin injected into this session" (on 8e37669: the newest session on the machine).
  it("this session: the host's session id when the shell has it, else the newest session of this folder, never another folder's", async () => {
    const here = world.payloads();
    await world.sim.fire('SessionStart', here.sessionStart('startup'));
    // Another folder's session, injected into later.
    const elsewhere = join(world.workspace, '..', 'another-folder');
    mkdirSync(elsewhere, { recursive: true });
    recordInjection(world.dataDir, {
      session: 'cb-elsewhere',
      at: Date.now() + 60_000,
      kind: 'start',
      detail: 'startup',
      workspace: elsewhere,
      items: [],
      text: 'x',
    });
    const fromSlashCommand = await hook(['why']);
    expect(fromSlashCommand.stdout).toContain(
      `session cb-${here.sessionId} (the newest session of ${world.workspace};`,
    );
    const claude = await spawnHook({
      args: ['why'],
      cwd: elsewhere,
      env: {
        ...world.sim.env,
        CLAUDE_PROJECT_DIR: elsewhere,
        CODEBUDDY_PROJECT_DIR: elsewhere,
        CLAUDE_CODE_SESSION_ID: here.sessionId,
      },
    });
    expect(claude.stdout).toContain(`session cb-${here.sessionId} (this session;`);
  });

  it('says which process answered each recall: the resident helper, the hooks module, or (earlier records) nothing', async () => {
    const recall = { session: 'cb-answered', kind: 'recall' as const, items: [{ uri: 'viking://m' }], text: 'block' };
    recordInjection(world.dataDir, { ...recall, at: 1, detail: 'first', by: 'resident' });
    recordInjection(world.dataDir, { ...recall, at: 2, detail: 'second', by: 'module' });
    recordInjection(world.dataDir, { ...recall, at: 3, detail: 'third' });
    recordInjection(world.dataDir, { ...recall, kind: 'start', at: 4, detail: 'startup' });
    const run = await hook(['why', '--session', 'cb-answered']);
    expect(run.stdout.split('\n').filter((line) => line.includes('characters injected'))).toEqual([
      '    5 characters injected by the resident helper',
      '    5 characters injected by the hooks module',
      '    5 characters injected',
      '    5 characters injected',
    ]);
  });

  it('the record is private: 0600 files in a 0700 directory', () => {
    const dir = join(world.dataDir, 'sessions');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const records = readdirSync(dir).filter((name) => name.endsWith('.why.jsonl'));
    expect(records.length).toBeGreaterThan(0);
    for (const name of records) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });

  it('stays bounded however many injections a session sees', () => {
    const entry = {
      session: 'cb-bounded',
      at: 1,
      kind: 'recall' as const,
      detail: 'q',
      items: [{ uri: 'viking://x' }],
      text: 'y'.repeat(20_000),
    };
    for (let index = 0; index < 200; index++) recordInjection(world.dataDir, { ...entry, at: index });
    expect(statSync(whyFile(world.dataDir, 'cb-bounded')).size).toBeLessThanOrEqual(MAX_FILE_BYTES);
  });
});

describe('recall-preview', () => {
  it('shows what a query would recall, with URIs and scores, as this project and outside any session', async () => {
    world.server.clearRequests();
    const run = await hook(['recall-preview', ...RECALL_PROMPT.split(' ')]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/\d\.\d\d {2}viking:\/\/user\/default\/memories\/entities\/default\/osprey-deploy\.md/);
    expect(run.stdout).toContain(RECALL_MARKER);
    const search = world.server.requests({ path: '/api/v1/search/search' })[0];
    expect(search?.headers['x-openviking-actor-peer']).toBe('github.com-acme-why-demo');
    expect(search?.body).not.toHaveProperty('session_id');
  });

  it('without a query it says how to use it', async () => {
    const run = await hook(['recall-preview']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('recall-preview: it needs a query, --new-query-file or --query-id ID\nusage: ');
  });
});
