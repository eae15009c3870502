/**
 * Claude Code scenario 5 — the plugin's hooks module (hooks/register.mjs,
 * D30) in the real CLI, headless, on each pinned version. One world,
 * three `claude -p` sessions, each asking what recall finds, reading a
 * `viking://` URI, then a file of the workspace, then writing 200 KB:
 * - module on (the default): the host reads the hooks file the Claude Code
 *   manifest names (.claude-plugin/module-hooks.json, D31) and loads the module from
 *   it (`hooks module openviking@inline loaded`), hooks.json's commands
 *   beside it; the module reads the profile and recalls:
 *   the first model request carries both, after one profile read and one
 *   search; our UserPromptSubmit command steps aside in its `sh` (the host
 *   still spawns `/bin/sh -c` for it) and no node of the plugin runs on the
 *   host's clock, the start's housekeeping running detached; the
 *   viking Read is refused in `tool.call` with the guard's reason, before any
 *   PreToolUse hook (ours, the other plugin's) starts; the allowed calls run
 *   everyone's PreToolUse hooks, ours its prefilter (no hand-off for the
 *   guard, D31), which starts no node for them. An exec probe (shims for
 *   node, sh and head first on PATH) shows which of the plugin's programs
 *   ran.
 * - `OPENVIKING_MODULE=off` (in `~/.claude/settings.json`'s `env`, as the
 *   README says): the hook commands do everything: the same profile and
 *   recall in the first request, the shell guard denies the same Read with
 *   the same reason, its prefilter runs for both Reads, PreToolUse gets the
 *   path Claude Code made absolute (host fact F11).
 * - a module whose start, recall and guard throw (a test-only copy,
 *   support/throwing-module.ts): the host logs each failure and the hook
 *   commands do the same work in its place, once.
 * Each session's turn lands in OpenViking exactly once.
 *
 * @module
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STDIN_BYTES } from '../../src/protocol/stdin.js';
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
import { countMessages, mainSessionOf, SEED, type OvServer } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';
import { MODULE_THROW_MARK, writeThrowingPluginCopy } from './support/throwing-module.js';

const MODES = ['ON', 'OFF', 'THROW'] as const;
type Mode = (typeof MODES)[number];
const LOCAL_TEXT = 'E2E-MOD-LOCAL-FILE-TEXT';
/** What the model reads when the guard refuses the viking Read, whichever path refused it. */
const REASON = guardDenyReason('Read', { file_path: SEED.profileUri }, 'claude-code') ?? '';

