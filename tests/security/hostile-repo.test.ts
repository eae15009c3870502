/**
 * A cloned repository can commit any file the plugin reads as a symlink
 * (issue 20 item 2): `.openviking/config.json`, `.openviking/config.local.json`
 * (read by no released code yet: it must simply not hang), `.git/config`,
 * `.git` itself and `commondir`, each pointing at `/dev/zero` (a plain read
 * never ends), a FIFO (a plain open blocks) or a 50 MB file. Through the
 * BUILT hook as CodeBuddy runs it (host simulator, sandboxed HOME), every
 * event answers in its normal time with exit 0, the Stop's background
 * capture finishes, and doctor names the ignored file and why. The user's
 * own config files (ovcli.conf, ov.conf, the CLI's settings) and the
 * transcript path get the same treatment. Needs `npm run build`.
 *
 * On 8e37669 the `/dev/zero` and FIFO rows of every read file hung the
 * start and prompt hooks until the host killed them. Run that build with a
 * memory limit (`ulimit -v`): `/dev/zero` read without a cap eats gigabytes.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnRecords, until } from '../capture/support/world.js';
import { detachedRuns, pluginProcesses } from '../support/detached.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import type { FireResult } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';
import { DEFAULT_SEED, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';

/** Far above a hook's normal time here (~0.1–1 s, more under load), far below its host timeout (10–15 s). */
const NORMAL_MS = 5_000;

type Kind = 'dev-zero' | 'fifo' | '50 MB';
const KINDS: readonly Kind[] = ['dev-zero', 'fifo', '50 MB'];
/** Which words doctor uses for each kind of refused file. */
const WHY: Record<Kind, RegExp> = {
  'dev-zero': /is a character device, not a regular file/,
  fifo: /is a FIFO, not a regular file/,
  '50 MB': /is larger than \d+ bytes/,
};

let server: OvTestServer;
let root: string;
let targets: Record<Kind, string>;

beforeAll(async () => {
  server = await startOvServer({ seed: DEFAULT_SEED });
  root = mkdtempSync(join(tmpdir(), 'ov-hostile-'));
  const fifo = join(root, 'a-fifo');
  execFileSync('mkfifo', [fifo]);
  const big = join(root, 'big.json');
  writeFileSync(big, '');
  truncateSync(big, 50 * 1024 * 1024);
  targets = { 'dev-zero': '/dev/zero', fifo, '50 MB': big };
});

