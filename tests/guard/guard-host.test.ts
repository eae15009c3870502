/**
 * The guard as the host runs it: hooks.json matcher → sh prefilter → built
 * bundle (run `npm run build` first). Same table as guard.test.ts, exact
 * stdout bytes, plus the prefilter's promise: no node process on the allow
 * path.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { DENY_CASES, PASS_CASES, denyBytes, expectHostStdout, expectedReason } from './cases.js';

const sandbox = mkdtempSync(join(tmpdir(), 'ov-guard-'));
const home = join(sandbox, 'home');
const workspace = join(sandbox, 'ws');
mkdirSync(workspace, { recursive: true });
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** A `node` first on PATH that records each start, then runs the real node. */
function nodeShim(): { binDir: string; marker: string } {
  const binDir = join(sandbox, 'bin');
  const marker = join(sandbox, 'node-started');
  mkdirSync(binDir, { recursive: true });
  writeFileSync(join(binDir, 'node'), `#!/bin/sh\necho started >> '${marker}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(join(binDir, 'node'), 0o755);
  return { binDir, marker };
}

const shim = nodeShim();
const simEnv = { PATH: `${shim.binDir}:${dirname(process.execPath)}:/usr/bin:/bin` };
const sim = createHostSim({ pluginRoot: REPO_ROOT, home, workspace, env: simEnv });
/** Claude Code: no text rewrite, /bin/sh, CLAUDE_* only, its matcher reading (host-sim `claude-code`). */
const claudeSim = createHostSim({ pluginRoot: REPO_ROOT, home, workspace, env: simEnv, host: 'claude-code' });

describe('guard through the host (matcher, prefilter, bundle)', () => {
  for (const [label, hostSim, hostVersion] of [
    ['CodeBuddy 2.117', sim, '2.117'],
    ['CodeBuddy 2.163', sim, '2.163'],
    ['Claude Code', claudeSim, '2.117'],
  ] as const) {
    const host = hostSim === claudeSim ? 'claude-code' : 'codebuddy';
    it(`${label}: denies every table case with the exact bytes`, async () => {
      const payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy'), hostVersion });
      // A few at a time: the host runs one PreToolUse at a time, and a flood of node starts on a
      // loaded 2-core machine can pass the guard's 3 s budget (it then fails open, correctly).
      const results = [];
      for (let i = 0; i < DENY_CASES.length; i += 3) {
        const batch = DENY_CASES.slice(i, i + 3);
        results.push(
          ...(await Promise.all(
            batch.map((c) => hostSim.fire('PreToolUse', payloads.preToolUse(c.toolName, c.toolInput))),
          )),
        );
      }
      results.forEach((result, i) => {
        const c = DENY_CASES[i];
        const reason = c && expectedReason(c, host);
        expect(result.hooks, c?.name).toHaveLength(1);
        expectHostStdout(result.hooks[0]?.process?.stdout, denyBytes(reason ?? ''), host, c?.name);
        expect(result.hooks[0]?.process?.exitCode, c?.name).toBe(0);
        expect(result.merged).toMatchObject({ decision: 'deny', reason });
      });
    }, 30_000);
  }

  it('passes every table case on both hosts: no output, and tools outside the matcher run no hook at all', async () => {
    const payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
    for (const c of [...PASS_CASES, ...PASS_CASES.map((p) => ({ ...p, claude: true }))]) {
      const result = await ('claude' in c ? claudeSim : sim).fire(
        'PreToolUse',
        payloads.preToolUse(c.toolName, c.toolInput),
      );
      const guarded = ['Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep'].includes(c.toolName);
      expect(result.hooks.length, c.name).toBe(guarded ? 1 : 0);
      expect(result.hooks[0]?.process?.stdout ?? '', c.name).toBe('');
      expect(result.merged.decision, c.name).toBe('none');
    }
  });

  it('the allow path never starts node; the deny path does (so the shim is live)', async () => {
    const payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
    rmSync(shim.marker, { force: true });
    for (const tool of ['Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'NotebookEdit', 'NotebookRead']) {
      const result = await sim.fire(
        'PreToolUse',
        payloads.preToolUse(tool, { file_path: '/ws/a.ts', content: 'x'.repeat(100_000) }),
      );
      expect(result.hooks[0]?.process?.exitCode, tool).toBe(0);
      expect(result.hooks[0]?.process?.stdout, tool).toBe('');
    }
    expect(existsSync(shim.marker)).toBe(false);
    await sim.fire('PreToolUse', payloads.preToolUse('Read', { file_path: 'viking://user/x.md' }));
    expect(readFileSync(shim.marker, 'utf8')).toBe('started\n');
  });

  it('a viking: mention outside path arguments reaches node but still passes', async () => {
    const payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
    const result = await sim.fire(
      'PreToolUse',
      payloads.preToolUse('Write', { file_path: '/ws/doc.md', content: 'VIKING://user is the root' }),
    );
    expect(result.hooks[0]?.process).toMatchObject({ exitCode: 0, stdout: '' });
  });
});
