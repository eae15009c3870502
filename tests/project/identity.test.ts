/**
 * Project identity (DESIGN D24) on real repositories made with the real
 * `git` CLI, derived as OpenViking's own plugins derive it: `origin` in any
 * spelling gives `host-path` without credentials; worktrees and
 * subdirectories share it, a submodule has its own; without a usable
 * `origin` the repository's path in the legacy form; `$HOME` and `/` are
 * never workspaces, a marked folder is one; the peer source's presets and
 * templates; explicit configuration wins in its order; the earlier ids of a
 * project; the per-workspace cache notices a changed remote.
 *
 * On 6bb15b5 (before issue 22) every id here was `git-<…>-<8 hex>`, an
 * `upstream`-only repository took that remote, and a repository at `$HOME`
 * named every folder below it.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { clearProjectCache, resolveProject } from '../../src/project/identity.js';
import { canonicalRemote, isValidPeerId, peerIdForRemote } from '../../src/project/remote.js';
import { resolveApproved } from './support/approved.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-project-')));
const home = join(root, 'home');
mkdirSync(home);
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => clearProjectCache());

let counter = 0;
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: root,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
      GIT_ALLOW_PROTOCOL: 'file',
    },
  });
}

function repo(remote?: string, parent = root): string {
  const dir = join(parent, `repo-${++counter}`);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  if (remote !== undefined) git(dir, 'remote', 'add', 'origin', remote);
  return dir;
}

function commit(dir: string): void {
  writeFileSync(join(dir, `f${++counter}.txt`), 'x');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'x');
}

type Input = Parameters<typeof resolveProject>[0];
/** The project of `workspace`, its workspace files' peer approved as the user would (`trust`, D32). */
function peerOf(workspace: string, overrides: Partial<Input> = {}) {
  return resolveApproved({
    workspace,
    homeDir: home,
    credentials: { sources: {} },
    settings: { workspacePeer: true, peerSource: [] },
    earlierIds: true,
    now: Date.now(),
    ...overrides,
  });
}
const legacy = (path: string) => path.replace(/[^A-Za-z0-9]/g, '-');

describe('origin, in every spelling', () => {
  const spellings = [
    'git@github.com:Acme/Billing-API.git',
    // A host in capitals in git's scp form, which no URL parser lower-cases for us.
    'git@GitHub.com:acme/billing-api.git',
    'ssh://git@github.com/acme/billing-api.git',
    'ssh://git@github.com:22/acme/billing-api',
    'https://github.com/acme/billing-api',
    'https://alice:ghp_SECRETTOKEN1234567890@github.com/acme/billing-api.git',
    'https://oauth2:glpat-SECRET@GitHub.com/acme/billing-api.git/',
    'git://github.com/acme/billing-api.git',
    'https://github.com/acme/billing-api.git?access_token=SECRET#frag',
  ];

  it("gives one id, `host-path` as OpenViking's plugins name it, with no credential in it", () => {
    const projects = spellings.map((url) => peerOf(repo(url)));
    expect(new Set(projects.map((project) => project.peerId))).toEqual(new Set(['github.com-acme-billing-api']));
    for (const project of projects) {
      expect(project.peerSource).toBe('{git_remote} of origin github.com/acme/billing-api (peer source: default git)');
      expect(JSON.stringify(project)).not.toMatch(/SECRET|alice|oauth2|ghp_|glpat/i);
    }
  });

  it('lower-cases the host of an scp-form remote too: git@GitHub.com:acme/app.git is github.com-acme-app', () => {
    expect(peerOf(repo('git@GitHub.com:acme/app.git')).peerId).toBe('github.com-acme-app');
  });

  it("different repositories and hosts differ (but `/` and `-` read alike, as in OpenViking's own ids)", () => {
    const ids = [
      'git@github.com:acme/billing-api.git',
      'git@github.com:acme/billing-web.git',
      'git@gitlab.com:acme/billing-api.git',
    ].map((url) => peerOf(repo(url)).peerId);
    expect(new Set(ids).size).toBe(3);
    expect(peerOf(repo('git@github.com:acme-billing/api.git')).peerId).toBe(ids[0]);
  });

  it("hostile remote text still yields a server-valid id, or the repository's path", () => {
    for (const url of [
      'https://h/ä ö/../..@@x.git',
      'git@host:/',
      '::::',
      `https://h/${'x/'.repeat(200)}`,
      '/srv/git/Some Repo.git',
      'file:///srv/git/r.git',
      'https://u:1234/pa@ss@h/o/r',
    ]) {
      const project = peerOf(repo(url));
      expect(isValidPeerId(project.peerId ?? ''), url).toBe(true);
      expect(project.peerId).not.toMatch(/pa-?ss|1234/);
    }
  });
});

