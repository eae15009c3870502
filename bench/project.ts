/**
 * Cost of resolving a workspace's project identity (DESIGN D24), in µs:
 * the first call of a process (what a hook pays: cold code, every file
 * read), an uncached call (cache cleared: the file reads alone) and a
 * cached call (what the resident and the MCP proxy pay per request: a few
 * stats). Real repositories made with `git`: a clone with a remote, a
 * linked worktree, a subdirectory three levels down, a folder outside git;
 * and the approval of a workspace file's peer (D32): a committed
 * config.json naming another peer, unapproved and approved (trust.json read
 * each call), and an untracked config.local.json naming one (git's index
 * searched each call).
 *
 * Run: `npx tsx bench/project.ts`
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearProjectCache, resolveProject } from '../src/project/identity.js';
import { approve } from '../src/project/trust.js';

const ROUNDS = 2000;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-bench-project-')));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@b',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@b',
    },
  });

const clone = join(root, 'clone');
mkdirSync(clone);
git(clone, 'init', '-q');
git(clone, 'remote', 'add', 'origin', 'https://user:token@github.com/acme/app.git');
writeFileSync(join(clone, 'f'), 'x');
git(clone, 'add', '.');
git(clone, 'commit', '-q', '-m', 'x');
git(clone, 'worktree', 'add', '-q', join(root, 'worktree'));
mkdirSync(join(clone, 'a', 'b', 'c'), { recursive: true });
mkdirSync(join(root, 'plain'));
mkdirSync(join(root, 'home'));

/** A clone of its own with `.openviking/<name>` holding `content` (committed when `commit`). */
function cloneWith(name: string, file: string, content: unknown, commit: boolean): string {
  const dir = join(root, name);
  mkdirSync(join(dir, '.openviking'), { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'remote', 'add', 'origin', `https://github.com/acme/${name}.git`);
  for (let index = 0; index < 200; index++) writeFileSync(join(dir, `f${index}`), 'x');
  writeFileSync(join(dir, '.openviking', file), JSON.stringify(content));
  if (!commit) writeFileSync(join(dir, '.git', 'info', 'exclude'), `.openviking/${file}\n`);
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'x');
  return dir;
}
const dataDir = join(root, 'data');
const named = { version: 1, peer: { id: 'github.com-acme-payments' } };
const unapproved = cloneWith('unapproved', 'config.json', named, true);
const approved = cloneWith('approved', 'config.json', named, true);
const local = cloneWith('local', 'config.local.json', named, false);

const cases: Array<[string, string]> = [
  ['clone with a remote', clone],
  ['linked worktree', join(root, 'worktree')],
  ['subdirectory, 3 levels down', join(clone, 'a', 'b', 'c')],
  ['folder outside git', join(root, 'plain')],
  ['committed config.json naming another peer, not approved', unapproved],
  ['committed config.json naming another peer, approved', approved],
  ['untracked config.local.json naming a peer (index of 200 files searched)', local],
];
const input = (workspace: string) => ({
  workspace,
  homeDir: join(root, 'home'),
  dataDir: join(root, 'data'),
  credentials: { sources: {} },
  settings: { workspacePeer: true, peerSource: [] },
  now: Date.now(),
});

const pending = resolveProject(input(approved)).unapproved;
approve(
  dataDir,
  (pending?.files ?? []).map((file) => ({ ...file, root: approved, peer: 'x', at: 0 })),
);
clearProjectCache();

const micros = (run: () => void, rounds: number): number => {
  const started = process.hrtime.bigint();
  for (let index = 0; index < rounds; index++) run();
  return Number(process.hrtime.bigint() - started) / 1000 / rounds;
};

// A hook has already stat'ed and read its config files when it gets here: warm those fs paths first.
statSync(join(root, 'missing'), { throwIfNoEntry: false });
readFileSync(join(clone, 'f'), 'utf8');
const first = micros(() => resolveProject(input(clone)), 1);
console.log(`first call in this process (cold code, fs warmed as a hook has it): ${first.toFixed(0)} µs`);
console.log('case | uncached µs | cached µs');
for (const [name, workspace] of cases) {
  const uncached = micros(() => {
    clearProjectCache();
    resolveProject(input(workspace));
  }, ROUNDS);
  resolveProject(input(workspace));
  const cached = micros(() => resolveProject(input(workspace)), ROUNDS);
  console.log(`${name} | ${uncached.toFixed(1)} | ${cached.toFixed(1)}`);
}
rmSync(root, { recursive: true, force: true });