interface Session {
  run: CliRun;
  log: string;
  exec: ExecProbe;
  /** The test server's requests during the run. */
  requests: ReturnType<OvServer['requests']>;
}

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  const sessions = {} as Record<Mode, Session>;

  /** The model's side: viking Read, then the local file, then an answer naming the mode. */
  function script(call: ModelCall) {
    if (call.purpose !== 'conversation') return undefined;
    const mode = /E2E-MOD-(ON|OFF|THROW)/.exec(lastUserQuery(call))?.[1];
    if (mode === undefined) return undefined;
    const done = toolResults(call).length;
    if (done === 0) return { toolCalls: [{ name: 'Read', args: { file_path: SEED.profileUri } }] };
    if (done === 1)
      return { toolCalls: [{ name: 'Read', args: { file_path: join(world.sandbox.workspace, 'notes.txt') } }] };
    // A payload past the pipe's buffer: a hook that steps aside without reading its stdin must not fail the call.
    if (done === 2)
      return {
        toolCalls: [
          {
            name: 'Write',
            args: { file_path: join(world.sandbox.workspace, `big-${mode}.txt`), content: 'x'.repeat(200_000) },
          },
        ],
      };
    return { text: `E2E-MOD-ANSWER-${mode}` };
  }

  beforeAll(async () => {
    world = await createClaudeWorld(version, 'module', script);
    writeFileSync(join(world.sandbox.workspace, 'notes.txt'), `${LOCAL_TEXT}\n`);
    const throwing = join(world.sandbox.root, 'throwing-plugin');
    await writeThrowingPluginCopy(throwing);
    for (const mode of MODES) {
      const exec = createExecProbe(join(world.sandbox.root, `exec-${mode}`));
      const logFile = join(world.sandbox.root, `debug-${mode}.txt`);
      const env = { ...world.pluginEnv, PATH: exec.path(world.sandbox.env().PATH ?? '') };
      // Off the way the README says: the `env` block of ~/.claude/settings.json, which Claude Code applies to its own environment.
      const settings = join(world.sandbox.configDir, 'settings.json');
      if (mode === 'OFF') writeFileSync(settings, `${JSON.stringify({ env: { OPENVIKING_MODULE: 'off' } })}\n`);
      world.ov.clearRequests();
      const run = await runClaude(
        world.sandbox,
        `E2E-MOD-${mode} ${SEED.recallPrompt} Then read my profile and my notes.`,
        {
          pluginDirs: [mode === 'THROW' ? throwing : REPO_ROOT, world.envProbeDir],
          env,
          allowedTools: ['Read', 'Write'],
          args: ['--debug-file', logFile],
        },
      );
      if (mode === 'OFF') rmSync(settings);
      sessions[mode] = { run, log: readLog(logFile), exec, requests: world.ov.requests() };
    }
  });

  afterAll(async () => {
    await world?.dispose();
  });

  function readLog(path: string): string {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  }

  function callsOf(mode: Mode): ModelCall[] {
    return world.model.calls('conversation').filter((call) => lastUserQuery(call).includes(`E2E-MOD-${mode}`));
  }

  /** The tool results the model read in `mode`'s session: [viking Read, local Read]. */
  function readResults(mode: Mode): string[] {
    return toolResults(callsOf(mode).at(-1) ?? ({ messages: [] } as unknown as ModelCall)).map((result) => result.text);
  }

  /** Our plugin's PreToolUse hook lines (of `tool`) in a debug log. */
  const ourPreToolUse = (log: string, tool = 'Read') =>
    log
      .split('\n')
      .filter((line) =>
        new RegExp(`Hooks: PreToolUse:${tool} \\[.*\\] \\(plugin openviking@inline\\) finished`).test(line),
      );
  const prefilterRuns = (exec: ExecProbe) =>
    exec.lines().filter((line) => line.startsWith('sh ') && line.endsWith('hooks/guard-prefilter.sh'));
  /** Dispatcher starts other than the detached capture workers. */
  const dispatcherRuns = (exec: ExecProbe) => exec.lines().filter(isDispatcherRun);
  /** The first model request's system entries: where Claude Code puts hook context (FC3). */
  const firstRequest = (mode: Mode) => JSON.stringify(callsOf(mode)[0] ?? {});
  const searches = (mode: Mode) =>
    sessions[mode].requests.filter((request) => request.method === 'POST' && request.path === '/api/v1/search/search');
  const profileReads = (mode: Mode) =>
    sessions[mode].requests.filter(
      (request) => request.path === '/api/v1/content/read' && String(request.query.uri).endsWith('/profile.md'),
    );
  const ourPromptHook = (log: string) =>
    log.split('\n').filter((line) => /Hooks: UserPromptSubmit \[.*\] \(plugin openviking@inline\) finished/.test(line));
  const envProbePreToolUse = (sessionId: string) =>
    world
      .envProbe()
      .filter(
        (record) =>
          record.event === 'PreToolUse' && record.stdin.session_id === sessionId && record.stdin.tool_name === 'Read',
      );

  describe('module on (the default)', () => {
    it('the CLI finishes normally, the host loads the module from the manifest hooks file, and the turn answers', () => {
      expectNormalExit(sessions.ON.run);
      expect(sessions.ON.run.stdout, world.evidence()).toContain('E2E-MOD-ANSWER-ON');
      expect(sessions.ON.log).toContain(
        'Read manifest hooks for plugin openviking (enabled=true): ./.claude-plugin/module-hooks.json',
      );
      expect(sessions.ON.log).toMatch(
        /Read hooks\.json for plugin openviking \(enabled=true\): \S+\/hooks\/hooks\.json/,
      );
      expect(sessions.ON.log).not.toMatch(/names one hooks module per plugin/);
      expect(sessions.ON.log).toMatch(
        /hooks module openviking@inline loaded \(worker, environment \d+, tier user\); events: tool\.call,session\.start,command\.run,classic\.SessionStart,classic\.UserPromptSubmit,session\.append,turn\.complete,ui\.render/,
      );
    });

    it('the first model request carries the profile and the recalled memory: one profile read, one search', () => {
      expect(firstRequest('ON'), world.evidence()).toContain(SEED.profileMarker);
      expect(firstRequest('ON')).toContain(SEED.recallMarker);
      expect(profileReads('ON')).toHaveLength(1);
      expect(searches('ON')).toHaveLength(1);
      expect(sessions.ON.log).toMatch(/hooks module openviking@inline classic\.UserPromptSubmit settled in [\d.]+ms/);
    });

    it('our UserPromptSubmit command ran and stepped aside in its sh (status 0), before node', () => {
      expect(ourPromptHook(sessions.ON.log).join('\n')).toMatch(/finished with status 0/);
      expect(ourPromptHook(sessions.ON.log)).toHaveLength(1);
    });

    it("the viking:// Read is refused in tool.call with the guard's reason: no PreToolUse hook of anyone ran for it", () => {
      const [viking, local] = readResults('ON');
      expect(viking, world.evidence()).toBe(`<tool_use_error>${REASON}</tool_use_error>`);
      expect(local).toContain(LOCAL_TEXT);
      expect(sessions.ON.log).toMatch(/tool\.call Read \S+: resolved by a hooks module \(deny of \d+ chars/);
      // One PreToolUse of ours (the local Read) and one of the other plugin, for the local Read only.
      expect(ourPreToolUse(sessions.ON.log)).toHaveLength(1);
      const sessionId = claudeSessionIdOf(callsOf('ON')[0]);
      expect(
        envProbePreToolUse(sessionId).map((record) => (record.stdin.tool_input as { file_path?: string }).file_path),
      ).toEqual([join(world.sandbox.workspace, 'notes.txt')]);
    });

    it('a Write of 200 KB (past the pipe buffer): our prefilter reads it and passes, status 0, the file written', () => {
      expect(ourPreToolUse(sessions.ON.log, 'Write').join('\n')).toMatch(/finished with status 0/);
      expect(readFileSync(join(world.sandbox.workspace, 'big-ON.txt'), 'utf8')).toHaveLength(200_000);
    });

    it("no node of the plugin on the host's clock: the dispatcher only detached (the start's housekeeping, the captures); the prefilter for the allowed calls only", () => {
      expect(dispatcherRuns(sessions.ON.exec), sessions.ON.exec.lines().join('\n')).toEqual([]);
      expect(
        sessions.ON.exec.lines().filter((line) => /scripts\/hook\.cjs detached$/.test(line)).length,
      ).toBeGreaterThanOrEqual(2);
      // The local Read and the Write (the refused viking Read reached no hook), each with its read of the payload.
      expect(prefilterRuns(sessions.ON.exec), sessions.ON.exec.lines().join('\n')).toHaveLength(2);
      expect(sessions.ON.exec.lines().filter((line) => line === `head -c ${MAX_STDIN_BYTES}`)).toHaveLength(2);
      expect(sessions.OFF.exec.lines().filter((line) => line === `head -c ${MAX_STDIN_BYTES}`)).toHaveLength(3);
    });
  });

  describe('OPENVIKING_MODULE=off in settings.json env', () => {
    it('the hook commands read the profile and recall: the same first request, one profile read, one search', () => {
      expect(firstRequest('OFF'), world.evidence()).toContain(SEED.profileMarker);
      expect(firstRequest('OFF')).toContain(SEED.recallMarker);
      expect(profileReads('OFF')).toHaveLength(1);
      expect(searches('OFF')).toHaveLength(1);
    });

    it('the shell guard denies the same Read with the same reason; its prefilter runs for every call, node for the viking one', () => {
      expectNormalExit(sessions.OFF.run);
      const [viking, local] = readResults('OFF');
      expect(viking, world.evidence()).toContain(REASON);
      expect(viking).not.toContain('<tool_use_error>');
      expect(local).toContain(LOCAL_TEXT);
      expect(ourPreToolUse(sessions.OFF.log)).toHaveLength(2);
      expect(prefilterRuns(sessions.OFF.exec)).toHaveLength(3);
      expect(dispatcherRuns(sessions.OFF.exec)).toHaveLength(3);
    });

    it('PreToolUse receives the viking:// path made absolute against the workspace (host fact F11)', () => {
      const sessionId = claudeSessionIdOf(callsOf('OFF')[0]);
      expect(
        envProbePreToolUse(sessionId).map((record) => (record.stdin.tool_input as { file_path?: string }).file_path)[0],
      ).toBe(join(world.sandbox.workspace, 'viking:/user/default/memories/profile.md'));
    });
  });

  describe('a module whose start, recall and guard throw', () => {
    it('the host logs each failure and the hook commands start and recall in its place: the same first request, once', () => {
      expectNormalExit(sessions.THROW.run);
      for (const event of ['classic\\.SessionStart', 'classic\\.UserPromptSubmit', 'tool\\.call'])
        expect(sessions.THROW.log).toMatch(new RegExp(`${event}; skipped; what is below it ran in its place`));
      expect(firstRequest('THROW'), world.evidence()).toContain(SEED.profileMarker);
      expect(firstRequest('THROW')).toContain(SEED.recallMarker);
      expect(profileReads('THROW')).toHaveLength(1);
      expect(searches('THROW')).toHaveLength(1);
      expect(dispatcherRuns(sessions.THROW.exec), sessions.THROW.exec.lines().join('\n')).toHaveLength(3);
    });

    it("the shell guard denies with the same reason in the guard's place", () => {
      expect(sessions.THROW.log).toContain(MODULE_THROW_MARK);
      const [viking, local] = readResults('THROW');
      expect(viking, world.evidence()).toContain(REASON);
      expect(viking).not.toContain('<tool_use_error>');
      expect(local).toContain(LOCAL_TEXT);
      // Every guarded call runs our prefilter (the wrapped guard throws for Read only; the Write's passed the module).
      expect(prefilterRuns(sessions.THROW.exec)).toHaveLength(3);
    });
  });

  it('every session lands in OpenViking exactly once', async () => {
    const probes: Record<string, () => number> = {};
    for (const mode of MODES) {
      const sessionId = claudeSessionIdOf(callsOf(mode)[0]);
      probes[`${mode} prompt`] = () => countMessages(mainSessionOf(world.ov, sessionId), 'user', `E2E-MOD-${mode}`);
      probes[`${mode} answer`] = () =>
        countMessages(mainSessionOf(world.ov, sessionId), 'assistant', `E2E-MOD-ANSWER-${mode}`);
    }
    expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
  });
});