afterAll(async () => {
  // Only a hung worker of a build without the fix is left here; each belongs to one of our sandboxes.
  for (const pid of homes.flatMap((home) => pluginProcesses(home))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await server.close();
  rmSync(root, { recursive: true, force: true, maxRetries: 5 });
});

let count = 0;
const homes: string[] = [];

/**
 * A fresh HOME and a git repository with a remote, in which `plant` puts the
 * hostile file; the hooks run in the repository, or in its `subdir`.
 */
function sandbox(plant: (repository: string, home: string) => void, subdir = '') {
  const base = join(root, `case-${++count}`);
  const home = join(base, 'home');
  const repository = join(base, 'ws');
  mkdirSync(home, { recursive: true });
  homes.push(home);
  mkdirSync(repository);
  execFileSync('git', ['init', '-q'], { cwd: repository, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  execFileSync('git', ['remote', 'add', 'origin', 'git@github.com:acme/hostile.git'], { cwd: repository });
  plant(repository, home);
  const workspace = join(repository, subdir);
  mkdirSync(workspace, { recursive: true });
  const sim = createHostSim({
    pluginRoot: REPO_ROOT,
    home,
    workspace,
    env: { OPENVIKING_URL: server.url, OPENVIKING_TIMEOUT_MS: '3000' },
  });
  const payloads = () => createPayloads({ workspace, configDir: join(home, '.codebuddy') });
  return { home, workspace, sim, payloads };
}

function replaceWithLink(path: string, target: string): void {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

function expectNormal(result: FireResult, what: string): void {
  expect(result.timedOut, `${what} timed out`).toBe(false);
  expect(result.durationMs, `${what} took ${Math.round(result.durationMs)} ms`).toBeLessThan(NORMAL_MS);
  for (const hook of result.hooks) expect(hook.process?.exitCode, `${what} exit code`).toBe(0);
}

/** Start, prompt, a guarded and an ordinary PreToolUse, and Stop with its background capture. */
async function everyEvent(box: ReturnType<typeof sandbox>): Promise<void> {
  const p = box.payloads();
  expectNormal(await box.sim.fire('SessionStart', p.sessionStart('startup')), 'SessionStart');
  const prompt = await box.sim.fire('UserPromptSubmit', p.userPromptSubmit(RECALL_PROMPT));
  expectNormal(prompt, 'UserPromptSubmit');
  expect(prompt.outputs[0]?.additionalContext ?? '').toContain(RECALL_MARKER);
  expectNormal(
    await box.sim.fire('PreToolUse', p.preToolUse('Read', { file_path: 'viking://user/x' })),
    'PreToolUse (guarded)',
  );
  expectNormal(
    await box.sim.fire('PreToolUse', p.preToolUse('Read', { file_path: join(box.workspace, 'README.md') })),
    'PreToolUse',
  );
  mkdirSync(dirname(p.transcriptPath), { recursive: true });
  writeFileSync(
    p.transcriptPath,
    turnRecords(p.sessionId, box.workspace, 'hostile turn HOSTILE-TURN', 'ok')
      .map((record) => `${JSON.stringify(record)}\n`)
      .join(''),
  );
  expectNormal(await box.sim.fire('Stop', p.stop('ok')), 'Stop');
  await until(() => detachedRuns(box.home).length === 0, 15_000, 'the Stop capture worker');
  const stored =
    server
      .session(`cb-${p.sessionId}`)
      ?.allMessages.map((message) => JSON.stringify(message.parts))
      .join('') ?? '';
  expect(stored).toContain('HOSTILE-TURN');
}

async function doctorProject(box: ReturnType<typeof sandbox>): Promise<string> {
  const run = await spawnHook({
    args: ['doctor', '--json'],
    cwd: box.workspace,
    env: { ...box.sim.env },
    timeoutMs: 20_000,
  });
  expect(run.timedOut).toBe(false);
  const report = JSON.parse(run.stdout) as { checks: Array<{ id: string; lines: string[] }> };
  return report.checks.map((check) => `[${check.id}] ${check.lines.join('\n')}`).join('\n');
}

/** Where each file sits in the repository, whether the plugin reads it, and the workspace the hooks run in. */
const REPOSITORY_FILES: Array<{
  name: string;
  read: boolean;
  subdir?: string;
  /** What doctor says instead of the target's kind: a workspace file's link out of the workspace is refused unread (issue 29 item 4). */
  why?: RegExp;
  plant: (repository: string, target: string) => string;
}> = [
  {
    name: '.openviking/config.json',
    read: true,
    why: /resolves outside the workspace .*; ignoring it \(not read\)/,
    plant: (ws, target) => link(join(ws, '.openviking', 'config.json'), target),
  },
  {
    name: '.openviking/config.local.json',
    read: false,
    plant: (ws, target) => link(join(ws, '.openviking', 'config.local.json'), target),
  },
  { name: '.git/config', read: true, plant: (ws, target) => link(join(ws, '.git', 'config'), target) },
  {
    // `.git` as a file: a symlink in a subdirectory workspace, so the scan meets it first and must go on to the real repository above.
    name: '.git (file)',
    read: true,
    subdir: 'sub',
    plant: (ws, target) => link(join(ws, 'sub', '.git'), target),
  },
  {
    // A linked worktree's `commondir` (a repository's own `.git` directory is not asked for one, as in OpenViking's plugins): `sub` is the worktree.
    name: 'commondir',
    read: true,
    subdir: 'sub',
    plant: (ws, target) => {
      mkdirSync(join(ws, '.git', 'worktrees', 'sub'), { recursive: true });
      mkdirSync(join(ws, 'sub'), { recursive: true });
      writeFileSync(join(ws, 'sub', '.git'), `gitdir: ${join(ws, '.git', 'worktrees', 'sub')}\n`);
      return link(join(ws, '.git', 'worktrees', 'sub', 'commondir'), target);
    },
  },
];

function link(path: string, target: string): string {
  replaceWithLink(path, target);
  return path;
}

describe.each(REPOSITORY_FILES)('a repository whose $name is hostile', ({ read, subdir, why, plant }) => {
  it.each(KINDS)(
    '%s: every hook answers in its normal time, exit 0; doctor names the file',
    async (kind) => {
      let planted = '';
      const box = sandbox((repository) => {
        planted = plant(repository, targets[kind]);
      }, subdir);
      await everyEvent(box);
      const report = await doctorProject(box);
      if (read) {
        expect(report).toContain(planted);
        expect(report).toMatch(why ?? WHY[kind]);
      }
    },
    90_000,
  );
});

describe("the user's own config files and the transcript path", () => {
  const USER_FILES: Array<[string, (home: string) => string]> = [
    ['~/.openviking/ovcli.conf', (home) => join(home, '.openviking', 'ovcli.conf')],
    ['~/.openviking/ov.conf', (home) => join(home, '.openviking', 'ov.conf')],
    ['~/.codebuddy/settings.json (doctor)', (home) => join(home, '.codebuddy', 'settings.json')],
  ];
  it.each(
    USER_FILES.flatMap(([label, path]) =>
      KINDS.filter((kind) => kind !== '50 MB').map((kind) => [label, kind, path] as const),
    ),
  )(
    '%s as %s: hooks and doctor answer, doctor says why',
    async (label, kind, pathIn) => {
      let planted = '';
      const box = sandbox((_workspace, home) => {
        planted = link(pathIn(home), targets[kind]);
      });
      await everyEvent(box);
      const report = await doctorProject(box);
      expect(report).toContain(label.startsWith('~/.openviking') ? label : planted);
      expect(report).toMatch(WHY[kind]);
    },
    90_000,
  );

  it.each(['dev-zero', 'fifo'] as const)(
    'a transcript path naming %s: the Stop worker ends at once and captures nothing',
    async (kind) => {
      const box = sandbox(() => undefined);
      const p = box.payloads();
      expectNormal(await box.sim.fire('Stop', p.stop('ok', { transcript_path: targets[kind] })), 'Stop');
      await until(() => detachedRuns(box.home).length === 0, 10_000, 'the Stop capture worker');
      expect(server.session(`cb-${p.sessionId}`)?.allMessages ?? []).toEqual([]);
    },
    30_000,
  );
});
