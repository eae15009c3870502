/**
 * Projects through the host simulator and the test server (DESIGN D24):
 * each git project's captured messages carry its peer id, memories
 * extracted from one project are recalled in that project and not in the
 * other, every read speaks as the project (`X-OpenViking-Actor-Peer`), and
 * the workspace `.openviking/config.json` switches work, one test each.
 * Needs the built bundle (`npm run build`).
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRemoteVariable } from '../../src/project/peerTemplate.js';
import { join } from 'node:path';
import { until } from '../capture/support/world.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { detachedRuns, residentPids } from '../support/detached.js';
import { listeningFifos, residentsListening } from '../support/resident.js';
import { createProjectsWorld, type ProjectsWorld, type ProjectWorkspace } from './support/projects.js';

const ALPHA = 'git@github.com:acme/alpha.git';
const BETA = 'https://ci:ghp_TOKENVALUE0123456789abcdef@github.com/acme/beta';
const peerOf = (remote: string) => gitRemoteVariable(remote);
const QUERY = 'how does the kestrel service deploy';

let world: ProjectsWorld;
let alpha: ProjectWorkspace;
let beta: ProjectWorkspace;

beforeAll(async () => {
  world = await createProjectsWorld();
  alpha = world.workspace(ALPHA);
  beta = world.workspace(BETA);
  await alpha.captureTurn('Remember: the kestrel service deploys with terraform apply (ALPHA-MARKER).', 'Noted.');
  await beta.captureTurn('Remember: the kestrel service deploys with helm upgrade (BETA-MARKER).', 'Noted.');
}, 90_000);
afterAll(async () => world.dispose());

describe('two projects', () => {
  it("captured messages carry each project's peer id, without the remote's credentials", () => {
    const peers = world.server.sessions().flatMap((session) => session.allMessages.map((message) => message.peer_id));
    expect(new Set(peers)).toEqual(new Set([peerOf(ALPHA), peerOf(BETA)]));
    expect(JSON.stringify(world.server.requests())).not.toContain('TOKENVALUE');
  });

  it("each project recalls its own memory and never the other's", async () => {
    // 0.5.2's other_peer_penalty only ranks, and the quotas' spare slots take other peers' hits too (F38): the plugin drops them (D24)
    const alphaBlock = await alpha.recall(QUERY);
    expect(alphaBlock).toContain('ALPHA-MARKER');
    expect(alphaBlock).not.toContain('BETA-MARKER');
    const betaBlock = await beta.recall(QUERY);
    expect(betaBlock).toContain('BETA-MARKER');
    expect(betaBlock).not.toContain('ALPHA-MARKER');
  });

  it('recall and start reads speak as the project; the body asks for the penalty', async () => {
    world.server.clearRequests();
    await alpha.recall(QUERY);
    const search = world.server.requests({ path: '/api/v1/search/search' })[0];
    expect(search?.headers['x-openviking-actor-peer']).toBe(peerOf(ALPHA));
    expect(search?.body).toMatchObject({ peer_scope: 'all', other_peer_penalty: 0.1 });
    world.server.clearRequests();
    await beta.sim.fire('SessionStart', beta.payloads().sessionStart('startup'));
    const reads = world.server.requests().filter((request) => !request.path.startsWith('/api/v1/sessions'));
    expect(reads.length).toBeGreaterThan(0);
    for (const request of reads) expect(request.headers['x-openviking-actor-peer']).toBe(peerOf(BETA));
  });

  it("OPENVIKING_RECALL_PEER_SCOPE=actor asks for the project's memories only", async () => {
    const scoped = world.workspace(ALPHA, { env: { OPENVIKING_RECALL_PEER_SCOPE: 'actor' } });
    world.server.clearRequests();
    expect(await scoped.recall('what does the kestrel service use, helm?')).not.toContain('BETA-MARKER');
    expect(world.server.requests({ path: '/api/v1/search/search' })[0]?.body).toMatchObject({ peer_scope: 'actor' });
  });

  it('a folder outside git sends no peer; OPENVIKING_WORKSPACE_PEER=false neither', async () => {
    for (const workspace of [
      world.workspace(null),
      world.workspace(ALPHA, { env: { OPENVIKING_WORKSPACE_PEER: 'false' } }),
    ]) {
      world.server.clearRequests();
      await workspace.recall(QUERY);
      const search = world.server.requests({ path: '/api/v1/search/search' })[0];
      expect(search?.headers['x-openviking-actor-peer']).toBeUndefined();
      expect(search?.body).not.toHaveProperty('peer_scope');
    }
  });
});

describe('the resident helper', () => {
  it('one resident serves both workspaces, each with its own project (the peer is per request)', async () => {
    const residentAlpha = world.workspace(ALPHA, { resident: true });
    const residentBeta = world.workspace(BETA, { resident: true });
    await residentAlpha.recall('hi');
    await residentsListening(join(world.home, '.codebuddy', 'openviking'));
    for (let round = 0; round < 2; round++) {
      expect(await residentAlpha.recall(QUERY)).toContain('ALPHA-MARKER');
      expect(await residentBeta.recall(QUERY)).toContain('BETA-MARKER');
    }
    expect(listeningFifos(join(world.home, '.codebuddy', 'openviking'))).toHaveLength(1);
    expect(residentPids(world.home)).toHaveLength(1);
  });
});

describe('a turn left behind', () => {
  it("is captured by the next session start (commit-stale) under the project's peer too", async () => {
    const workspace = world.workspace(ALPHA, {
      env: { OPENVIKING_STALE_COMMIT_IDLE_MS: '0', OPENVIKING_SERVER_COMMIT_POLICY: 'false' },
    });
    const session = await workspace.leaveTurnBehind(
      'first turn of the left-behind session',
      'second turn nobody captured at Stop',
    );
    await workspace.sim.fire('SessionStart', workspace.payloads().sessionStart('startup'));
    await until(() => (world.server.session(session)?.archives.length ?? 0) > 0, 20_000, 'the commit-stale commit');
    const messages = world.server.session(session)?.allMessages ?? [];
    expect(messages.map((message) => message.parts.map((part) => String(part.text ?? '')).join(''))).toContain(
      'second turn nobody captured at Stop',
    );
    expect(new Set(messages.map((message) => message.peer_id))).toEqual(new Set([peerOf(ALPHA)]));
  });
});

describe('workspace .openviking/config.json', () => {
  it('autoCapture false written after a session began: a later start does not capture its leftover turn', async () => {
    const workspace = world.workspace(ALPHA, {
      env: { OPENVIKING_STALE_COMMIT_IDLE_MS: '0', OPENVIKING_SERVER_COMMIT_POLICY: 'false' },
    });
    const session = await workspace.leaveTurnBehind(
      'a turn before the switch',
      'a turn after the switch that must stay local',
    );
    mkdirSync(join(workspace.dir, '.openviking'), { recursive: true });
    writeFileSync(join(workspace.dir, '.openviking', 'config.json'), JSON.stringify({ autoCapture: false }));
    await workspace.sim.fire('SessionStart', workspace.payloads().sessionStart('startup'));
    // Nothing signals a commit that must not happen: give it the time the 'left behind' case needs several times over.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await until(() => detachedRuns(world.home).length === 0, 20_000, 'background work of the start');
    const texts = (world.server.session(session)?.allMessages ?? []).map((message) =>
      message.parts.map((part) => String(part.text ?? '')).join(''),
    );
    expect(texts).toContain('a turn before the switch');
    expect(texts).not.toContain('a turn after the switch that must stay local');
  });

  it("peerId names the project's peer (also in captured messages), once approved (trust, D32)", async () => {
    const named = world.workspace(ALPHA, { config: { peerId: 'billing-team' } });
    await named.trust();
    world.server.clearRequests();
    await named.recall(QUERY);
    expect(world.server.requests({ path: '/api/v1/search/search' })[0]?.headers['x-openviking-actor-peer']).toBe(
      'billing-team',
    );
    const session = await named.captureTurn('a turn of the billing project', 'ok');
    expect(world.server.session(session)?.allMessages.map((message) => message.peer_id)).toEqual([
      'billing-team',
      'billing-team',
    ]);
  });

  it('autoRecall false: no recall request', async () => {
    const quiet = world.workspace(ALPHA, { config: { autoRecall: false } });
    world.server.clearRequests();
    expect(await quiet.recall(QUERY)).toBe('');
    expect(world.server.requests({ path: /\/search\// })).toHaveLength(0);
  });

  it('autoCapture false: nothing captured', async () => {
    const unrecorded = world.workspace(ALPHA, { config: { autoCapture: false } });
    const session = await unrecorded.captureTurn('a secret-ish turn that must stay local', 'ok');
    expect(world.server.session(session)).toBeUndefined();
  });

  it('enabled false: no recall, no start block, no capture', async () => {
    const off = world.workspace(ALPHA, { config: { enabled: false } });
    world.server.clearRequests();
    expect(await off.recall(QUERY)).toBe('');
    const start = await off.sim.fire('SessionStart', off.payloads().sessionStart('startup'));
    expect(start.outputs[0]?.additionalContext ?? '').toBe('');
    const session = await off.captureTurn('nothing of this may leave', 'ok');
    expect(world.server.session(session)).toBeUndefined();
    expect(world.server.requests()).toHaveLength(0);
  });
});

describe('an old server (no context face, no recall route)', () => {
  it("the find tier also searches the project's own memories, never another project's", async () => {
    const legacy = await createProjectsWorld();
    try {
      const one = legacy.workspace(ALPHA);
      const two = legacy.workspace(BETA);
      await one.captureTurn('Remember: the kestrel service deploys with terraform apply (ALPHA-MARKER).', 'Noted.');
      await two.captureTurn('Remember: the kestrel service deploys with helm upgrade (BETA-MARKER).', 'Noted.');
      legacy.server.faults.legacyContextFace = true;
      legacy.server.faults.noRecallRoute = true;
      const inOne = await one.recall(QUERY);
      expect(inOne).toContain('ALPHA-MARKER');
      expect(inOne).not.toContain('BETA-MARKER');
      expect(
        legacy.server
          .requests({ path: '/api/v1/search/find' })
          .map((request) => (request.body as { target_uri?: string }).target_uri),
      ).toContain(`viking://user/default/peers/${peerOf(ALPHA)}/memories`);
    } finally {
      await legacy.dispose();
    }
  }, 60_000);
});
