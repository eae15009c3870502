/**
 * The pieces of a workspace peer's approval (DESIGN D32), on real git
 * repositories: whether git tracks `config.local.json` (read from the index
 * as text: versions 2 and 3, a split index's shared part; version 4 and
 * anything unreadable count as tracked), and what an approval covers (one
 * workspace root, one file's content: a value changed asks again, a
 * whitespace change does not). The end-to-end flow is
 * tests/security/workspace-peer.test.ts.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { gitDirAt } from '../../src/project/gitRepo.js';
import { trackedByGit } from '../../src/project/gitTracked.js';
import { clearProjectCache, resolveProject } from '../../src/project/identity.js';
import { approve } from '../../src/project/trust.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-approval-')));
const home = join(root, 'home');
mkdirSync(home);
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => clearProjectCache());

let counter = 0;
function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    stdio: 'ignore',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root },
  });
}

function repository(files: Record<string, unknown>): { dir: string; local: string } {
  const dir = join(root, `repo-${++counter}`);
  mkdirSync(join(dir, '.openviking'), { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'remote', 'add', 'origin', `git@github.com:acme/repo-${counter}.git`);
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, '.openviking', name), typeof content === 'string' ? content : JSON.stringify(content));
  writeFileSync(join(dir, 'README'), 'x');
  return { dir, local: join(dir, '.openviking', 'config.local.json') };
}

const tracked = (dir: string, path: string) => {
  const repo = gitDirAt(dir, { touched: [], ignored: [] });
  if (repo === undefined) throw new Error(`${dir} is no repository`);
  return trackedByGit(repo, path);
};

describe('trackedByGit', () => {
  it('no index yet, then a commit without the file: untracked; once added: tracked', () => {
    const { dir, local } = repository({ 'config.local.json': { version: 1 } });
    expect(tracked(dir, local)).toBe(false);
    git(dir, 'add', 'README');
    git(dir, 'commit', '-q', '-m', 'x');
    expect(tracked(dir, local)).toBe(false);
    git(dir, 'add', '.openviking/config.local.json');
    expect(tracked(dir, local)).toBe(true);
  });

  it('index version 4 (prefix-compressed paths) cannot be searched: counts as tracked', () => {
    const { dir, local } = repository({ 'config.local.json': { version: 1 } });
    git(dir, 'add', 'README');
    git(dir, 'update-index', '--index-version', '4');
    expect(tracked(dir, local)).toBe(true);
  });

  it('a split index: the shared part is searched too', () => {
    const { dir, local } = repository({ 'config.local.json': { version: 1 } });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'x');
    git(dir, 'update-index', '--split-index');
    writeFileSync(join(dir, 'README'), 'changed');
    git(dir, 'add', 'README');
    expect(tracked(dir, local)).toBe(true);
  });
});

describe('what an approval covers', () => {
  const input = (workspace: string) => ({
    workspace,
    homeDir: home,
    dataDir: join(root, 'data'),
    credentials: { sources: {} },
    settings: { workspacePeer: true, peerSource: [] },
    now: Date.now(),
  });

  it("one workspace root and one file's content: another root with the same file, or a changed value, asks again; whitespace does not", () => {
    const first = repository({ 'config.json': { version: 1, peer: { id: 'team' } } });
    const unapproved = resolveProject(input(first.dir)).unapproved;
    expect(unapproved?.named).toBe('team');
    approve(
      join(root, 'data'),
      (unapproved?.files ?? []).map((file) => ({ ...file, root: first.dir, peer: 'team', at: 1 })),
    );
    clearProjectCache();
    expect(resolveProject(input(first.dir)).peerId).toBe('team');
    const second = repository({ 'config.json': { version: 1, peer: { id: 'team' } } });
    expect(resolveProject(input(second.dir)).peerId).toBe(`github.com-acme-repo-${counter}`);
    writeFileSync(join(first.dir, '.openviking', 'config.json'), '{ "version": 1,\n  "peer": { "id": "team" } }\n');
    clearProjectCache();
    expect(resolveProject(input(first.dir)).peerId).toBe('team');
    writeFileSync(join(first.dir, '.openviking', 'config.json'), JSON.stringify({ version: 1, peer: { id: 'team2' } }));
    clearProjectCache();
    expect(resolveProject(input(first.dir)).unapproved?.named).toBe('team2');
  });

  it('without a data dir no approval counts', () => {
    const { dir } = repository({ 'config.json': { version: 1, peer: { id: 'team' } } });
    const { dataDir: _none, ...withoutData } = input(dir);
    expect(resolveProject(withoutData).unapproved?.named).toBe('team');
  });
});