describe('repositories', () => {
  it("a linked worktree and a subdirectory share the repository's peer; a separate clone with the same origin too", () => {
    const main = repo('git@github.com:acme/shared.git');
    commit(main);
    const worktree = join(root, `wt-${++counter}`);
    git(main, 'worktree', 'add', '-q', worktree);
    mkdirSync(join(main, 'src', 'deep'), { recursive: true });
    const clone = join(root, `clone-${++counter}`);
    git(root, 'clone', '-q', main, clone);
    git(clone, 'remote', 'set-url', 'origin', 'https://github.com/acme/shared');
    expect(new Set([main, worktree, join(main, 'src', 'deep'), clone].map((dir) => peerOf(dir).peerId))).toEqual(
      new Set(['github.com-acme-shared']),
    );
  });

  it("only origin counts: an `upstream`-only repository and one without a remote take their root's path in the legacy form", () => {
    const both = repo();
    git(both, 'remote', 'add', 'upstream', 'git@github.com:up/stream.git');
    git(both, 'remote', 'add', 'origin', 'git@github.com:me/fork.git');
    expect(peerOf(both).peerId).toBe('github.com-me-fork');
    const onlyUpstream = repo();
    git(onlyUpstream, 'remote', 'add', 'upstream', 'git@github.com:up/stream.git');
    mkdirSync(join(onlyUpstream, 'sub'));
    expect(peerOf(join(onlyUpstream, 'sub'))).toMatchObject({
      peerId: legacy(onlyUpstream),
      peerSource: expect.stringMatching(/^\{git_root\} of the repository at /),
    });
    const none = repo();
    expect(peerOf(none).peerId).toBe(legacy(none));
  });

  it("a linked worktree without a remote shares its main repository's path", () => {
    const main = repo();
    commit(main);
    const worktree = join(root, `wt-${++counter}`);
    git(main, 'worktree', 'add', '-q', worktree);
    expect(peerOf(worktree).peerId).toBe(legacy(main));
  });

  it('a submodule is its own repository with its own origin', () => {
    const vendor = repo('git@github.com:other/vendor.git');
    commit(vendor);
    const parent = repo('git@github.com:acme/parent.git');
    git(parent, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', vendor, 'vendor');
    git(join(parent, 'vendor'), 'remote', 'set-url', 'origin', 'git@github.com:other/vendor.git');
    expect(peerOf(join(parent, 'vendor')).peerId).toBe('github.com-other-vendor');
    expect(peerOf(parent).peerId).toBe('github.com-acme-parent');
  });

  it('a folder outside git has no peer, and neither do $HOME and / themselves', () => {
    const plain = join(root, `plain-${++counter}`);
    mkdirSync(plain);
    expect(peerOf(plain)).toMatchObject({ peerSource: 'none (not in a git repository)', earlierPeerIds: [] });
    expect(peerOf(plain).peerId).toBeUndefined();
    expect(peerOf('/').peerId).toBeUndefined();
    expect(peerOf(home).peerId).toBeUndefined();
  });

  it('a repository at $HOME (dotfiles) names nothing below it', () => {
    const dotHome = join(root, `home-${++counter}`);
    mkdirSync(join(dotHome, 'notes'), { recursive: true });
    git(dotHome, 'init', '-q');
    git(dotHome, 'remote', 'add', 'origin', 'git@github.com:someone/dotfiles.git');
    expect(peerOf(join(dotHome, 'notes'), { homeDir: dotHome }).peerId).toBeUndefined();
    expect(peerOf(dotHome, { homeDir: dotHome }).peerId).toBeUndefined();
    const inside = repo('git@github.com:acme/in-home.git', dotHome);
    expect(peerOf(inside, { homeDir: dotHome }).peerId).toBe('github.com-acme-in-home');
  });

  it('a folder with .openviking/config.json or config.local.json is a workspace of its own: {dir} names it, the repository around it still names the peer', () => {
    const outer = repo('git@github.com:acme/mono.git');
    const pkg = join(outer, 'packages', 'api');
    mkdirSync(join(pkg, '.openviking'), { recursive: true });
    mkdirSync(join(pkg, 'src'));
    writeFileSync(join(pkg, '.openviking', 'config.local.json'), '{"version": 1}');
    expect(peerOf(join(pkg, 'src'))).toMatchObject({ peerId: 'github.com-acme-mono', root: pkg });
    expect(peerOf(join(pkg, 'src'), { settings: { workspacePeer: true, peerSource: ['team-{dir}'] } }).peerId).toBe(
      'team-api',
    );
    const plain = join(root, `marked-${++counter}`);
    mkdirSync(join(plain, '.openviking'), { recursive: true });
    writeFileSync(
      join(plain, '.openviking', 'config.json'),
      JSON.stringify({ version: 1, peer: { id: 'my-project' } }),
    );
    mkdirSync(join(plain, 'deep', 'er'), { recursive: true });
    expect(peerOf(join(plain, 'deep', 'er')).peerId).toBe('my-project');
  });

  it('the cache notices a changed remote', () => {
    const dir = repo('git@github.com:acme/before.git');
    expect(peerOf(dir).peerId).toBe('github.com-acme-before');
    git(dir, 'remote', 'set-url', 'origin', 'git@github.com:acme/after-a-rename.git');
    expect(peerOf(dir).peerId).toBe('github.com-acme-after-a-rename');
  });
});

describe('peer source', () => {
  it('presets cwd and none, templates with a fallback, and a typo warned and read as git', () => {
    const dir = repo('ssh://git@gitlab.corp:2222/group/repo.git');
    mkdirSync(join(dir, 'sub'));
    const sub = join(dir, 'sub');
    const withSource = (peerSource: string[]) => peerOf(sub, { settings: { workspacePeer: true, peerSource } });
    expect(withSource([]).peerId).toBe('gitlab.corp-group-repo');
    expect(withSource(['cwd']).peerId).toBe(legacy(sub));
    expect(withSource(['none'])).toMatchObject({
      peerSource: 'none (peer source "none" from OPENVIKING_PEER_SOURCE)',
      earlierPeerIds: [],
    });
    expect(withSource(['{git_remote}-{git_port}', '{git_remote}']).peerId).toBe('gitlab.corp-group-repo-2222');
    expect(withSource(['x-{missing}', 'team/{dir}', 'team-{dir}']).peerId).toBe(`team-repo-${counter}`);
    const typo = withSource(['gti']);
    expect(typo.peerId).toBe('gitlab.corp-group-repo');
    expect(typo.warnings.join('\n')).toMatch(/"gti" is neither a preset/);
  });

  it("OPENVIKING_PEER_SOURCE beats the workspace file's peer.source, which beats ovcli.conf's", () => {
    const dir = repo('git@github.com:acme/sourced.git');
    mkdirSync(join(dir, '.openviking'));
    writeFileSync(join(dir, '.openviking', 'config.json'), JSON.stringify({ version: 1, peer: { source: 'cwd' } }));
    expect(
      peerOf(dir, {
        settings: { workspacePeer: true, peerSource: ['none'] },
        peerSourceOrigin: 'env:OPENVIKING_PEER_SOURCE',
      }).peerId,
    ).toBeUndefined();
    expect(
      peerOf(dir, {
        settings: { workspacePeer: true, peerSource: ['none'] },
        peerSourceOrigin: 'file:~/.openviking/ovcli.conf#plugin.codebuddy.peerSource',
      }).peerId,
    ).toBe(legacy(dir));
    expect(peerOf(dir).peerId).toBe(legacy(dir));
  });
});

describe('earlier ids', () => {
  it("a derived peer names this plugin's earlier git-… id and the working folder's legacy form, when they differ", () => {
    const dir = repo('git@github.com:Acme/App.git');
    mkdirSync(join(dir, 'src'));
    expect(peerOf(join(dir, 'src')).earlierPeerIds).toEqual([
      peerIdForRemote(canonicalRemote('git@github.com:Acme/App.git') as string),
      legacy(join(dir, 'src')),
    ]);
    expect(peerIdForRemote(canonicalRemote('git@github.com:Acme/App.git') as string)).toBe(
      'git-github.com-acme-app-094e927e',
    );
    expect(peerIdForRemote(canonicalRemote('git@GitHub.com:acme/app.git') as string)).toBe(
      'git-github.com-acme-app-094e927e',
    );
    const local = repo();
    expect(peerOf(local).earlierPeerIds).toEqual([expect.stringMatching(/^git-local-repo-\d+-[0-9a-f]{8}$/)]);
    const onlyUpstream = repo();
    git(onlyUpstream, 'remote', 'add', 'upstream', 'git@github.com:up/stream.git');
    expect(peerOf(onlyUpstream).earlierPeerIds).toEqual([peerIdForRemote('github.com/up/stream')]);
  });

  it('a named peer has none', () => {
    const dir = repo('git@github.com:acme/named.git');
    expect(
      peerOf(dir, { credentials: { peerId: 'p', sources: { peerId: 'env:OPENVIKING_PEER_ID' } } }).earlierPeerIds,
    ).toEqual([]);
  });
});

describe('explicit configuration and the knob', () => {
  const dir = () => repo('git@github.com:acme/configured.git');
  const fromFile = { peerId: 'cli-peer', sources: { peerId: 'file:~/.openviking/ovcli.conf' } };
  const fromEnv = { peerId: 'env-peer', sources: { peerId: 'env:OPENVIKING_PEER_ID' } };

  it('OPENVIKING_PEER_ID beats the workspace files (config.local.json over config.json), which beat ovcli.conf, which beats git', () => {
    const ws = dir();
    expect(peerOf(ws, { credentials: fromFile }).peerId).toBe('cli-peer');
    mkdirSync(join(ws, '.openviking'));
    const shared = join(ws, '.openviking', 'config.json');
    writeFileSync(shared, JSON.stringify({ version: 1, peer: { id: 'team-peer' } }));
    expect(peerOf(ws, { credentials: fromFile })).toMatchObject({
      peerId: 'team-peer',
      peerSource: `peer.id: "team-peer" in ${shared}`,
    });
    const local = join(ws, '.openviking', 'config.local.json');
    writeFileSync(local, JSON.stringify({ peerId: 'my-peer' }));
    expect(peerOf(ws, { credentials: fromFile })).toMatchObject({
      peerId: 'my-peer',
      peerSource: `peerId: "my-peer" in ${local}`,
    });
    expect(peerOf(ws, { credentials: fromEnv }).peerId).toBe('env-peer');
  });

  it('OPENVIKING_WORKSPACE_PEER=false turns derivation off, not a configured peer', () => {
    const ws = dir();
    expect(peerOf(ws, { settings: { workspacePeer: false, peerSource: [] } }).peerId).toBeUndefined();
    expect(peerOf(ws, { settings: { workspacePeer: false, peerSource: [] }, credentials: fromFile }).peerId).toBe(
      'cli-peer',
    );
  });

  it('a workspace peerId false means no peer; an invalid one is ignored with a warning', () => {
    const ws = dir();
    mkdirSync(join(ws, '.openviking'));
    writeFileSync(join(ws, '.openviking', 'config.json'), JSON.stringify({ peerId: false }));
    expect(peerOf(ws).peerId).toBeUndefined();
    writeFileSync(join(ws, '.openviking', 'config.json'), JSON.stringify({ peerId: 'a/b' }));
    const project = peerOf(ws);
    expect(project.peerId).toBe('github.com-acme-configured');
    expect(project.warnings.join('\n')).toMatch(/ignored 'peerId': "a\/b" is not a peer id/);
  });

  it('an invalid configured peer is dropped with a warning (the server would refuse every request)', () => {
    const project = peerOf(dir(), {
      credentials: { peerId: 'has space', sources: { peerId: 'env:OPENVIKING_PEER_ID' } },
    });
    expect(project.peerId).toBe('github.com-acme-configured');
    expect(project.warnings.join('\n')).toMatch(/does not match/);
  });
});
