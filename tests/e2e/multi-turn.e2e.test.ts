/**
 * Scenario 2 — stream-json, three turns in one CLI session, the second one
 * spawning a sub-agent through the `Agent` tool: every turn lands in the main
 * OpenViking session exactly once and in order, and the sub-agent's
 * conversation lands in a session of its own.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ovSessionId } from '../../src/session/ids.js';
import { resolveDataDir } from '../../src/store/paths.js';
import { doorAnswers, recallAnsweredBy } from '../support/resident.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { startStreamSession, type CliRun, type StreamLine } from './support/cli.js';
import { countMessages, countOutsideMain, mainSessionOf, messageText } from './support/openviking.js';
import { hostSessionIdOf } from './support/observe.js';
import { afterToolResult, callTool, firstMatching, forPurpose, onPrompt } from './support/script.js';
import { createWorld, requirePluginBuild, type E2eWorld } from './support/world.js';

const TURNS = [
  'E2E-T1 remember that the build uses esbuild',
  'E2E-T2 ask a helper agent about the linker',
  'E2E-T3 thanks, that is all',
];
const REPLIES = ['E2E-R1 noted', 'E2E-R2 the helper answered', 'E2E-R3 you are welcome'];
const SUBAGENT_PROMPT = 'E2E-SUB-PROMPT explain the linker flags';
const SUBAGENT_REPLY = 'E2E-SUB-REPLY use -Wl,--gc-sections';

let world: E2eWorld;
let results: StreamLine[];
let run: CliRun;

beforeAll(async () => {
  requirePluginBuild();
  world = await createWorld(
    'multi-turn',
    firstMatching([
      onPrompt('E2E-T1', { text: REPLIES[0]! }),
      onPrompt(
        'E2E-T2',
        callTool('Agent', { description: 'linker helper', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose' }),
      ),
      afterToolResult({ text: REPLIES[1]! }),
      onPrompt('E2E-T3', { text: REPLIES[2]! }),
      forPurpose('subagent', { text: SUBAGENT_REPLY }),
    ]),
  );
  const session = startStreamSession(world.sandbox, { plugin: world.repoPlugin, env: world.pluginEnv });
  results = [];
  try {
    for (const turn of TURNS) results.push(await session.send(turn));
  } finally {
    run = await session.close();
  }
});

afterAll(async () => {
  await world?.dispose();
});

describe('scenario 2: stream-json, 3 turns and a sub-agent', () => {
  it('every turn gets a successful result in one CLI session, and the CLI exits cleanly', () => {
    expect(results.map((result) => result.subtype)).toEqual(['success', 'success', 'success']);
    expect(results.map((result) => result.result)).toEqual(REPLIES);
    expect(new Set(results.map((result) => result.session_id)).size).toBe(1);
    expect(run.exit.code, run.stderr).toBe(0);
    expect(world.model.calls('subagent')).toHaveLength(1);
  });

  it("SessionStart started the resident helper, and it answered the session's recall (DESIGN D16)", async () => {
    const lines = world
      .pluginDebugLog()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { pid: number; message: string } & Record<string, unknown>);
    expect(
      lines.find((line) => line.message === 'resident: listening'),
      world.evidence(),
    ).toBeDefined();
    // Its environment the same for every hook of the session, the prompts after the first came through its door, with no node (D45).
    expect(doorAnswers(lines, 'UserPromptSubmit'), world.evidence()).toBeGreaterThan(0);
    // The session's last recall (the third turn's), as its record says (`why`, doctor): the resident answered it.
    const session = ovSessionId(hostSessionIdOf(world.model.calls('conversation')[0]));
    expect(await recallAnsweredBy(resolveDataDir({}, world.sandbox.home), 0, session), world.evidence()).toBe(
      'resident',
    );
  });

  it('every turn lands in the main session exactly once, in order', async () => {
    const sessionId = hostSessionIdOf(world.model.calls('conversation')[0]);
    const main = () => mainSessionOf(world.ov, sessionId);
    const probes: Record<string, () => number> = {};
    for (let turn = 1; turn <= TURNS.length; turn++) {
      probes[`user E2E-T${turn}`] = () => countMessages(main(), 'user', `E2E-T${turn}`);
      probes[`assistant E2E-R${turn}`] = () => countMessages(main(), 'assistant', `E2E-R${turn}`);
    }
    expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));

    const order = (main()?.allMessages ?? [])
      .map((message) => /E2E-[TR]\d/.exec(messageText(message))?.[0])
      .filter((marker): marker is string => marker !== undefined);
    expect(order.filter((marker) => marker.startsWith('E2E-T'))).toEqual(['E2E-T1', 'E2E-T2', 'E2E-T3']);
    expect(order.filter((marker) => marker.startsWith('E2E-R'))).toEqual(['E2E-R1', 'E2E-R2', 'E2E-R3']);
  });

  it("the sub-agent's turn lands in a session other than the main one", async () => {
    const sessionId = hostSessionIdOf(world.model.calls('conversation')[0]);
    const probes = {
      'sub-agent reply outside the main session': () =>
        countOutsideMain(world.ov, sessionId, 'assistant', SUBAGENT_REPLY),
    };
    expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
  });
});
