/**
 * Project identity (DESIGN D24) on real repositories made with the real
 * `git` CLI: remote spellings collapse to one id without credentials,
 * worktrees and clones share it, a repository without a remote has a local
 * id, a folder outside git has none, explicit configuration wins in its
 * order, the knob turns derivation off, and the per-workspace cache notices
 * a changed remote.
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

const root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-project-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => clearProjectCache());

let counter = 0;
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

function repo(remote?: string): string {
  const dir = join(root, `repo-${++counter}`);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  if (remote !== undefined) git(dir, 'remote', 'add', 'origin', remote);
  return dir;
}

function peerOf(workspace: string, overrides: Partial<Parameters<typeof resolveProject>[0]> = {}) {
  return resolveProject({ workspace, homeDir: join(root, 'home'), credentials: { sources: {} }, workspacePeer: true, now: Date.now(), ...overrides });
}

describe('remote spellings', () => {
  const spellings = [
    'git@github.com:Acme/Billing-API.git',
    'ssh://git@github.com/acme/billing-api.git',
    'ssh://git@github.com:22/acme/billing-api',
    'https://github.com/acme/billing-api',
    'https://alice:ghp_SECRETTOKEN1234567890@github.com/acme/billing-api.git',
    'https://oauth2:glpat-SECRET@GitHub.com/acme/billing-api.git/',
    'git://github.com/acme/billing-api.git',
  ];

  it('collapse to one canonical form and one valid peer id, with no credential in it', () => {
    const canon = spellings.map(canonicalRemote);
    expect(new Set(canon)).toEqual(new Set(['github.com/acme/billing-api']));
    const id = peerIdForRemote(canon[0] as string);
    expect(id).toMatch(/^git-github.com-acme-billing-api-[0-9a-f]{8}$/);
    expect(isValidPeerId(id)).toBe(true);
  });

  it('every spelling in a real repository gives the same peer, never a secret', () => {
    const ids = spellings.map((url) => peerOf(repo(url)).peerId);
    expect(new Set(ids).size).toBe(1);
    for (const id of ids) expect(id).not.toMatch(/SECRET|alice|oauth2|ghp_|glpat/i);
  });

  it('different repositories and hosts differ', () => {
    const ids = ['git@github.com:acme/billing-api.git', 'git@github.com:acme/billing-web.git', 'git@gitlab.com:acme/billing-api.git', 'git@github.com:acme-billing/api.git'].map(canonicalRemote).map((c) => peerIdForRemote(c as string));
    expect(new Set(ids).size).toBe(4);
  });

  it('hostile remote text still yields a server-valid id', () => {
    for (const url of ['https://h/ä ö/../..@@x.git', 'git@host:/', '::::', 'https://h/' + 'x/'.repeat(200), '/srv/git/Some Repo.git', 'file:///srv/git/r.git']) {
      const canonical = canonicalRemote(url);
      if (canonical !== undefined) expect(isValidPeerId(peerIdForRemote(canonical))).toBe(true);
    }
  });
});

describe('repositories', () => {
  it('a linked worktree, a subdirectory and a separate clone share the id', () => {
    const main = repo('git@github.com:acme/shared.git');
    writeFileSync(join(main, 'a.txt'), 'a');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'one');
    const worktree = join(root, `wt-${++counter}`);
    git(main, 'worktree', 'add', '-q', worktree);
    mkdirSync(join(main, 'src', 'deep'), { recursive: true });
    const clone = join(root, `clone-${++counter}`);
    git(root, 'clone', '-q', main, clone);
    git(clone, 'remote', 'set-url', 'origin', 'https://github.com/acme/shared');
    const ids = [main, worktree, join(main, 'src', 'deep'), clone].map((dir) => peerOf(dir).peerId);
    expect(ids[0]).toMatch(/^git-github.com-acme-shared-/);
    expect(new Set(ids).size).toBe(1);
  });

  it('origin wins over other remotes; without origin the first remote counts', () => {
    const both = repo();
    git(both, 'remote', 'add', 'upstream', 'git@github.com:up/stream.git');
    git(both, 'remote', 'add', 'origin', 'git@github.com:me/fork.git');
    expect(peerOf(both).peerSource).toBe('git remote github.com/me/fork');
    const onlyUpstream = repo();
    git(onlyUpstream, 'remote', 'add', 'upstream', 'git@github.com:up/stream.git');
    expect(peerOf(onlyUpstream).peerSource).toBe('git remote github.com/up/stream');
  });

  it('a repository without a remote gets a local id, stable for that repository and its worktrees', () => {
    const local = repo();
    writeFileSync(join(local, 'a.txt'), 'a');
    git(local, 'add', '.');
    git(local, 'commit', '-q', '-m', 'one');
    const worktree = join(root, `wt-${++counter}`);
    git(local, 'worktree', 'add', '-q', worktree);
    const first = peerOf(local).peerId;
    expect(first).toMatch(/^git-local-repo-\d+-[0-9a-f]{8}$/);
    clearProjectCache();
    expect(peerOf(local).peerId).toBe(first);
    expect(peerOf(worktree).peerId).toBe(first);
    expect(peerOf(repo()).peerId).not.toBe(first);
  });

  it('a folder outside git has no peer', () => {
    const plain = join(root, `plain-${++counter}`);
    mkdirSync(plain);
    const project = peerOf(plain);
    expect(project.peerId).toBeUndefined();
    expect(project.peerSource).toMatch(/not in a git repository/);
  });

  it('the cache notices a changed remote', () => {
    const dir = repo('git@github.com:acme/before.git');
    expect(peerOf(dir).peerSource).toBe('git remote github.com/acme/before');
    git(dir, 'remote', 'set-url', 'origin', 'git@github.com:acme/after-a-rename.git');
    expect(peerOf(dir).peerSource).toBe('git remote github.com/acme/after-a-rename');
  });
});

describe('explicit configuration and the knob', () => {
  const dir = () => repo('git@github.com:acme/configured.git');
  const fromFile = { peerId: 'cli-peer', sources: { peerId: 'file:~/.openviking/ovcli.conf' } };
  const fromEnv = { peerId: 'env-peer', sources: { peerId: 'env:OPENVIKING_PEER_ID' } };

  it('OPENVIKING_PEER_ID beats the workspace file, which beats ovcli.conf, which beats git', () => {
    const ws = dir();
    expect(peerOf(ws, { credentials: fromFile }).peerId).toBe('cli-peer');
    mkdirSync(join(ws, '.openviking'));
    writeFileSync(join(ws, '.openviking', 'config.json'), JSON.stringify({ peerId: 'ws-peer' }));
    expect(peerOf(ws, { credentials: fromFile })).toMatchObject({ peerId: 'ws-peer', peerSource: `workspace:${join(ws, '.openviking', 'config.json')}` });
    expect(peerOf(ws, { credentials: fromEnv }).peerId).toBe('env-peer');
  });

  it('OPENVIKING_WORKSPACE_PEER=false turns derivation off, not a configured peer', () => {
    const ws = dir();
    expect(peerOf(ws, { workspacePeer: false }).peerId).toBeUndefined();
    expect(peerOf(ws, { workspacePeer: false, credentials: fromFile }).peerId).toBe('cli-peer');
  });

  it('a workspace peerId false means no peer; an invalid one is ignored with a warning', () => {
    const ws = dir();
    mkdirSync(join(ws, '.openviking'));
    writeFileSync(join(ws, '.openviking', 'config.json'), JSON.stringify({ peerId: false }));
    expect(peerOf(ws).peerId).toBeUndefined();
    writeFileSync(join(ws, '.openviking', 'config.json'), JSON.stringify({ peerId: 'a/b' }));
    const project = peerOf(ws);
    expect(project.peerId).toMatch(/^git-github.com-acme-configured-/);
    expect(project.warnings.join('\n')).toMatch(/peerId must match/);
  });

  it('an invalid configured peer is dropped with a warning (the server would refuse every request)', () => {
    const project = peerOf(dir(), { credentials: { peerId: 'has space', sources: { peerId: 'env:OPENVIKING_PEER_ID' } } });
    expect(project.peerId).toMatch(/^git-github.com-acme-configured-/);
    expect(project.warnings.join('\n')).toMatch(/does not match/);
  });

  it('the workspace file may only switch off, and is found from a subdirectory', () => {
    const ws = dir();
    mkdirSync(join(ws, '.openviking'));
    mkdirSync(join(ws, 'pkg'));
    writeFileSync(join(ws, '.openviking', 'config.json'), JSON.stringify({ enabled: true, autoRecall: false, autoCapture: false, autoProfile: 'no', apiKey: 'x' }));
    const project = peerOf(join(ws, 'pkg'));
    expect(project.off).toEqual(['autoRecall', 'autoCapture']);
    expect(project.warnings.join('\n')).toMatch(/autoProfile should be true or false/);
  });
});
