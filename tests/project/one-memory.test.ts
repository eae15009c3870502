/**
 * One project memory across OpenViking's clients (issue 22, its "must
 * show"), through the BUILT hooks as CodeBuddy runs them (host simulator)
 * against the test server: the peer each folder speaks as
 * (`X-OpenViking-Actor-Peer` of the recall and start reads, `peer_id` of
 * captured messages) is the one OpenViking's own plugins derive, the
 * workspace files in OpenViking's schema name it and switch recall off,
 * `OPENVIKING_PEER_SOURCE` picks the rule, and under `peer_scope: actor`
 * memories written under this plugin's earlier `git-…` id (and OpenViking's
 * plugins' first, path-based one) are still recalled.
 *
 * On 6bb15b5 every header here was `git-github.com-acme-app-094e927e` (or
 * `git-local-…`), the `upstream`-only repository took that remote, the
 * schema keys did nothing, and nothing under an earlier id was recalled.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectsWorld, git, type ProjectsWorld, type ProjectWorkspace } from './support/projects.js';

const PEER = 'github.com-acme-app';
const EARLIER = 'git-github.com-acme-app-094e927e';
const QUERY = 'how does the kestrel service deploy';
const legacy = (path: string) => path.replace(/[^A-Za-z0-9]/g, '-');

let world: ProjectsWorld;
beforeAll(async () => void (world = await createProjectsWorld()), 30_000);
afterAll(async () => world.dispose());

/** The actor headers of the recall (and, with `start`, the session-start reads) of one prompt in `workspace`. */
async function actorPeers(
  workspace: ProjectWorkspace,
  options: { start?: boolean } = {},
): Promise<Array<string | undefined>> {
  world.server.clearRequests();
  if (options.start === true) await workspace.sim.fire('SessionStart', workspace.payloads().sessionStart('startup'));
  await workspace.recall(QUERY);
  return world.server
    .requests()
    .filter((request) => !request.path.startsWith('/api/v1/sessions'))
    .map((request) => request.headers['x-openviking-actor-peer']);
}

function commitOnce(dir: string): void {
  writeFileSync(join(dir, 'README.md'), 'x');
  git(dir, 'add', '.');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'x');
}

describe('the peer each folder speaks as', () => {
  it('origin in ssh form, in https form with credentials, a linked worktree and a subdirectory: github.com-acme-app, reads and captures', async () => {
    const folders = [
      world.workspace('git@github.com:Acme/App.git'),
      world.workspace('https://ci:ghp_TOKENVALUE0123456789@github.com/acme/app.git'),
      world.workspace('git@github.com:acme/app.git', {
        prepare: (repository) => {
          commitOnce(repository);
          const worktree = `${repository}-feature`;
          git(repository, 'worktree', 'add', '-q', worktree);
          return worktree;
        },
      }),
      world.workspace('git@github.com:acme/app.git', {
        prepare: (repository) => {
          mkdirSync(join(repository, 'src', 'deep'), { recursive: true });
          return join(repository, 'src', 'deep');
        },
      }),
    ];
    for (const folder of folders) {
      const peers = await actorPeers(folder, { start: true });
      expect(peers.length, folder.dir).toBeGreaterThan(1);
      expect(new Set(peers), folder.dir).toEqual(new Set([PEER]));
    }
    const session = await folders[1]?.captureTurn('a turn of the app project', 'ok');
    expect(world.server.session(session ?? '')?.allMessages.map((message) => message.peer_id)).toEqual([PEER, PEER]);
    expect(JSON.stringify(world.server.requests())).not.toContain('TOKENVALUE');
  }, 60_000);

  it("a repository with only an `upstream` remote, and one with no remote: the root's path in the legacy form", async () => {
    let root = '';
    const upstreamOnly = world.workspace(undefined, {
      prepare: (repository) => {
        git(repository, 'remote', 'add', 'upstream', 'git@github.com:acme/app.git');
        root = repository;
        mkdirSync(join(repository, 'sub'));
        return join(repository, 'sub');
      },
    });
    expect(new Set(await actorPeers(upstreamOnly))).toEqual(new Set([legacy(root)]));
    const noRemote = world.workspace(undefined);
    expect(new Set(await actorPeers(noRemote))).toEqual(new Set([legacy(noRemote.dir)]));
  });

  it('a plain folder sends none', async () => {
    expect(new Set(await actorPeers(world.workspace(null), { start: true }))).toEqual(new Set([undefined]));
  });

  it("OPENVIKING_PEER_SOURCE=none sends none; =cwd the working folder's legacy form", async () => {
    expect(
      new Set(
        await actorPeers(world.workspace('git@github.com:acme/app.git', { env: { OPENVIKING_PEER_SOURCE: 'none' } })),
      ),
    ).toEqual(new Set([undefined]));
    const sub = world.workspace('git@github.com:acme/app.git', {
      env: { OPENVIKING_PEER_SOURCE: 'cwd' },
      prepare: (repository) => {
        mkdirSync(join(repository, 'pkg'));
        return join(repository, 'pkg');
      },
    });
    expect(new Set(await actorPeers(sub))).toEqual(new Set([legacy(sub.dir)]));
  });
});

