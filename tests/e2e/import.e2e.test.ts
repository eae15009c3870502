/**
 * Scenario 12 — importing past sessions on the real CLI 2.117 (DESIGN D35):
 * a session run without the plugin, one captured live by it, and one that
 * runs `/openviking:import --dry-run` (the command's inline `--status` step,
 * then the one Bash command the model makes of the options: nothing sent).
 * Then `node scripts/hook.mjs import` from a shell: the first session's real
 * transcript lands once in `cb-<its session id>`, the live-captured ones are
 * completed (committed), not sent again; every turn of the three exactly
 * once, each session committed. And the model cannot start an import: its
 * Skill call to `openviking:import` is refused (D27) and nothing runs.
 * Then the next session (D36): its start asks the server about one commit
 * task (the server extracts a memory per commit here) and says what it
 * taught; 2.117 headless shows a `systemMessage` nowhere, so the witness is
 * the status line (`learned N memories` for that session), and the model
 * never sees the line.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCall } from './support/chat-types.js';
import { lastUserQuery, lastUserText, toolResults } from './support/chat-types.js';
import { expectNormalExit } from './support/expect-run.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { countMessages } from './support/openviking.js';
import { hostSessionIdOf } from './support/observe.js';
import { afterToolResult, callTool, firstMatching, forPurpose } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';
import { runProcess, type ProcessRun } from '../support/spawn-hook.js';
import { REPO_ROOT } from './support/repo.js';
import { endedHoursAgo, importFromShell } from './support/import.js';

const DONE = 'E2E-IMPORT-COMMAND-DONE';

/** The one command import.md tells the model to build, for the options the user gave. */
function importCommand(call: ModelCall): string | undefined {
  const text = lastUserText(call);
  if (!text.includes('How an import here is doing')) return undefined;
  const base = /Start from `(node "[^"]+\/scripts\/hook\.mjs" import)`/.exec(text)?.[1];
  const options = /<options>\n([\s\S]*?)\n<\/options>/.exec(text)?.[1]?.trim() ?? '';
  return base === undefined ? undefined : `${base} ${options}`.trim();
}

let world: E2eWorld;
let plain: CliRun;
let live: CliRun;
let dryRun: CliRun;
let skill: CliRun;
let imported: ProcessRun;
let next: CliRun;
let taskRequestsOfNext = 0;
let nextStatusLine: ProcessRun;
let importRanBySkill = true;
let pathsDuringDryRun: string[] = [];

