/**
 * OpenViking's published examples of peer ids and workspaces, run through
 * this plugin's derivation (issue 22 item 1, DESIGN D24). Every row comes
 * from an upstream file and names it (volcengine/OpenViking; the table of
 * the study ../notes/upstream.md §5 keeps only these rows): its tests of
 * the shared plugin library (`examples/memory-plugin-shared/lib/
 * workspace-identity.test.mjs` @d50b565, `workspace-peer.test.mjs`
 * @eec62ca), its client configuration docs (`docs/en/configuration/
 * 02-client.md`) and its agent-integration pages. Values only computed from
 * the rules, rows about the registry (not read here) and about `{harness}`
 * (not offered here) are left out. Real repositories are made with `git`.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { originUrl, type ScanNotes } from '../../src/project/gitRepo.js';
import { clearProjectCache, resolveProject } from '../../src/project/identity.js';
import {
  gitRemoteVariable,
  legacyPeerForm,
  normalizeRemote,
  parseRemote,
  renderTemplate,
  sanitizePeerId,
  templatesOf,
} from '../../src/project/peerTemplate.js';
import { findWorkspaceRoot } from '../../src/project/workspaceRoot.js';
import { resolveApproved } from './support/approved.js';

const T_ID = 'workspace-identity.test.mjs';
const T_PEER = 'workspace-peer.test.mjs';
const D_CLIENT = 'docs/en/configuration/02-client.md';
const D_INT = 'the agent-integration pages (Codex, Claude Code plugins)';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'ov-upstream-')));
const home = join(base, 'home');
mkdirSync(home);
afterAll(() => rmSync(base, { recursive: true, force: true }));
beforeEach(() => clearProjectCache());

const UPSTREAM = 'git@github.com:volcengine/OpenViking.git';
let counter = 0;
function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: base,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}
function repo(remote?: string, name = `OpenViking-${++counter}`, parent = base): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  if (remote !== undefined) git(dir, 'remote', 'add', 'origin', remote);
  return dir;
}
function commit(dir: string): void {
  writeFileSync(join(dir, `f${++counter}`), 'x');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'x');
}
function peerOf(
  workspace: string,
  peerSource: string[] = [],
  extra: Partial<Parameters<typeof resolveProject>[0]> = {},
) {
  // As the user has it once they trusted the repository's workspace file (D32).
  return resolveApproved({
    workspace,
    homeDir: home,
    credentials: { sources: {} },
    settings: { workspacePeer: true, peerSource },
    earlierIds: true,
    now: Date.now(),
    ...extra,
  });
}
const normalized = (url: string) => normalizeRemote(parseRemote(url));
const notes = (): ScanNotes => ({ touched: [], ignored: [] });
const folder = (...parts: string[]) => {
  const dir = join(base, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
};

describe('peer ids', () => {
  it(`#1 origin ${UPSTREAM}, at the root: github.com-volcengine-openviking by {git_remote} [${T_PEER}, ${T_ID}, ${D_CLIENT}, ${D_INT}]`, () => {
    expect(peerOf(repo(UPSTREAM))).toMatchObject({
      peerId: 'github.com-volcengine-openviking',
      peerSource: expect.stringMatching(/^\{git_remote\} /),
    });
  });

  it(`#2 the same repository from examples/codex-memory-plugin: the same peer; the earlier id is the folder's legacy form [${T_PEER}, ${D_CLIENT}]`, () => {
    const sub = join(repo(UPSTREAM), 'examples', 'codex-memory-plugin');
    mkdirSync(sub, { recursive: true });
    const project = peerOf(sub);
    expect(project.peerId).toBe('github.com-volcengine-openviking');
    expect(project.earlierPeerIds).toContain(legacyPeerForm(sub));
  });

  it(`#3 four spellings of the remote normalize to github.com/volcengine/openviking [${T_ID}]`, () => {
    for (const url of [
      'https://github.com/volcengine/OpenViking.git',
      'https://github.com/volcengine/OpenViking',
      'https://GitHub.com/Volcengine/OpenViking.git/',
      'ssh://git@github.com:22/volcengine/OpenViking.git',
    ]) {
      expect(normalized(url), url).toBe('github.com/volcengine/openviking');
      expect(gitRemoteVariable(url), url).toBe('github.com-volcengine-openviking');
    }
  });

  it(`#4 user info, token and port never reach it [${T_ID}]`, () => {
    expect(normalized('https://someone:ghp_averysecrettoken@github.com:8443/volcengine/OpenViking.git')).toBe(
      'github.com/volcengine/openviking',
    );
  });

  it(`#5 empty, local and drive paths name no remote [${T_ID}]`, () => {
    for (const url of [
      '',
      '   ',
      '/srv/git/bare.git',
      'file:///srv/git/bare.git',
      '../sibling',
      'C:\\src\\repo',
      'C:/src/repo',
      'd:\\work\\api.git',
    ])
      expect(normalized(url), url).toBe('');
  });

  it(`#6 an https origin with an access token: {git_remote} github.com-o-r, no secret [${T_ID}]`, () => {
    const project = peerOf(repo('https://x-access-token:ghp_SECRETVALUE@github.com/o/r.git'));
    expect(project.peerId).toBe('github.com-o-r');
    expect(JSON.stringify(project)).not.toContain('SECRETVALUE');
  });

  it(`#7-#9 reading origin: section name exact, key any case, a comment cut, include not followed [${T_ID}]`, () => {
    expect(normalized(originUrl('[Remote "origin"]\n\tURL = git@github.com:Org/Repo.git\n') ?? '')).toBe(
      'github.com/org/repo',
    );
    expect(originUrl('[remote "Origin"]\n\turl = git@github.com:Org/Repo.git\n')).toBeUndefined();
    expect(originUrl('[remote "origin"]\n\turl = git@github.com:a/b.git # my fork\n')).toBe('git@github.com:a/b.git');
    expect(
      originUrl(
        '[include]\n\tpath = ./extra\n[remote "upstream"]\n\turl = git@github.com:volcengine/OpenViking.git\n[remote "origin"]\n\turl = git@github.com:t0saki/OpenViking.git\n',
      ),
    ).toBe('git@github.com:t0saki/OpenViking.git');
  });

  it(`#10 a fork and its upstream differ; ssh and https of one repository agree [${T_PEER}]`, () => {
    expect(gitRemoteVariable('git@github.com:t0saki/OpenViking.git')).not.toBe(gitRemoteVariable(UPSTREAM));
    expect(gitRemoteVariable('https://github.com/volcengine/OpenViking.git')).toBe(gitRemoteVariable(UPSTREAM));
  });

  it(`#11 a repository without origin, at its root: its path in the legacy form by {git_root}, no earlier path-based id [${T_PEER}, ${T_ID}]`, () => {
    const dir = repo();
    const project = peerOf(dir);
    expect(project).toMatchObject({ peerId: legacyPeerForm(dir), peerSource: expect.stringMatching(/^\{git_root\} /) });
    expect(project.earlierPeerIds).not.toContain(legacyPeerForm(dir));
  });

  it(`#12, #27 a plain folder: no peer, by default or by ["{git_remote}"] [${T_PEER}]`, () => {
    const outputs = folder(`plain-${++counter}`, 'outputs');
    expect(peerOf(outputs).peerId).toBeUndefined();
    expect(peerOf(outputs, ['{git_remote}']).peerId).toBeUndefined();
  });

  it(`#20 peer source cwd from <repo>/examples: the folder's legacy form [${T_PEER}]`, () => {
    const examples = join(repo(UPSTREAM), 'examples');
    mkdirSync(examples);
    const project = peerOf(examples, ['cwd']);
    expect(project.peerId).toBe(legacyPeerForm(examples));
    expect(project.earlierPeerIds).not.toContain(legacyPeerForm(examples));
  });

  it(`#21 peer source none, or the workspace peer off: no peer, no earlier id [${T_PEER}]`, () => {
    const dir = repo(UPSTREAM);
    expect(peerOf(dir, ['none'])).toMatchObject({ earlierPeerIds: [] });
    expect(peerOf(dir, ['none']).peerId).toBeUndefined();
    expect(peerOf(dir, [], { settings: { workspacePeer: false, peerSource: [] } }).peerId).toBeUndefined();
  });

  it(`#22 a configured peer id " configured " is used trimmed [${T_PEER}]`, () => {
    expect(
      peerOf(repo(UPSTREAM), [], {
        credentials: { peerId: ' configured ', sources: { peerId: 'env:OPENVIKING_PEER_ID' } },
      }).peerId,
    ).toBe('configured');
  });

  it(`#23-#25 templates: git-{git_remote}, team-{dir}, and a list whose first item does not resolve [${T_PEER}, ${D_CLIENT}]`, () => {
    const dir = repo(UPSTREAM);
    expect(peerOf(dir, ['git-{git_remote}']).peerId).toBe('git-github.com-volcengine-openviking');
    expect(peerOf(dir, ['team-{dir}']).peerId).toBe(`team-${basename(dir)}`);
    const local = repo();
    expect(peerOf(local, ['{git_remote}', 'team-{dir}'])).toMatchObject({
      peerId: `team-${basename(local)}`,
      peerSource: expect.stringMatching(/^team-\{dir\} /),
    });
  });

  it(`#28 rendering is all or nothing, text outside placeholders kept [${T_PEER}]`, () => {
    const vars = { git_remote: 'github.com-o-r', git_root: '-src-r', cwd: '-src-r-sub', dir: 'r', git_port: '' };
    expect(renderTemplate('{git_remote}', vars)).toBe('github.com-o-r');
    expect(renderTemplate('a-{dir}-b', vars)).toBe('a-r-b');
    expect(renderTemplate('{git_remote}-{missing}', vars)).toBe('');
    expect(renderTemplate('literal', vars)).toBe('literal');
    expect(renderTemplate('', vars)).toBe('');
    expect(renderTemplate('{git_remote}', { ...vars, git_remote: '' })).toBe('');
  });

  it(`#29, #30 presets, and a typo warned and read as git; a list passes as written [${T_PEER}]`, () => {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    expect(templatesOf(undefined, warn)).toEqual(['{git_remote}', '{git_root}']);
    expect(templatesOf('', warn)).toEqual(['{git_remote}', '{git_root}']);
    expect(templatesOf('cwd', warn)).toEqual(['{cwd}']);
    expect(templatesOf('none', warn)).toEqual([]);
    expect(templatesOf('my-{dir}', warn)).toEqual(['my-{dir}']);
    expect(templatesOf(['release', '{cwd}'], warn)).toEqual(['release', '{cwd}']);
    expect(warnings).toEqual([]);
    expect(templatesOf('Git', warn)).toEqual(['{git_remote}', '{git_root}']);
    expect(templatesOf('gti', warn)).toEqual(['{git_remote}', '{git_root}']);
    expect(warnings).toHaveLength(2);
  });

  it(`#31, #32 the sanitizer [${T_ID}]`, () => {
    expect(
      ['github.com/volcengine/openviking', '--weird//name--', '__self', 'ext-YWJj', 'a@b@c', '..', '///'].map(
        sanitizePeerId,
      ),
    ).toEqual(['github.com-volcengine-openviking', 'weird-name', 'self', 'x-ext-YWJj', 'a@b-c', '', '']);
    const one = sanitizePeerId(`git.example.com/${'a'.repeat(200)}/one`);
    const two = sanitizePeerId(`git.example.com/${'a'.repeat(200)}/two`);
    expect(one.length).toBeLessThanOrEqual(100);
    expect(two.length).toBeLessThanOrEqual(100);
    expect(one).not.toBe(two);
  });

  it(`#33 the legacy form [${T_PEER}, ${T_ID}, ${D_INT}, the Rust port's tests]`, () => {
    expect(['/Users/x/Dev/OpenViking', '/tmp/a  b/', 'abc.DEF_123@x-y', '', '///', '项目'].map(legacyPeerForm)).toEqual(
      ['-Users-x-Dev-OpenViking', '-tmp-a--b-', 'abc-DEF-123-x-y', '', '---', '--'],
    );
  });

  it(`#34, #35 a renamed checkout keeps {git_remote}; a shallow clone names the same [${T_ID}]`, () => {
    const full = repo(UPSTREAM, `api-${++counter}`);
    commit(full);
    const renamed = `${full}-renamed`;
    git(base, 'clone', '-q', full, renamed);
    git(renamed, 'remote', 'set-url', 'origin', UPSTREAM);
    const shallow = join(base, `shallow-${++counter}`);
    git(base, 'clone', '-q', '--depth', '1', `file://${full}`, shallow);
    git(shallow, 'remote', 'set-url', 'origin', UPSTREAM);
    expect(new Set([full, renamed, shallow].map((dir) => peerOf(dir).peerId))).toEqual(
      new Set(['github.com-volcengine-openviking']),
    );
    expect(peerOf(renamed, ['cwd']).peerId).not.toBe(peerOf(full, ['cwd']).peerId);
  });
});

describe('workspace roots', () => {
  it(`#13, #39 a plain folder with .openviking/config.json (or only config.local.json) is a workspace of kind config; {dir} names it [${T_PEER}, ${T_ID}]`, () => {
    for (const name of ['config.json', 'config.local.json']) {
      const dir = folder(`marked-${++counter}`);
      mkdirSync(join(dir, '.openviking'));
      writeFileSync(join(dir, '.openviking', name), '{"version": 1}');
      const src = folder(basename(dir), 'src');
      expect(findWorkspaceRoot(src, home, notes())).toEqual({ root: dir, rootKind: 'config', hasFiles: true });
      expect(peerOf(src).peerId).toBeUndefined();
      expect(peerOf(src, ['{dir}']).peerId).toBe(basename(dir));
    }
  });

  it(`#14, #15 a marked package inside a repository is the root; the repository names {git_remote} and {git_root}; a marker beside .git is a git root [${T_ID}]`, () => {
    const dir = repo(UPSTREAM);
    const api = folder(basename(dir), 'packages', 'api');
    mkdirSync(join(api, '.openviking'));
    writeFileSync(join(api, '.openviking', 'config.json'), '{"version": 1}');
    const src = folder(basename(dir), 'packages', 'api', 'src');
    expect(findWorkspaceRoot(src, home, notes())).toMatchObject({
      root: api,
      rootKind: 'config',
      git: { gitRoot: dir },
    });
    expect(peerOf(src).peerId).toBe('github.com-volcengine-openviking');
    expect(peerOf(src, ['{git_root}']).peerId).toBe(legacyPeerForm(dir));
    expect(peerOf(src, ['{dir}']).peerId).toBe('api');
    mkdirSync(join(dir, '.openviking'));
    writeFileSync(join(dir, '.openviking', 'config.json'), '{"version": 1}');
    expect(findWorkspaceRoot(dir, home, notes())).toMatchObject({ root: dir, rootKind: 'git' });
  });

  it("a folder spelled longer than PATH_MAX is no workspace, whatever it holds (a hook's cwd is the host's text)", () => {
    const dir = folder(`marked-long-${++counter}`);
    mkdirSync(join(dir, '.openviking'));
    writeFileSync(join(dir, '.openviking', 'config.json'), '{"version": 1}');
    // The fuzz suite's case: a 160 KB cwd of `<private>x</private>` runs, thousands of levels under a marked folder.
    const long = join(dir, '<private>x</private>'.repeat(8_000));
    expect(findWorkspaceRoot(long, home, notes())).toBeUndefined();
    expect(findWorkspaceRoot(join(dir, 'src'), home, notes())).toMatchObject({ root: dir });
  });

  it(`#16 $HOME as a repository (dotfiles) claims nothing: not $HOME, not below it; / is no workspace [${T_ID}]`, () => {
    const dotHome = repo('git@github.com:someone/dotfiles.git', `home-${++counter}`);
    const notesDir = folder(basename(dotHome), 'notes');
    expect(findWorkspaceRoot(dotHome, dotHome, notes())).toBeUndefined();
    expect(findWorkspaceRoot(notesDir, dotHome, notes())).toBeUndefined();
    expect(findWorkspaceRoot('/', home, notes())).toBeUndefined();
  });

  it(`#17, #18, #19 a linked worktree reads its main repository's origin; a submodule is its own; a repository under …/modules/ is no submodule [${T_ID}]`, () => {
    const main = repo(UPSTREAM);
    commit(main);
    const feature = join(base, `feature-${++counter}`);
    git(main, 'worktree', 'add', '-q', feature);
    expect(findWorkspaceRoot(feature, home, notes())?.git).toMatchObject({
      kind: 'worktree',
      commonDir: join(main, '.git'),
    });
    expect(peerOf(feature).peerId).toBe('github.com-volcengine-openviking');
    const vendor = repo('git@github.com:other/vendor.git', `vendor-${++counter}`);
    commit(vendor);
    git(main, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', vendor, 'vendor');
    git(join(main, 'vendor'), 'remote', 'set-url', 'origin', 'git@github.com:other/vendor.git');
    expect(findWorkspaceRoot(join(main, 'vendor'), home, notes())?.git?.kind).toBe('submodule');
    expect(peerOf(join(main, 'vendor')).peerId).toBe('github.com-other-vendor');
    const app = repo('git@github.com:o/app.git', 'app', folder(`x-${++counter}`, 'modules'));
    commit(app);
    const appTree = join(base, `app-wt-${++counter}`);
    git(app, 'worktree', 'add', '-q', appTree);
    expect(findWorkspaceRoot(appTree, home, notes())?.git?.kind).toBe('worktree');
    expect(peerOf(appTree).peerId).toBe('github.com-o-app');
  });

  it(`#40 {"version": 1, "peer": {"id": "my-project"}} in a folder outside git names the peer there and below [${D_CLIENT}]`, () => {
    const dir = folder(`my-project-${++counter}`);
    mkdirSync(join(dir, '.openviking'));
    writeFileSync(join(dir, '.openviking', 'config.json'), JSON.stringify({ version: 1, peer: { id: 'my-project' } }));
    expect(peerOf(dir).peerId).toBe('my-project');
    expect(peerOf(folder(basename(dir), 'a', 'b')).peerId).toBe('my-project');
  });
});
