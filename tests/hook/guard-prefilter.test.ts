/**
 * The PreToolUse prefilter (hooks/guard-prefilter.sh) run by the real
 * hooks.json command, through the host simulator (`$SHELL -c`, placeholders
 * substituted, the plugin variables exported) against the BUILT bundle (run
 * `npm run build` first): what the host gets back, whether node was started
 * at all (a `node` shim first on PATH records each start), and whether the
 * payload reaches node byte for byte (plus the one newline its here-document
 * ends with, which JSON ignores).
 */
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { MAX_STDIN_BYTES } from '../../src/protocol/stdin.js';
import type { HookInput } from '../../src/protocol/input.js';
import { guardDecision } from '../../src/stages/guardRule.js';
import { DENY_CASES, denyBytes, expectHostStdout, expectedReason } from '../guard/cases.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import type { FireResult, HostSimOptions } from '../support/host-sim/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const sandbox = mkdtempSync(join(tmpdir(), 'ov-prefilter-'));
const home = join(sandbox, 'home');
const workspace = join(sandbox, 'ws');
mkdirSync(workspace, { recursive: true });
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** A `node` first on PATH that records each start, then runs the real node. */
const binDir = join(sandbox, 'bin');
const marker = join(sandbox, 'node-started');
mkdirSync(binDir);
writeFileSync(join(binDir, 'node'), `#!/bin/sh\necho started >> '${marker}'\nexec '${process.execPath}' "$@"\n`);
chmodSync(join(binDir, 'node'), 0o755);
const nodeStarts = (): number =>
  existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).length : 0;
beforeEach(() => rmSync(marker, { force: true }));

const PATH = `${binDir}:${dirname(process.execPath)}:/usr/bin:/bin`;
const simFor = (pluginRoot: string, shell?: string) => {
  const options: HostSimOptions = { pluginRoot, home, workspace, env: { PATH } };
  return createHostSim(shell === undefined ? options : { ...options, shell });
};
const payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
const DENY = DENY_CASES[0];
if (!DENY) throw new Error('tests/guard/cases.ts has no deny case');
const denyPayload = payloads.preToolUse(DENY.toolName, DENY.toolInput);
const DENY_REASON = expectedReason(DENY, 'codebuddy') ?? '';
const CLAUDE_DENY_REASON = expectedReason(DENY, 'claude-code') ?? '';

/** A plugin directory at `path`: hooks/ copied (hooks.json and the prefilter), scripts/ copied or its hook entry given. */
function pluginAt(path: string, hookEntry?: string): string {
  mkdirSync(join(path, 'hooks'), { recursive: true });
  for (const file of ['hooks.json', 'guard-prefilter.sh'])
    copyFileSync(join(REPO_ROOT, 'hooks', file), join(path, 'hooks', file));
  if (hookEntry === undefined) cpSync(join(REPO_ROOT, 'scripts'), join(path, 'scripts'), { recursive: true });
  else {
    mkdirSync(join(path, 'scripts'), { recursive: true });
    writeFileSync(join(path, HOOK_ENTRY), hookEntry);
  }
  return path;
}

/** The one hook PreToolUse ran: exit 0, not killed, and its exact stdout. */
function onlyHook(result: FireResult): { stdout: string; stderr: string } {
  expect(result.hooks).toHaveLength(1);
  const run = result.hooks[0]?.process;
  expect(run?.exitCode, run?.stderr).toBe(0);
  expect(result.timedOut).toBe(false);
  return { stdout: run?.stdout ?? '', stderr: run?.stderr ?? '' };
}