function sessionOfPrompt(marker: string): string {
  return hostSessionIdOf(world.model.calls('conversation').find((call) => lastUserQuery(call).includes(marker)));
}

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld(
    'import',
    firstMatching([
      {
        when: (call) =>
          call.purpose === 'conversation' && toolResults(call).length === 0 && importCommand(call) !== undefined,
        reply: (call) => callTool('Bash', { command: importCommand(call) ?? '', description: 'import' }),
      },
      {
        when: (call) =>
          call.purpose === 'conversation' &&
          toolResults(call).length === 0 &&
          lastUserQuery(call).includes('E2E-IMP-SKILL'),
        reply: () => callTool('Skill', { skill: 'openviking:import', args: '--all' }),
      },
      afterToolResult({ text: DONE }),
      forPurpose('conversation', (call: ModelCall) => ({
        text: `ANSWER-${/E2E-IMP-\d/.exec(lastUserQuery(call))?.[0] ?? 'other'}`,
      })),
    ]),
    { extractOnCommit: true },
  );
  plain = await runPrompt(world.sandbox, 'E2E-IMP-1 which build tool do we use', { plugin: { kind: 'none' } });
  live = await runPrompt(world.sandbox, 'E2E-IMP-2 and which test runner', {
    plugin: world.repoPlugin,
    env: world.pluginEnv,
  });
  // The two sessions ended two hours ago: not live any more (D35); the ones below are.
  endedHoursAgo(world.sandbox.transcripts());
  world.ov.clearRequests();
  dryRun = await runPrompt(world.sandbox, '/openviking:import --dry-run', {
    plugin: world.repoPlugin,
    env: world.pluginEnv,
  });
  pathsDuringDryRun = world.ov.requests().map((request) => request.path);
  skill = await runPrompt(world.sandbox, 'E2E-IMP-SKILL import everything for me', {
    plugin: world.repoPlugin,
    env: world.pluginEnv,
  });
  importRanBySkill = existsSync(join(world.sandbox.configDir, 'openviking', 'status', 'import.json'));
  // Now every session ended two hours ago.
  endedHoursAgo(world.sandbox.transcripts());
  imported = await importFromShell(world.sandbox, world.ov.url);
  // The next session: its start asks about the newest commit's task and says what it taught (D36).
  world.ov.clearRequests();
  next = await runPrompt(world.sandbox, 'E2E-IMP-3 anything new', { plugin: world.repoPlugin, env: world.pluginEnv });
  taskRequestsOfNext = world.ov.requests({ method: 'GET', path: /^\/api\/v1\/tasks\// }).length;
  const nextSession = sessionOfPrompt('E2E-IMP-3');
  nextStatusLine = await runProcess(process.execPath, [join(REPO_ROOT, 'scripts', 'statusline.mjs')], {
    stdin: JSON.stringify({ hook_event_name: 'Status', session_id: nextSession, cwd: world.sandbox.workspace }),
    env: { PATH: process.env.PATH, HOME: world.sandbox.home, NO_COLOR: '1' },
    cwd: world.sandbox.workspace,
    timeoutMs: 10_000,
  });
}, 360_000);

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 12: past sessions imported exactly once', () => {
  it('/openviking:import --dry-run: the inline status step, then the dry run the model ran, and nothing of the first session sent', () => {
    expectNormalExit(dryRun);
    const first = world.model.calls('conversation').find((call) => importCommand(call) !== undefined);
    expect(lastUserText(first!), world.evidence()).toContain('No import has run here yet.');
    const output = world.model
      .calls('conversation')
      .flatMap((call) => toolResults(call))
      .map((entry) => entry.text)
      .join('\n');
    expect(output, world.evidence()).toContain('OpenViking import, dry run (nothing is sent)');
    // The plain session whole; the one captured live has nothing left to send (it is only committed); this one is live.
    expect(output).toContain('in all: 2 sessions · 1 turns · 2 messages');
    expect(output).toContain('Would skip 1 session: 1 live');
    const firstSession = sessionOfPrompt('E2E-IMP-1');
    expect(pathsDuringDryRun.length).toBeGreaterThan(0);
    expect(pathsDuringDryRun.filter((path) => path.includes(firstSession))).toEqual([]);
  });

  it("the model's Skill call to openviking:import is refused and no import ran", () => {
    expectNormalExit(skill);
    const refused = world.model
      .calls('conversation')
      .flatMap((call) => toolResults(call))
      .map((entry) => entry.text)
      .join('\n');
    expect(refused, world.evidence()).toContain('/openviking:import is a command for the user to type');
    expect(importRanBySkill).toBe(false);
  });

  it("the shell import: the plain session's real transcript once in cb-<its id>, the live ones completed, not resent; all committed", () => {
    expectNormalExit(plain);
    expectNormalExit(live);
    expect(imported.exitCode, `${imported.stdout}${imported.stderr}\n${world.evidence()}`).toBe(0);
    // The plain session is sent; the three the plugin captured live (this very scenario's) are committed, nothing resent.
    expect(imported.stdout).toMatch(/imported 4 sessions · 1 turns · 2 messages/);
    for (const marker of ['E2E-IMP-1', 'E2E-IMP-2']) {
      const session = world.ov.session(`cb-${sessionOfPrompt(marker)}`);
      expect(countMessages(session, 'user', marker), `${marker}\n${world.evidence()}`).toBe(1);
      expect(countMessages(session, 'assistant', `ANSWER-${marker}`), marker).toBe(1);
      expect(
        session?.commits.filter((commit) => commit.status === 'accepted'),
        marker,
      ).toHaveLength(1);
      expect(session?.messages, marker).toEqual([]);
    }
  });

  it('the next session start asks about one commit task and says what it taught: the status line shows it, the model never sees it', () => {
    expectNormalExit(next);
    expect(taskRequestsOfNext, world.evidence()).toBe(1);
    expect(nextStatusLine.stdout.split('\n')[0], `${nextStatusLine.stdout}${nextStatusLine.stderr}`).toMatch(
      /· learned \d+ memor(y|ies)\b/,
    );
    const seen = JSON.stringify(world.model.calls('conversation').map((call) => call.messages));
    expect(seen).not.toContain('OpenViking learned');
  });
});
