/**
 * Recall in the hooks module when things go wrong (src/mod/recall.ts,
 * httpTransport.ts, classic.ts; D30), on the BUILT hooks/register.mjs with
 * this machine's files and sockets: a dead server and a server that never
 * answers are answers (no memories; the hook command still steps aside; a
 * hanging call is not repeated while it hangs); a module that cannot do its
 * part gives the prompt to the hook command for the rest of the session
 * (no flag, ever again): the prompt at hand too when its preparation
 * failed, from the next one on when its search failed (that ran beside
 * `next(e)`, where the hook command had stepped aside: the prompt goes
 * without recall); off, or with no hand-off (CodeBuddy's hook mark in the
 * CLI's environment, D31), the module only passes the prompt on and the
 * card reads the hook command's block.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEBUDDY_HOOK_MARK, HANDOFF_FLAGS } from '../../src/protocol/handoff.js';
import { blockMark, markKeyFile } from '../../src/recall/blockMark.js';
import { hostSleep } from '../support/mods-harness/hostIo.js';
import { RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import { beneath, CLAUDE_PID, createModWorld, promptEvent, type ModWorld } from './support/world.js';

const SEARCH = { method: 'POST', path: '/api/v1/search/search' };
const DEADLINE_MS = 400;

let world: ModWorld;

beforeAll(async () => {
  world = await createModWorld({ env: { OPENVIKING_PROMPT_DEADLINE_MS: String(DEADLINE_MS) } });
});
afterAll(async () => world.dispose());

describe('the server', () => {
  it('refuses the connection: no block, one attempt, the hook command still steps aside', async () => {
    const session = await world.session({ env: { OPENVIKING_URL: 'http://127.0.0.1:9' } });
    const under = beneath(session);
    const started = performance.now();
    const answer = await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT), under.run);
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS);
    expect(answer).toEqual({ additionalContext: ['OTHER-PLUGIN-CONTEXT'] });
    expect(session.calls.filter((call) => call.op === 'http.fetch')).toHaveLength(1);
    expect(under.seen[0]?.prompt).toBe(CLAUDE_PID);
  });

  it('never answers: no block at the deadline; while that call hangs, later prompts do not ask again', async () => {
    world.server.faults.hang(SEARCH);
    try {
      const session = await world.session({ sessionId: 'session-hang' });
      const under = beneath(session);
      const started = performance.now();
      const first = await session.fire(
        'classic.UserPromptSubmit',
        promptEvent(world, RECALL_PROMPT, 'session-hang'),
        under.run,
      );
      const took = performance.now() - started;
      expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(took).toBeLessThan(DEADLINE_MS + 1_000);
      expect(first).toEqual({ additionalContext: ['OTHER-PLUGIN-CONTEXT'] });
      const second = await session.fire(
        'classic.UserPromptSubmit',
        promptEvent(world, RECALL_PROMPT, 'session-hang'),
        under.run,
      );
      expect(second).toEqual({ additionalContext: ['OTHER-PLUGIN-CONTEXT'] });
      expect(session.calls.filter((call) => call.op === 'http.fetch')).toHaveLength(1);
      expect(under.seen.map((seen) => seen.prompt)).toEqual([CLAUDE_PID, CLAUDE_PID]);
    } finally {
      world.server.faults.clear();
      await world.server.stop();
      await world.server.start();
    }
  });
});

describe('a module that cannot do its part', () => {
  it('gives the prompt to the hook command for the rest of the session: no flag, no block of its own', async () => {
    // No HOME in the CLI's environment: the module cannot place the data directory.
    const session = await world.session({ env: { HOME: '' } });
    const under = beneath(session, { additionalContext: ['HOOK-COMMAND-BLOCK'] });
    for (let n = 0; n < 2; n++) {
      const answer = await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT), under.run);
      expect(answer).toEqual({ additionalContext: ['HOOK-COMMAND-BLOCK'] });
    }
    expect(under.seen.map((seen) => seen.prompt)).toEqual([undefined, undefined]);
    // The first prompt's flag went out beside its work and was cleared when the work failed; the second never wrote it.
    expect(
      session.calls
        .filter((call) => call.op === 'env.set' && call.args[0] === HANDOFF_FLAGS.prompt)
        .map((call) => call.args[1]),
    ).toEqual([CLAUDE_PID, undefined]);
    expect(session.logs.join('\n')).toMatch(
      /prompt in the module failed; the hook command does it for the rest of the session/,
    );
  });
});

describe('a module that cannot finish its part', () => {
  it('a $.fs call that never answers: within a second the prompt goes to the hook command, and stays there', async () => {
    const session = await world.session({ sessionId: 'session-stuck' });
    session.stub('fs.stat', () => new Promise(() => undefined));
    const under = beneath(session, { additionalContext: ['HOOK-COMMAND-BLOCK'] });
    const started = performance.now();
    expect(
      await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT, 'session-stuck'), under.run),
    ).toEqual({ additionalContext: ['HOOK-COMMAND-BLOCK'] });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(
      await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT, 'session-stuck'), under.run),
    ).toEqual({ additionalContext: ['HOOK-COMMAND-BLOCK'] });
    expect(under.seen.map((seen) => seen.prompt)).toEqual([undefined, undefined]);
    expect(session.logs.join('\n')).toMatch(/preparing recall took longer than 1000 ms/);
  });
});

describe('a search that fails after the hand-off', () => {
  it('costs that prompt its recall (the hook command has stepped aside), never the host; from the next prompt on the hook command does it', async () => {
    const session = await world.session({ sessionId: 'session-search-throws' });
    // The host refuses every sleep shorter than the preparation's bound: the preparation stands, and the search's
    // deadline passes at once, beside next(e) — a late search the module cannot take for an answer (it throws).
    session.stub('clock.sleep', (ms: number, options?: { signal?: AbortSignal }) =>
      ms >= 1_000 ? hostSleep(ms, options) : Promise.reject(new Error('refused')),
    );
    const under = beneath(session);
    const first = await session.fire(
      'classic.UserPromptSubmit',
      promptEvent(world, RECALL_PROMPT, 'session-search-throws'),
      under.run,
    );
    expect(first).toEqual({ additionalContext: ['OTHER-PLUGIN-CONTEXT'] });
    const second = await session.fire(
      'classic.UserPromptSubmit',
      promptEvent(world, RECALL_PROMPT, 'session-search-throws'),
      under.run,
    );
    expect(second).toEqual({ additionalContext: ['OTHER-PLUGIN-CONTEXT'] });
    // The first prompt's hook command stepped aside (the flag was set for its next(e)); the second ran it.
    expect(under.seen.map((seen) => seen.prompt)).toEqual([CLAUDE_PID, undefined]);
    expect(
      session.calls.filter(
        (call) => call.op === 'env.set' && call.args[0] === HANDOFF_FLAGS.prompt && call.args[1] === CLAUDE_PID,
      ),
    ).toHaveLength(1);
    expect(session.env.get(HANDOFF_FLAGS.prompt)).toBeUndefined();
    expect(session.logs.join('\n')).toMatch(
      /prompt in the module failed; the hook command does it for the rest of the session: recall ran past its deadline/,
    );
    // The search the module stopped waiting for still reaches the server: it lands before the next test reads the log.
    await session.settled();
  });
});

describe('the module passes the prompt on', () => {
  const body = `<memory uri="viking://user/default/memories/entities/default/osprey-deploy.md" type="entities" score="0.81">\n${RECALL_MARKER}\n</memory>`;
  // The hook command marks its block as ours with the data dir's key (recall/blockMark.ts): the card counts only such a block.
  const KEY = '00112233445566778899aabbccddeeff';
  const shellBlock = `<openviking-context source="recall" mark="${blockMark(KEY, 'cb-session-1', body)}">\n${body}\n</openviking-context>`;

  it('switched off: no file, network or flag call at all', async () => {
    const session = await world.session({ env: { OPENVIKING_MODULE: 'off' } });
    const under = beneath(session);
    await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT), under.run);
    expect(session.calls.map((call) => call.op).filter((op) => op !== 'env.get')).toEqual([]);
    expect(under.seen[0]?.prompt).toBeUndefined();
  });

  it("no hand-off (the CLI's environment holds CodeBuddy's hook mark): nothing sent, no flag, the card from the hook command's block", async () => {
    world.server.clearRequests();
    mkdirSync(world.dataDir, { recursive: true });
    writeFileSync(markKeyFile(world.dataDir), KEY);
    const session = await world.session({ env: { [CODEBUDDY_HOOK_MARK]: '/plugins/openviking' } });
    const under = beneath(session, { additionalContext: [shellBlock] });
    const answer = await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT), under.run);
    expect(answer).toEqual({ additionalContext: [shellBlock] });
    expect(world.server.requests()).toEqual([]);
    expect(
      session.calls.filter((call) => call.op.startsWith('http.') || call.op === 'env.set' || call.op === 'fs.write'),
    ).toEqual([]);
    // The one file looked at: the key that tells the hook command's block from another plugin's.
    expect(new Set(session.calls.filter((call) => call.op.startsWith('fs.')).map((call) => call.args[0]))).toEqual(
      new Set([markKeyFile(world.dataDir)]),
    );
    expect(under.seen[0]?.prompt).toBeUndefined();
    const turns = session.state.get('openviking/cardTurns')?.value as Array<{ recalled: unknown[] }>;
    expect(turns.at(-1)?.recalled).toEqual([
      { uri: 'viking://user/default/memories/entities/default/osprey-deploy.md', score: 0.81 },
    ]);
  });
});
