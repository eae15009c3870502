/**
 * Claude Code scenario 8 — a hooks module the host unloads with a guard flag
 * standing leaves no call unguarded (D31), on each pinned version, headless.
 * A copy of the plugin whose guard, on a Read of `wedge.txt`, sets
 * `OPENVIKING_MODULE_GUARD` to the host's `CLAUDE_PID` (the flag the guard's
 * hand-off held for a whole `tool.call` before D31) and then spins
 * (support/throwing-module.ts): the host finds its worker wedged and unloads
 * the module for the rest of the session, the variable still set (FC13).
 * The model then reads a `viking://` URI and a local file:
 * - the flag stood in every later hook's environment (the probe plugin's
 *   record) and named the host, so the old hook command (`$F = $CLAUDE_PID`)
 *   would have stepped aside;
 * - our PreToolUse command ran for the viking Read and denied it with the
 *   guard's reason (its prefilter started node); the local Read ran;
 * - the turn lands in OpenViking exactly once.
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardDenyReason } from '../../src/stages/guardRule.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { lastUserQuery, toolResults, type ModelCall } from './support/chat-types.js';
import { runClaude } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import {
  claudeSessionIdOf,
  createClaudeWorld,
  forEachClaudeVersion,
  type ClaudeWorld,
} from './support/claude-world.js';
import { createExecProbe, isDispatcherRun, type ExecProbe } from './support/exec-probe.js';
import { expectNormalExit } from './support/expect-run.js';
import { countMessages, mainSessionOf, SEED } from './support/openviking.js';
import { MODULE_WEDGE_MARK, writeWedgingPluginCopy } from './support/throwing-module.js';

const MARK = 'E2E-UNLOAD';
const ANSWER = 'E2E-UNLOAD-ANSWER';
const LOCAL_TEXT = 'E2E-UNLOAD-LOCAL-TEXT';
const REASON = guardDenyReason('Read', { file_path: SEED.profileUri }, 'claude-code') ?? '';

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let run: CliRun;
  let log = '';
  let exec: ExecProbe;

  function script(call: ModelCall) {
    if (call.purpose !== 'conversation' || !lastUserQuery(call).includes(MARK)) return undefined;
    const done = toolResults(call).length;
    const read = (file_path: string) => ({ toolCalls: [{ name: 'Read', args: { file_path } }] });
    if (done === 0) return read(join(world.sandbox.workspace, 'wedge.txt'));
    if (done === 1) return read(SEED.profileUri);
    if (done === 2) return read(join(world.sandbox.workspace, 'notes.txt'));
    return { text: ANSWER };
  }

  beforeAll(async () => {
    world = await createClaudeWorld(version, 'unload', script);
    writeFileSync(join(world.sandbox.workspace, 'wedge.txt'), 'wedge\n');
    writeFileSync(join(world.sandbox.workspace, 'notes.txt'), `${LOCAL_TEXT}\n`);
    const wedging = join(world.sandbox.root, 'wedging-plugin');
    await writeWedgingPluginCopy(wedging);
    exec = createExecProbe(join(world.sandbox.root, 'exec'));
    const logFile = join(world.sandbox.root, 'debug.txt');
    run = await runClaude(world.sandbox, `${MARK} read my files`, {
      pluginDirs: [wedging, world.envProbeDir],
      env: { ...world.pluginEnv, PATH: exec.path(world.sandbox.env().PATH ?? '') },
      allowedTools: ['Read'],
      args: ['--debug-file', logFile],
      timeoutMs: 90_000,
    });
    log = readFileSync(logFile, 'utf8');
  }, 150_000);

  afterAll(async () => {
    await world?.dispose();
  });

  const sessionId = () => claudeSessionIdOf(world.model.calls('conversation')[0]);
  const readsProbed = () =>
    world
      .envProbe()
      .filter(
        (record) =>
          record.event === 'PreToolUse' && record.stdin.session_id === sessionId() && record.stdin.tool_name === 'Read',
      );

  describe('the module unloaded with its guard flag set', () => {
    it('the host unloads the wedged module; the flag, naming the host, stands in every later hook', () => {
      expectNormalExit(run);
      expect(run.stdout, world.evidence()).toContain(ANSWER);
      const pid = new RegExp(`${MODULE_WEDGE_MARK}: OPENVIKING_MODULE_GUARD=(\\d+)`).exec(log)?.[1];
      expect(pid, log.slice(-4000)).toBeDefined();
      expect(log).toMatch(/openviking was unloaded: it crashed the hooks worker/);
      const later = readsProbed().slice(1);
      expect(later.map((record) => record.stdin.tool_input)).toHaveLength(2);
      for (const record of later) {
        expect(record.env.OPENVIKING_MODULE_GUARD).toBe(pid);
        expect(record.env.CLAUDE_PID).toBe(pid);
      }
    });

    it("the next viking:// Read is still guarded: our hook command denies it with the guard's reason", () => {
      const [, viking, local] = toolResults(world.model.calls('conversation').at(-1)!).map((result) => result.text);
      expect(viking, world.evidence()).toContain(REASON);
      expect(viking).not.toContain(SEED.profileMarker);
      expect(local).toContain(LOCAL_TEXT);
      // The prefilter ran for every Read after the unload, and started node for the viking one.
      const prefilter = exec
        .lines()
        .filter((line) => line.startsWith('sh ') && line.endsWith('hooks/guard-prefilter.sh'));
      expect(prefilter.length, exec.lines().join('\n')).toBeGreaterThanOrEqual(2);
      expect(exec.lines().filter(isDispatcherRun).length).toBeGreaterThanOrEqual(1);
    });

    it('the turn lands in OpenViking exactly once', async () => {
      const probes = {
        prompt: () => countMessages(mainSessionOf(world.ov, sessionId()), 'user', MARK),
        answer: () => countMessages(mainSessionOf(world.ov, sessionId()), 'assistant', ANSWER),
      };
      expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
    });
  });
});
