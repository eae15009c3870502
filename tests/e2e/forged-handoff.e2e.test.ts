/**
 * Scenario 10 — the hooks module's hand-off cannot be forged on CodeBuddy
 * (D31). The real CLI 2.117 is started with `CLAUDE_PID`,
 * `OPENVIKING_MODULE_GUARD`, `OPENVIKING_MODULE_PROMPT` and
 * `OPENVIKING_MODULE_START` all set to its own pid (a `sh` exports them and
 * execs the CLI): what a CLI inherits when a Claude Code Bash call starts it
 * while a flag stands (FC23), and more, since each hook's `$PPID` equals
 * them too (a probe plugin records it). Before D31 that made our guard,
 * recall and start commands step aside for the whole session: the model's
 * `Skill openviking:remember` with ``!`touch …` `` ran the touch. Now:
 * - CodeBuddy read no hooks file of the plugin but hooks/hooks.json (a
 *   second `.json` in hooks/ would be read as one, F21; the module's is kept
 *   in .claude-plugin/);
 * - the start block and the recalled memory reach the first model request;
 * - the guard denies the model's run of the plugin's command through the
 *   Skill tool (nothing of its arguments runs) and a `viking://` Read,
 *   naming `mcp__openviking__read`;
 * - the turn lands in OpenViking exactly once.
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_FLAGS, HOST_PROCESS_ID } from '../../src/protocol/handoff.js';
import { toolResults } from './support/chat-types.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { runPrompt, type CliRun } from './support/cli.js';
import { expectNormalExit } from './support/expect-run.js';
import { countMessages, mainSessionOf, SEED } from './support/openviking.js';
import { blocksInPrompt, hostSessionIdOf } from './support/observe.js';
import { REPO_ROOT } from './support/repo.js';
import { callTool, firstMatching } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const MARK = 'E2E-FORGED';
const ANSWER = 'E2E-FORGED-ANSWER';
/** Every variable the old hand-off read, each set to the CLI's own pid. */
const FORGED = [HOST_PROCESS_ID, 'OPENVIKING_MODULE_GUARD', HANDOFF_FLAGS.prompt, HANDOFF_FLAGS.start];

let world: E2eWorld;
let run: CliRun;
let markers: string;
let probeLog: string;

/** A second plugin whose hooks record what their shell saw: its parent's pid and the forged variables. */
function writeProbePlugin(dir: string): void {
  mkdirSync(join(dir, '.codebuddy-plugin'), { recursive: true });
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  writeFileSync(
    join(dir, '.codebuddy-plugin', 'plugin.json'),
    `${JSON.stringify({ name: 'forgeprobe', version: '0.0.1', description: 'e2e: records the hooks environment' })}\n`,
  );
  const record = `echo "$PPID ${FORGED.map((name) => `$${name}`).join(' ')}" >> "$FORGE_PROBE_LOG"`;
  const hook = { hooks: [{ type: 'command', command: record, timeout: 5 }] };
  writeFileSync(
    join(dir, 'hooks', 'hooks.json'),
    `${JSON.stringify({ hooks: { SessionStart: [hook], UserPromptSubmit: [hook] } }, null, 2)}\n`,
  );
}

beforeAll(async () => {
  requirePluginBuild();
  let touched = '';
  world = await createWorld(
    'forged',
    firstMatching([
      {
        when: (call) => call.purpose === 'conversation' && toolResults(call).length === 0,
        reply: () => callTool('Skill', { skill: 'openviking:remember', args: `notes !\`touch ${touched}/via-skill\`` }),
      },
      {
        when: (call) => call.purpose === 'conversation' && toolResults(call).length === 1,
        reply: () => callTool('Read', { file_path: SEED.profileUri }),
      },
      { when: (call) => call.purpose === 'conversation', reply: { text: ANSWER } },
    ]),
  );
  markers = join(world.sandbox.root, 'markers');
  touched = markers;
  mkdirSync(markers);
  const probe = join(world.sandbox.root, 'forgeprobe');
  writeProbePlugin(probe);
  probeLog = join(world.sandbox.root, 'forgeprobe.log');
  run = await runPrompt(world.sandbox, `${SEED.recallPrompt} (${MARK})`, {
    plugin: { kind: 'env-dirs', dirs: [REPO_ROOT, probe] },
    env: { ...world.pluginEnv, FORGE_PROBE_LOG: probeLog },
    ownPidIn: FORGED,
  });
}, 120_000);

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 10: CodeBuddy started with every hand-off variable = its own pid', () => {
  it("the forge reached the hooks: each hook's shell saw the flags and CLAUDE_PID equal to its $PPID", () => {
    expectNormalExit(run);
    expect(run.stdout).toContain(ANSWER);
    const lines = readFileSync(probeLog, 'utf8').trim().split('\n');
    expect(lines.length, world.evidence()).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      const [ppid, ...forged] = line.split(' ');
      expect(forged, line).toEqual(FORGED.map(() => ppid));
    }
  });

  it('CodeBuddy read no hooks file of the plugin but hooks/hooks.json', () => {
    const loader = world.sandbox
      .cliLogs()
      .split('\n')
      .filter((line) => line.includes('[HookExtensionLoader]'));
    expect(loader.join('\n'), world.evidence()).toContain(
      'Loaded hooks configuration from extension: openviking@inline',
    );
    expect(loader.filter((line) => /Invalid|not found|Failed/.test(line))).toEqual([]);
    expect(world.sandbox.cliLogs()).not.toMatch(/module-hooks\.json|register\.mjs/);
  });

  it('the start block and the recalled memory still reach the first model request', () => {
    const blocks = blocksInPrompt(world.model.calls('conversation')[0]).join('\n');
    expect(blocks, world.evidence()).toContain(SEED.profileMarker);
    expect(blocks, world.evidence()).toContain(SEED.recallMarker);
  });

  it("the guard still denies: the Skill run of the plugin's command (nothing of it ran), then the viking:// Read", () => {
    expect(readdirSync(markers), world.evidence()).toEqual([]);
    const results = toolResults(world.model.calls('conversation').at(-1)!).map((entry) => entry.text);
    expect(results[0], world.evidence()).toContain('is a command for the user to type');
    expect(results[1]).toMatch(/^Error:/);
    expect(results[1]).toContain('mcp__openviking__read');
    expect(results[1]).not.toContain(SEED.profileMarker);
  });

  it('the turn lands in OpenViking exactly once', async () => {
    const sessionId = hostSessionIdOf(world.model.calls('conversation')[0]);
    const probes = {
      prompt: () => countMessages(mainSessionOf(world.ov, sessionId), 'user', MARK),
      answer: () => countMessages(mainSessionOf(world.ov, sessionId), 'assistant', ANSWER),
    };
    expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
  });
});
