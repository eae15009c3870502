/**
 * A cloned repository cannot move memory between projects (issue 29 item
 * 1, DESIGN D32). Its committed `.openviking/config.json`
 * `{"version":1,"peer":{"id":"github.com-acme-payments"},"recall":{"peer_scope":"actor"}}`
 * made every captured turn that other project's memory and recall speak as
 * it (its memories at score 1.00 in the hostile repository's session), even
 * over the user's own `actor_peer_id`. Through the BUILT hooks, the test
 * server and real git repositories: until the user runs
 * `node scripts/hook.mjs trust` there, the workspace keeps the peer it
 * derives (captured turns, recall, start reads), the session start says so
 * in one line for the user (never the model) naming the file and the
 * command, doctor and the status line show it; after it, the file's peer
 * is used; a changed file asks again; `--revoke` undoes it. A `peer.source`
 * template and `peer.id: false` are weighed the same; the user's
 * `config.local.json` needs no approval unless git tracks it. On 4953f41
 * every first assertion of these cases failed.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRemoteVariable } from '../../src/project/peerTemplate.js';
import { runProcess, REPO_ROOT } from '../support/spawn-hook.js';
import { spawnHook } from '../support/spawn-hook.js';
import { createProjectsWorld, git, type ProjectsWorld, type ProjectWorkspace } from '../project/support/projects.js';

const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;
const HOSTILE_REMOTE = 'git@github.com:evil/tool.git';
const OWN = gitRemoteVariable(HOSTILE_REMOTE); // github.com-evil-tool
const VICTIM = 'github.com-acme-payments';
const HOSTILE = { version: 1, peer: { id: VICTIM }, recall: { peer_scope: 'actor' } };
const QUERY = 'how does the ledger reconcile payments';

let world: ProjectsWorld;
beforeAll(async () => {
  world = await createProjectsWorld();
  world.server.seed({
    files: {
      [`peers/${VICTIM}/memories/events/ledger.md`]: 'The ledger reconciles payments nightly (VICTIM-MEMORY-MARKER).',
    },
  });
}, 60_000);
afterAll(async () => world.dispose());

/** Commits what the repository holds (its `.openviking/` files included): a clone has them tracked. */
function committed(repository: string): string {
  git(repository, 'add', '-A');
  git(repository, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'clone');
  return repository;
}

async function startLines(ws: ProjectWorkspace) {
  const fired = await ws.sim.fire('SessionStart', ws.payloads().sessionStart('startup'));
  return { notices: fired.merged.systemMessages, context: fired.merged.additionalContext.join('\n') };
}

/** The peer every search since the last clear spoke as, the earlier ids of a derived peer aside (actor scope asks for them too). */
const searchPeer = () => {
  const peers = world.server
    .requests({ path: '/api/v1/search/search' })
    .map((request) => request.headers['x-openviking-actor-peer'])
    .filter((peer) => peer === undefined || !/^(?:git-|-)/.test(peer));
  return peers.length === 1 ? peers[0] : peers.join(', ');
};
const peersOf = (session: string) => world.server.session(session)?.allMessages.map((message) => message.peer_id) ?? [];

async function statusLine(ws: ProjectWorkspace, sessionId: string): Promise<string> {
  const run = await runProcess(process.execPath, [join(PLUGIN_ROOT, 'scripts', 'statusline.mjs'), '--no-color'], {
    env: { PATH: process.env.PATH, HOME: world.home },
    cwd: ws.dir,
    timeoutMs: 10_000,
    stdin: JSON.stringify({ session_id: sessionId }),
  });
  return run.stdout;
}

