/**
 * Claude Code scenario 2 — stream-json, three turns in one Claude Code
 * session, the second one starting a sub-agent through the `Agent` tool:
 * every turn lands in the main OpenViking session exactly once and in order,
 * and the sub-agent's conversation (its own transcript under
 * `<session>/subagents/`, delivered by SubagentStop) lands in a session of its
 * own. The Agent call asks for a foreground run (`run_in_background: false`):
 * 2.1.328 runs sub-agents in the background by default and reports their end
 * as an extra `<task-notification>` turn, which would shift the turn-by-turn
 * driver by one result. A second, `-p` session takes that default: the
 * host-written notification turn must not be captured as the user's (DESIGN
 * D22), and the background sub-agent still lands once in its own session.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { lastUserQuery, isAfterToolResult } from './support/chat-types.js';
import { runClaude, startClaudeStreamSession } from './support/claude-cli.js';
import type { CliRun, StreamLine } from './support/cli.js';
import {
  claudeSessionIdOf,
  createClaudeWorld,
  forEachClaudeVersion,
  type ClaudeWorld,
} from './support/claude-world.js';
import { countMessages, countOutsideMain, mainSessionOf, messageText } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';
import { afterToolResultOf, callTool, firstMatching, forPurpose, onPrompt } from './support/script.js';
import { expectNormalExit } from './support/expect-run.js';

const TURNS = [
  'E2E-CC-T1 remember that the build uses esbuild',
  'E2E-CC-T2 ask a helper agent about the linker',
  'E2E-CC-T3 thanks, that is all',
];
const REPLIES = ['E2E-CC-R1 noted', 'E2E-CC-R2 the helper answered', 'E2E-CC-R3 you are welcome'];
const SUBAGENT_PROMPT = 'E2E-CC-SUB-PROMPT explain the linker flags';
const SUBAGENT_REPLY = 'E2E-CC-SUB-REPLY use -Wl,--gc-sections';
const BACKGROUND_PROMPT = 'E2E-CC-BG start a background helper';
const BACKGROUND_SUB_REPLY = 'E2E-CC-BG-SUB-REPLY the cache is warm';
const BACKGROUND_NOTIFIED = 'E2E-CC-BG-NOTIFIED the helper is done';

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let results: StreamLine[];
  let run: CliRun;
  let background: CliRun;

  beforeAll(async () => {
    world = await createClaudeWorld(
      version,
      'multi-turn',
      firstMatching([
        onPrompt('<task-notification>', { text: BACKGROUND_NOTIFIED }),
        onPrompt(
          'E2E-CC-BG',
          callTool('Agent', {
            description: 'cache helper',
            prompt: 'E2E-CC-BG-SUB warm the cache',
            subagent_type: 'general-purpose',
          }),
        ),
        {
          when: (call) => isAfterToolResult(call) && lastUserQuery(call).includes('E2E-CC-BG'),
          reply: { text: 'E2E-CC-BG-R started' },
        },
        onPrompt('E2E-CC-BG-SUB', { text: BACKGROUND_SUB_REPLY }, 'subagent'),
        onPrompt('E2E-CC-T1', { text: REPLIES[0]! }),
        onPrompt(
          'E2E-CC-T2',
          callTool('Agent', {
            description: 'linker helper',
            prompt: SUBAGENT_PROMPT,
            subagent_type: 'general-purpose',
            run_in_background: false,
          }),
        ),
        afterToolResultOf('Agent', { text: REPLIES[1]! }),
        onPrompt('E2E-CC-T3', { text: REPLIES[2]! }),
        forPurpose('subagent', { text: SUBAGENT_REPLY }),
      ]),
    );
    const session = startClaudeStreamSession(world.sandbox, {
      pluginDirs: [REPO_ROOT],
      env: world.pluginEnv,
      allowedTools: ['Agent'],
    });
    results = [];
    try {
      for (const turn of TURNS) results.push(await session.send(turn));
    } finally {
      run = await session.close();
    }
    background = await runClaude(world.sandbox, BACKGROUND_PROMPT, {
      pluginDirs: [REPO_ROOT],
      env: world.pluginEnv,
      allowedTools: ['Agent'],
    });
  });

  afterAll(async () => {
    await world?.dispose();
  });

  describe('Claude Code scenario 2: stream-json, 3 turns and a sub-agent', () => {
    it('every turn gets a successful result in one CLI session, and the CLI exits cleanly', () => {
      expect(
        results.map((result) => result.subtype),
        world.evidence(),
      ).toEqual(['success', 'success', 'success']);
      expect(results.map((result) => result.result)).toEqual(REPLIES);
      expect(new Set(results.map((result) => result.session_id)).size).toBe(1);
      expect(run.exit.code, run.stderr).toBe(0);
      const streamSession = results[0]?.session_id;
      expect(
        world.model.calls('subagent').filter((call) => claudeSessionIdOf(call) === streamSession),
        world.evidence(),
      ).toHaveLength(1);
    });

    it('every turn lands in the main session exactly once, in order', async () => {
      const sessionId = claudeSessionIdOf(world.model.calls('conversation')[0]);
      const main = () => mainSessionOf(world.ov, sessionId);
      const probes: Record<string, () => number> = {};
      for (let turn = 1; turn <= TURNS.length; turn++) {
        probes[`user E2E-CC-T${turn}`] = () => countMessages(main(), 'user', `E2E-CC-T${turn}`);
        probes[`assistant E2E-CC-R${turn}`] = () => countMessages(main(), 'assistant', `E2E-CC-R${turn}`);
      }
      expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
      const order = (main()?.allMessages ?? [])
        .map((message) => /E2E-CC-[TR]\d/.exec(messageText(message))?.[0])
        .filter((marker): marker is string => marker !== undefined);
      expect(order.filter((marker) => marker.startsWith('E2E-CC-T'))).toEqual(['E2E-CC-T1', 'E2E-CC-T2', 'E2E-CC-T3']);
      expect(order.filter((marker) => marker.startsWith('E2E-CC-R'))).toEqual(['E2E-CC-R1', 'E2E-CC-R2', 'E2E-CC-R3']);
    });

    it("the sub-agent's turn lands in a session of its own, exactly once", async () => {
      const sessionId = claudeSessionIdOf(world.model.calls('conversation')[0]);
      const probes = {
        'sub-agent reply outside the main session': () =>
          countOutsideMain(world.ov, sessionId, 'assistant', SUBAGENT_REPLY),
      };
      expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
    });

    it('a background sub-agent (the default): the host-written <task-notification> turn is not captured as the user, the sub-agent lands once in its own session', async () => {
      expectNormalExit(background);
      const sessionId = claudeSessionIdOf(
        world.model.calls('conversation').find((call) => lastUserQuery(call).includes('E2E-CC-BG')),
      );
      const notified = world.model
        .calls('conversation')
        .some((call) => lastUserQuery(call).includes('<task-notification>') && claudeSessionIdOf(call) === sessionId);
      expect(notified, `the CLI did not deliver a task notification in this run\n${world.evidence()}`).toBe(true);
      const main = () => mainSessionOf(world.ov, sessionId);
      const probes = {
        'user prompt': () => countMessages(main(), 'user', 'E2E-CC-BG start'),
        'user <task-notification>': () => countMessages(main(), 'user', 'task-notification') + 1,
        'background sub-agent reply in its own session': () =>
          countOutsideMain(world.ov, sessionId, 'assistant', BACKGROUND_SUB_REPLY),
      };
      expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
    });
  });
});