describe('guard prefilter through the real hooks.json command', () => {
  const sim = simFor(REPO_ROOT);

  it('runs sh on the prefilter file inside the plugin root, with no hand-off test before it (D31)', async () => {
    const result = await sim.fire('PreToolUse', payloads.preToolUse('Read', { file_path: '/ws/a.ts' }));
    expect(result.hooks[0]?.command).toBe(`sh "${REPO_ROOT}/hooks/guard-prefilter.sh"`);
  });

  it('an allow: exit 0, zero bytes on stdout and stderr, node never started', async () => {
    for (const payload of [
      payloads.preToolUse('Read', { file_path: join(workspace, 'src', 'index.ts') }),
      payloads.preToolUse('Write', { file_path: join(workspace, 'big.txt'), content: 'x'.repeat(1024 * 1024) }),
      payloads.preToolUse('Grep', { pattern: 'viking', path: 'src' }),
    ]) {
      expect(onlyHook(await sim.fire('PreToolUse', payload))).toEqual({ stdout: '', stderr: '' });
    }
    expect(nodeStarts()).toBe(0);
  });

  it("a deny: the dispatcher's exact deny envelope, from one node start", async () => {
    const result = await sim.fire('PreToolUse', denyPayload);
    expectHostStdout(onlyHook(result).stdout, denyBytes(DENY_REASON), 'codebuddy');
    expect(result.merged).toMatchObject({ decision: 'deny', reason: DENY_REASON });
    expect(nodeStarts()).toBe(1);
  });

  it('an empty stdin: exit 0, no output, node never started', async () => {
    expect(onlyHook(await sim.fire('PreToolUse', {}, { stdin: '', matchQuery: 'Read' }))).toEqual({
      stdout: '',
      stderr: '',
    });
    expect(nodeStarts()).toBe(0);
  });

  it("the size bound is the dispatcher's: 4 MiB - 1 (plus the here-document's newline) reaches node and is denied; one byte more exits at once, node never started", async () => {
    const sized = (bytes: number): string => {
      const skeleton = JSON.stringify(payloads.preToolUse('Write', { file_path: 'viking://user/x.md', content: '' }));
      const text = JSON.stringify(
        payloads.preToolUse('Write', {
          file_path: 'viking://user/x.md',
          content: 'x'.repeat(bytes - Buffer.byteLength(skeleton)),
        }),
      );
      expect(Buffer.byteLength(text)).toBe(bytes);
      return text;
    };
    const atBound = await sim.fire('PreToolUse', {}, { stdin: sized(MAX_STDIN_BYTES - 1), matchQuery: 'Write' });
    expect(onlyHook(atBound).stdout).toContain('"permissionDecision":"deny"');
    expect(nodeStarts()).toBe(1);

    rmSync(marker, { force: true });
    for (const bytes of [MAX_STDIN_BYTES, MAX_STDIN_BYTES + 1024 * 1024]) {
      const over = await sim.fire('PreToolUse', {}, { stdin: sized(bytes), matchQuery: 'Write' });
      expect(onlyHook(over), `${bytes} bytes`).toEqual({ stdout: '', stderr: '' });
      expect(over.durationMs, `${bytes} bytes`).toBeLessThan(2_000);
    }
    expect(nodeStarts()).toBe(0);
  });

  it('quotes, backslashes, $, backticks and non-ASCII in the payload reach node unchanged: the deny reason echoes the URI', async () => {
    // The guard's URI ends at whitespace, quotes and backticks, so those ride in the content (the recorder test below checks those byte for byte).
    const uri = 'viking://user/a\\b\\\\c$HOME$(id)%s%d-ünï✓𝄞.md';
    const input = payloads.preToolUse('Write', { file_path: uri, content: 'it\'s `id` "$HOME" \\ \\n ü ✓ 𝄞' });
    const expected = guardDecision(input as unknown as HookInput);
    expect(expected.kind).toBe('deny');
    const reason = expected.kind === 'deny' ? expected.reason : '';
    expect(reason).toContain(`${uri} is an OpenViking URI`);
    expectHostStdout(onlyHook(await sim.fire('PreToolUse', input)).stdout, denyBytes(reason), 'codebuddy');
  });
});

describe('guard prefilter with an awkward plugin root', () => {
  /** A space and a single quote in the root: the prefilter finds the dispatcher from its own path. */
  const awkward = pluginAt(join(sandbox, "it's a plugin"));

  // CodeBuddy writes the root into the command text and runs the user's $SHELL (fish and zsh
  // included); Claude Code runs /bin/sh, which expands ${CLAUDE_PLUGIN_ROOT}. A `${VAR:-…}` form
  // is a fish syntax error, and an unquoted `'` in a fallback word was a bash one (DESIGN D10, D23).
  for (const host of ['codebuddy', 'claude-code'] as const) {
    for (const shell of ['/bin/sh', '/bin/bash', '/usr/bin/zsh', '/usr/bin/fish']) {
      it(`still reaches the real dispatcher (${host}, SHELL=${shell})`, async () => {
        const result = await createHostSim({ pluginRoot: awkward, home, workspace, env: { PATH }, shell, host }).fire(
          'PreToolUse',
          denyPayload,
        );
        expectHostStdout(
          onlyHook(result).stdout,
          denyBytes(host === 'claude-code' ? CLAUDE_DENY_REASON : DENY_REASON),
          host,
        );
        expect(nodeStarts()).toBe(1);
      });
    }
  }

  it('hands node the exact payload bytes (a recording dispatcher in a root with a space and a quote)', async () => {
    const recorded = join(sandbox, 'received.bin');
    const recorder = pluginAt(
      join(sandbox, "rec 'root' dir"),
      `const { readFileSync, writeFileSync } = require('node:fs');\nwriteFileSync(${JSON.stringify(recorded)}, readFileSync(0));\n`,
    );
    const payload = payloads.preToolUse('Write', {
      file_path: "viking://user/it's \\ $HOME `id` ünï ✓ 𝄞.md",
      content: 'a\'b\\c$d`e`f "q" %s %d\\n ü\u00e9\u4e2d\ud83c\udf89 \u0001 end',
    });
    const stdin = Buffer.from(JSON.stringify(payload));
    rmSync(recorded, { force: true });
    const result = await simFor(recorder, '/bin/sh').fire('PreToolUse', payload, { stdin });
    expect(onlyHook(result)).toEqual({ stdout: '', stderr: '' });
    // The here-document that hands the payload over ends with one newline.
    expect(readFileSync(recorded).equals(Buffer.concat([stdin, Buffer.from('\n')]))).toBe(true);
  });
});
