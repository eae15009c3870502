/**
 * Every test run tests today's src/ (D37): in a private copy of the
 * repository (never this checkout), a source file is edited and ONE test
 * file is run with `vitest run <file>`, as a developer would. The test then
 * runs the edited code (vitest's globalSetup rebuilt the bundles first and
 * said so), or, when the edit does not build, the run stops before any test
 * with a message that says why. A second run of an unchanged tree rewrites
 * no bundle, and a stale chunk left in servers/ is removed.
 *
 * The edit is to src/version.ts, whose version the doctor prints
 * (`doctor --json`), a bundle no test of the copy runs in-process.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';

/** Long enough for a cold vitest and a full build on a loaded 2-core machine. */
const RUN_MS = 120_000;

const PROBE_TEST = `import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('the built doctor reports the version src/version.ts has now', () => {
  writeFileSync(join(process.cwd(), 'probe-ran'), '');
  const home = mkdtempSync(join(tmpdir(), 'ov-probe-home-'));
  // No server listens there: the doctor fails its checks (exit 1) and still reports the version.
  const doctor = spawnSync(process.execPath, ['scripts/hook.mjs', 'doctor', '--json'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' },
  });
  expect(doctor.stdout).toContain(process.env.PROBE_VERSION);
});
`;

/** src/version.ts with `version` in place of the manifest's. */
const versionSource = (version: string) =>
  `export const PLUGIN_VERSION: string = ${JSON.stringify(version)};\n` +
  'export const USER_AGENT = `openviking-codebuddy/${PLUGIN_VERSION}`;\n';

let copy = '';

/** The repository's files (tracked, and untracked ones git does not ignore), its node_modules linked package by package. */
function privateCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'ov-repo-copy-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(REPO_ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(root, file));
  }
  // A folder of its own, so vitest's cache (node_modules/.vite) is the copy's, not this checkout's.
  mkdirSync(join(root, 'node_modules'));
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules')))
    if (name !== '.vite') symlinkSync(join(REPO_ROOT, 'node_modules', name), join(root, 'node_modules', name));
  writeFileSync(join(root, 'tests', 'probe.test.ts'), PROBE_TEST);
  return root;
}

/** `vitest run tests/probe.test.ts` in the copy, with `version` the one the probe expects. */
async function runProbe(version: string) {
  rmSync(join(copy, 'probe-ran'), { force: true });
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
  );
  const run = await runProcess(
    process.execPath,
    [join(copy, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'tests/probe.test.ts'],
    { cwd: copy, env: { ...env, PROBE_VERSION: version, FORCE_COLOR: '0', NO_COLOR: '1' }, timeoutMs: RUN_MS },
  );
  return { ...run, output: run.stdout + run.stderr, probeRan: existsSync(join(copy, 'probe-ran')) };
}

/** mtime of every file under the copy's scripts/, servers/ and hooks/register.mjs. */
function bundleTimes(): Map<string, number> {
  const times = new Map<string, number>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else times.set(path, statSync(path).mtimeMs);
    }
  };
  walk(join(copy, 'scripts'));
  walk(join(copy, 'servers'));
  times.set('hooks/register.mjs', statSync(join(copy, 'hooks', 'register.mjs')).mtimeMs);
  return times;
}

describe('a single test file run after an edit of src/', { timeout: 3 * RUN_MS }, () => {
  beforeAll(() => {
    copy = privateCopy();
  });
  afterAll(() => {
    if (copy !== '') rmSync(copy, { recursive: true, force: true });
  });

  it('tests the edit: the bundles are rebuilt first, and the run says so', async () => {
    const version = `9.9.9-edited-${process.pid}`;
    writeFileSync(join(copy, 'src', 'version.ts'), versionSource(version));
    const run = await runProbe(version);
    expect(run.output).toMatch(/bundles were stale: rebuilt [^\n]*scripts\/lazy\/doctor\.cjs/);
    expect(run.output).toMatch(/1 passed/);
    expect(run.exitCode).toBe(0);
  });

  it('an unchanged tree rewrites no bundle; a chunk or a lazy file no build makes is removed (ES or CommonJS)', async () => {
    const version = `9.9.9-edited-${process.pid}`;
    const stale = join(copy, 'servers', 'chunks', 'chunk-STALE0000.mjs');
    const staleLazy = join(copy, 'scripts', 'lazy', 'gone.cjs');
    writeFileSync(stale, 'export {};\n');
    writeFileSync(staleLazy, 'module.exports = {};\n');
    const before = bundleTimes();
    before.delete(stale);
    before.delete(staleLazy);
    const run = await runProbe(version);
    expect(run.output).toMatch(/bundles were stale: removed [^\n]*servers\/chunks\/chunk-STALE0000\.mjs/);
    expect(run.output).toMatch(/bundles were stale: removed [^\n]*scripts\/lazy\/gone\.cjs/);
    expect(run.output).not.toMatch(/rebuilt/);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staleLazy)).toBe(false);
    expect(bundleTimes()).toEqual(before);
    const again = await runProbe(version);
    expect(again.output).toMatch(/bundles fresh: src\/ builds to the files on disk/);
    expect(again.exitCode).toBe(0);
  });

  it('an edit that does not build stops the run before any test, saying why', async () => {
    writeFileSync(join(copy, 'src', 'version.ts'), 'export const PLUGIN_VERSION: string = ;\n');
    const run = await runProbe('never');
    expect(run.output).toMatch(/Not running the tests: src\/ does not build/);
    expect(run.output).toMatch(/src\/version\.ts/);
    expect(run.probeRan).toBe(false);
    expect(run.exitCode).not.toBe(0);
  });
});