describe("workspace files in OpenViking's schema", () => {
  it('peer.id in config.json wins over git once approved (trust, D32); config.local.json over config.json', async () => {
    const team = world.workspace('git@github.com:acme/app.git', { config: { version: 1, peer: { id: 'team-app' } } });
    await team.trust();
    expect(new Set(await actorPeers(team))).toEqual(new Set(['team-app']));
    const mine = world.workspace('git@github.com:acme/app.git', {
      config: { version: 1, peer: { id: 'team-app' } },
      localConfig: { version: 1, peer: { id: 'my-app' } },
    });
    expect(new Set(await actorPeers(mine))).toEqual(new Set(['my-app']));
  });

  it('recall.enabled false makes no search', async () => {
    const quiet = world.workspace('git@github.com:acme/app.git', {
      config: { version: 1, recall: { enabled: false } },
    });
    world.server.clearRequests();
    expect(await quiet.recall(QUERY)).toBe('');
    expect(world.server.requests({ path: /\/search\// })).toHaveLength(0);
  });
});

describe('earlier ids under peer_scope actor', () => {
  it("a memory written under this plugin's earlier git-… id, or OpenViking's plugins' path-based one, is recalled beside the project's own", async () => {
    const folder = world.workspace('git@github.com:Acme/App.git', { env: { OPENVIKING_RECALL_PEER_SCOPE: 'actor' } });
    const files: Record<string, string> = {
      [`peers/${PEER}/memories/events/kestrel-new.md`]:
        'The kestrel service deploys with terraform apply (NEW-ID-MARKER).',
      [`peers/${EARLIER}/memories/events/kestrel-old.md`]:
        'The kestrel service deploys with helm upgrade (EARLIER-ID-MARKER).',
      [`peers/${legacy(folder.dir)}/memories/events/kestrel-path.md`]:
        'The kestrel service deploys from the release branch (PATH-ID-MARKER).',
      ['peers/github.com-acme-other/memories/events/kestrel-other.md']:
        'The kestrel service of another project (OTHER-PROJECT-MARKER).',
    };
    world.server.seed({ files });
    world.server.clearRequests();
    const recalled = await folder.recall(QUERY);
    expect(recalled).toContain('NEW-ID-MARKER');
    expect(recalled).toContain('EARLIER-ID-MARKER');
    expect(recalled).toContain('PATH-ID-MARKER');
    expect(recalled).not.toContain('OTHER-PROJECT-MARKER');
    expect(recalled.match(/<openviking-context /g)).toHaveLength(1);
    const searches = world.server.requests({ path: '/api/v1/search/search' });
    expect(searches.map((request) => request.headers['x-openviking-actor-peer']).sort()).toEqual(
      [PEER, EARLIER, legacy(folder.dir)].sort(),
    );
    for (const search of searches) expect(search.body).toMatchObject({ peer_scope: 'actor' });
  });

  it("under peer_scope all (the default) only the project's id is asked: the server's sweep reaches the rest, and keeps the earlier ids' memories but not another project's", async () => {
    const folder = world.workspace('git@github.com:Acme/App.git');
    world.server.seed({
      files: {
        [`peers/${legacy(folder.dir)}/memories/events/kestrel-path.md`]:
          'The kestrel service deploys from the release branch (THIS-PATH-MARKER).',
      },
    });
    world.server.clearRequests();
    const recalled = await folder.recall(QUERY);
    expect(
      world.server
        .requests({ path: '/api/v1/search/search' })
        .map((request) => request.headers['x-openviking-actor-peer']),
    ).toEqual([PEER]);
    expect(recalled).toContain('EARLIER-ID-MARKER');
    expect(recalled).toContain('THIS-PATH-MARKER');
    expect(recalled).not.toContain('OTHER-PROJECT-MARKER');
  });
});
