/**
 * The project a module recall speaks for is the one the hook's recall speaks
 * for (D24, D30): the same peer header and the same requests for the same
 * workspace, read through the module's `$.fs` snapshot instead of node's
 * files. A repository with an `origin` under actor scope (the project's own
 * id and its earlier ids, one request each), and a workspace file naming
 * the peer, which counts once the user approved it (D32: the approvals read
 * through the same snapshot, looked at again before each prompt). Each
 * compared with the built hook command on the same files.
 * And a FIFO committed as a repository's `.git/config` neither hangs the
 * host nor counts.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../support/ov-server/index.js';
import { RECALL_PROMPT } from '../support/session-world.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';
import { beneath, createModWorld, promptEvent, type ModWorld } from './support/world.js';

const SEARCH = { method: 'POST', path: '/api/v1/search/search' };

let world: ModWorld;
let repo: string;

beforeAll(async () => {
  world = await createModWorld({ env: { OPENVIKING_RECALL_PEER_SCOPE: 'actor' } });
  repo = mkdtempSync(join(tmpdir(), 'ov-mod-repo-'));
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(
    join(repo, '.git', 'config'),
    '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:Acme/App.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
  );
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
});
afterAll(async () => {
  await world.dispose();
  rmSync(repo, { recursive: true, force: true });
});

/** Each request as the server saw who asked and what: the actor peer and the body without the session id. */
function asked(requests: readonly LoggedRequest[]): Array<{ peer: string | undefined; body: unknown }> {
  return requests
    .map((request) => ({
      peer: request.headers['x-openviking-actor-peer'],
      body: { ...(request.body as object), session_id: '…' },
    }))
    .sort((a, b) => String(a.peer).localeCompare(String(b.peer)));
}

async function moduleAsks(cwd: string, sessionId: string): Promise<ReturnType<typeof asked>> {
  world.server.clearRequests();
  const session = await world.session({ sessionId });
  await session.fire(
    'classic.UserPromptSubmit',
    { ...promptEvent(world, RECALL_PROMPT, sessionId), cwd },
    beneath(session).run,
  );
  return asked(world.server.requests(SEARCH));
}

async function hookAsks(cwd: string, sessionId: string): Promise<ReturnType<typeof asked>> {
  world.server.clearRequests();
  await spawnHook({
    stdin: JSON.stringify({ ...promptEvent(world, RECALL_PROMPT, sessionId), cwd }),
    cwd,
    env: {
      PATH: process.env.PATH,
      ...world.env,
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
      CLAUDE_PROJECT_DIR: cwd,
      CLAUDECODE: '1',
      OPENVIKING_RESIDENT: 'off',
    },
  });
  return asked(world.server.requests(SEARCH));
}

describe('the project of a module recall', () => {
  it('a repository with origin, from a folder deep inside it, under actor scope: its id and both earlier ids, as the hook asks', async () => {
    const cwd = join(repo, 'src', 'deep');
    const fromModule = await moduleAsks(cwd, 'session-repo-module');
    expect(fromModule.map((request) => request.peer)).toContain('github.com-acme-app');
    expect(fromModule).toHaveLength(3);
    expect(fromModule).toEqual(await hookAsks(cwd, 'session-repo-hook'));
  });

  it('a workspace file that names the peer: the derived one until the user approves it (trust, D32), then its own; within one module session too', async () => {
    mkdirSync(join(repo, '.openviking'), { recursive: true });
    writeFileSync(join(repo, '.openviking', 'config.json'), JSON.stringify({ version: 1, peer: { id: 'team-app' } }));
    try {
      const before = await moduleAsks(repo, 'session-file-module');
      expect(before.map((request) => request.peer)).toContain('github.com-acme-app');
      expect(before.map((request) => request.peer)).not.toContain('team-app');
      expect(before).toEqual(await hookAsks(repo, 'session-file-hook'));
      // One module session across the approval: the approvals are a switch file, looked at again before each prompt.
      const session = await world.session({ sessionId: 'session-across' });
      const prompt = async () => {
        world.server.clearRequests();
        await session.fire(
          'classic.UserPromptSubmit',
          { ...promptEvent(world, RECALL_PROMPT, 'session-across'), cwd: repo },
          beneath(session).run,
        );
        return asked(world.server.requests(SEARCH)).map((request) => request.peer);
      };
      expect(await prompt()).toContain('github.com-acme-app');
      const trusted = await spawnHook({ args: ['trust'], cwd: repo, env: { PATH: process.env.PATH, ...world.env } });
      expect(trusted.stdout).toContain('now use team-app');
      expect(await prompt()).toEqual(['team-app']);
      const after = await moduleAsks(repo, 'session-file-module-2');
      expect(after.map((request) => request.peer)).toEqual(['team-app']);
      expect(after).toEqual(await hookAsks(repo, 'session-file-hook-2'));
    } finally {
      rmSync(join(repo, '.openviking'), { recursive: true, force: true });
    }
  });
});

describe('a hostile repository (D27)', () => {
  it("a FIFO committed as .git/config: the prompt is answered, the FIFO is not read, the peer falls back to the repository's path", async () => {
    const hostile = mkdtempSync(join(tmpdir(), 'ov-mod-fifo-'));
    try {
      mkdirSync(join(hostile, '.git'));
      execFileSync('mkfifo', [join(hostile, '.git', 'config')]);
      const session = await world.session();
      world.server.clearRequests();
      await session.fire(
        'classic.UserPromptSubmit',
        { ...promptEvent(world, RECALL_PROMPT), cwd: hostile },
        beneath(session).run,
      );
      const [search] = world.server.requests({ path: '/api/v1/search/search' });
      expect(search?.headers['x-openviking-actor-peer']).toBe(hostile.replace(/[^a-zA-Z0-9_.@-]/g, '-'));
      expect(
        session.calls.filter((call) => call.op === 'fs.read' && String(call.args[0]).endsWith('.git/config')),
      ).toEqual([]);
    } finally {
      rmSync(hostile, { recursive: true, force: true });
    }
  });
});