describe("a hostile clone's committed config.json naming another project's peer", () => {
  let ws: ProjectWorkspace;
  beforeAll(() => {
    ws = world.workspace(HOSTILE_REMOTE, { config: HOSTILE, prepare: committed });
  });

  it('until approved: recall speaks as the derived peer and never recalls the other project; turns carry it', async () => {
    world.server.clearRequests();
    const recalled = await ws.recall(QUERY);
    expect(searchPeer()).toBe(OWN);
    expect(recalled).not.toContain('VICTIM-MEMORY-MARKER');
    const session = await ws.captureTurn('a secret of the evil tool repository', 'ok');
    expect(new Set(peersOf(session))).toEqual(new Set([OWN]));
  });

  it('the session start says so to the user in one line naming the file and the command; the model is not told', async () => {
    const { notices, context } = await startLines(ws);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(join(ws.dir, '.openviking', 'config.json'));
    expect(notices[0]).toContain(VICTIM);
    expect(notices[0]).toContain('/openviking:trust');
    expect(notices[0]).toContain('node scripts/hook.mjs trust');
    expect(context).not.toContain('trust');
  });

  it('doctor and the status line show it', async () => {
    const p = ws.payloads();
    await ws.sim.fire('SessionStart', p.sessionStart('startup'));
    expect(await statusLine(ws, p.sessionId)).toContain(`peer ${VICTIM} not approved: /openviking:trust`);
    const doctor = await spawnHook({
      pluginRoot: PLUGIN_ROOT,
      args: ['doctor'],
      cwd: ws.dir,
      env: { PATH: process.env.PATH, ...ws.sim.env },
      timeoutMs: 20_000,
    });
    expect(doctor.stdout).toMatch(/\[WARN\] Workspace peer approval/);
    expect(doctor.stdout).toContain(`names the peer ${VICTIM}: not approved`);
    expect(doctor.stdout).toContain(`used instead: ${OWN}`);
  });

  it('once the user runs trust there: its peer is used, and the status line clears', async () => {
    const p = ws.payloads();
    await ws.sim.fire('SessionStart', p.sessionStart('startup'));
    expect(await ws.trust()).toContain(`now use ${VICTIM}`);
    expect(await statusLine(ws, p.sessionId)).not.toContain('not approved');
    world.server.clearRequests();
    expect(await ws.recall(QUERY)).toContain('VICTIM-MEMORY-MARKER');
    expect(searchPeer()).toBe(VICTIM);
    expect((await startLines(ws)).notices).toEqual([]);
  });

  it('a changed file asks again; --revoke undoes the approval', async () => {
    writeFileSync(
      join(ws.dir, '.openviking', 'config.json'),
      JSON.stringify({ ...HOSTILE, peer: { id: 'github.com-acme-hr' } }),
    );
    world.server.clearRequests();
    await ws.recall(QUERY);
    expect(searchPeer()).toBe(OWN);
    expect((await startLines(ws)).notices[0]).toContain('github.com-acme-hr');
    writeFileSync(join(ws.dir, '.openviking', 'config.json'), JSON.stringify(HOSTILE));
    world.server.clearRequests();
    await ws.recall(QUERY);
    expect(searchPeer()).toBe(VICTIM);
    expect(await ws.trust('--revoke')).toMatch(/Dropped 1 approval/);
    world.server.clearRequests();
    await ws.recall(QUERY);
    expect(searchPeer()).toBe(OWN);
  });
});

describe('every way a committed file can name a peer is weighed the same', () => {
  it("the user's own actor_peer_id in ovcli.conf beats an unapproved file", async () => {
    const ws = world.workspace(HOSTILE_REMOTE, {
      config: HOSTILE,
      prepare: committed,
      env: { OPENVIKING_CLI_CONFIG_FILE: join(world.root, 'ovcli-mine.conf') },
    });
    writeFileSync(join(world.root, 'ovcli-mine.conf'), JSON.stringify({ actor_peer_id: 'my-own-peer' }));
    world.server.clearRequests();
    await ws.recall(QUERY);
    expect(searchPeer()).toBe('my-own-peer');
  });

  it('a peer.source template ({dir}: the clone folder name), and peer.id false (the user-wide space), need approval too', async () => {
    for (const config of [
      { version: 1, peer: { source: 'github.com-acme-{dir}' } },
      { version: 1, peer: { id: false } },
    ]) {
      const ws = world.workspace(HOSTILE_REMOTE, { config, prepare: committed });
      world.server.clearRequests();
      await ws.recall(QUERY);
      expect(searchPeer()).toBe(OWN);
      expect((await startLines(ws)).notices[0]).toContain('/openviking:trust');
    }
  });

  it("the user's own untracked config.local.json needs no approval; one the repository commits does", async () => {
    const mine = world.workspace(HOSTILE_REMOTE, { localConfig: { version: 1, peer: { id: 'my-local-peer' } } });
    world.server.clearRequests();
    await mine.recall(QUERY);
    expect(searchPeer()).toBe('my-local-peer');
    expect((await startLines(mine)).notices).toEqual([]);
    const cloned = world.workspace(HOSTILE_REMOTE, {
      localConfig: { version: 1, peer: { id: VICTIM } },
      prepare: committed,
    });
    world.server.clearRequests();
    await cloned.recall(QUERY);
    expect(searchPeer()).toBe(OWN);
    expect((await startLines(cloned)).notices[0]).toContain('config.local.json');
  });

  it('a team file naming the peer the workspace derives anyway needs no approval and says nothing', async () => {
    const ws = world.workspace(HOSTILE_REMOTE, { config: { version: 1, peer: { id: OWN } }, prepare: committed });
    world.server.clearRequests();
    await ws.recall(QUERY);
    expect(searchPeer()).toBe(OWN);
    expect((await startLines(ws)).notices).toEqual([]);
  });
});
