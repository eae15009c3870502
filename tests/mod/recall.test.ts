/**
 * Recall in the hooks module (src/mod/prompt.ts, recall.ts; D30) on the BUILT
 * hooks/register.mjs, with this machine's files and the real test server
 * behind `$` (support/world.ts): the hook's own rules, one search, the block
 * appended to what everyone's hooks folded, the prompt flag set only while
 * `next(e)` runs, the records written after the answer; the skips and
 * switches under which nothing is sent; a dead or hanging server; a module
 * that fails handing the prompt to the hook commands for the session.
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_FLAGS } from '../../src/protocol/handoff.js';
import { ovSessionId } from '../../src/session/ids.js';
import { readWhy } from '../../src/why/record.js';
import { waitFor } from '../support/wait.js';
import { RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';
import { beneath, CLAUDE_PID, createModWorld, promptEvent, startEvent, type ModWorld } from './support/world.js';

const SEARCH = { method: 'POST', path: '/api/v1/search/search' };

let world: ModWorld;

beforeAll(async () => {
  world = await createModWorld({ env: { OPENVIKING_PROMPT_DEADLINE_MS: '600' } });
});
afterAll(async () => world.dispose());

/** The hook command's answer for the same prompt (the built scripts/hook.cjs, as Claude Code starts it). */
async function hookContext(event: Record<string, unknown>, env: Record<string, string> = {}): Promise<string> {
  const run = await spawnHook({
    stdin: JSON.stringify(event),
    cwd: world.workspace,
    env: {
      PATH: process.env.PATH,
      ...world.env,
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
      CLAUDE_PROJECT_DIR: world.workspace,
      CLAUDECODE: '1',
      OPENVIKING_RESIDENT: 'off',
      ...env,
    },
  });
  if (run.stdout.trim() === '') return '';
  return (
    (JSON.parse(run.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput
      ?.additionalContext ?? ''
  );
}

describe('recall in classic.UserPromptSubmit (Claude Code)', () => {
  it("one search, the block after everyone else's context, the flag only around next(e): the hook's own block and request", async () => {
    world.server.clearRequests();
    const session = await world.session();
    const under = beneath(session);
    const answer = (await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT), under.run)) as {
      additionalContext: string[];
    };
    const requests = world.server.requests(SEARCH);
    expect(requests).toHaveLength(1);
    expect(answer.additionalContext[0]).toBe('OTHER-PLUGIN-CONTEXT');
    expect(answer.additionalContext[1]).toContain(RECALL_MARKER);
    expect(answer.additionalContext).toHaveLength(2);
    expect(under.seen).toEqual([{ guard: undefined, prompt: CLAUDE_PID, start: undefined }]);
    expect(session.env.has(HANDOFF_FLAGS.prompt)).toBe(false);
    expect(session.unstubbed).toEqual([]);

    // The hook for the same prompt in another session (the server dedups a memory within one): the same block, the same request.
    world.server.clearRequests();
    const fromHook = await hookContext(promptEvent(world, RECALL_PROMPT, 'session-hook'));
    // Each marked as ours in its own session (recall/blockMark.ts): the same block but for the mark.
    const unmarked = (block: string | undefined) => block?.replace(/ mark="[0-9a-f]{24}"/, '');
    expect(unmarked(fromHook)).toBe(unmarked(answer.additionalContext[1]));
    const body = (request: { body: unknown }) => ({ ...(request.body as object), session_id: '…' });
    expect(world.server.requests(SEARCH).map(body)).toEqual(requests.map(body));
  });

  it("after the answer: the status line's record and the why record, as the hook writes them", async () => {
    const session = await world.session({ sessionId: 'session-records' });
    await session.fire(
      'classic.UserPromptSubmit',
      promptEvent(world, RECALL_PROMPT, 'session-records'),
      beneath(session).run,
    );
    const id = ovSessionId('session-records');
    const recall = await waitFor(() => {
      try {
        return (
          JSON.parse(readFileSync(join(world.dataDir, 'status', 'recall.json'), 'utf8')) as Record<
            string,
            { count: number; by?: string }
          >
        )[id];
      } catch {
        return undefined;
      }
    });
    // Both records say the module answered (`why`, doctor), not the hook command it stood in for.
    expect(recall).toMatchObject({ count: 1, by: 'module' });
    const why = await waitFor(() => readWhy(world.dataDir, id)[0]);
    expect(why).toMatchObject({ kind: 'recall', detail: RECALL_PROMPT, workspace: world.workspace, by: 'module' });
    expect(why.items.map((item) => item.uri)).toEqual([expect.stringContaining('osprey-deploy.md')]);
    // A second prompt appends to the record (read back through $.fs, written whole); the first memory is not recalled twice in a session (dedup).
    await session.fire(
      'classic.UserPromptSubmit',
      promptEvent(world, 'Which indentation do I prefer in Go code, tabs?', 'session-records'),
      beneath(session).run,
    );
    await waitFor(() => readWhy(world.dataDir, id).length === 2);
  });

  it('a prompt looks at the switch files alone before its search (one round of stats): the start read the caches ahead, what changed was read back after the answer', async () => {
    const session = await world.session({ sessionId: 'session-rounds' });
    const id = ovSessionId('session-rounds');
    const prompts = [RECALL_PROMPT, 'Which indentation do I prefer in Go code, tabs?'];
    await session.fire('classic.SessionStart', startEvent(world, 'startup', 'session-rounds'), beneath(session).run);
    await waitFor(() => readWhy(world.dataDir, id).length === 1);
    for (const [n, prompt] of prompts.entries()) {
      const from = session.calls.length;
      await session.fire(
        'classic.UserPromptSubmit',
        promptEvent(world, prompt, 'session-rounds'),
        beneath(session).run,
      );
      // The work after the answer is done once the why record is written (the last thing it writes).
      await waitFor(() => readWhy(world.dataDir, id).length === n + 2);
      const calls = session.calls.slice(from);
      const search = calls.findIndex((call) => call.op === 'http.fetch');
      expect(search).toBeGreaterThan(0);
      const files = calls.slice(0, search).filter((call) => call.op.startsWith('fs.'));
      expect(files.length).toBeGreaterThan(0);
      const switchFile = /\/(?:ov\.conf|ovcli\.conf|\.openviking\/config(?:\.local)?\.json)$/;
      expect(
        files
          .filter((call) => call.op !== 'fs.stat' || !switchFile.test(String(call.args[0])))
          .map((call) => `${call.op} ${String(call.args[0])}`),
      ).toEqual([]);
    }
  });

  it("the card's turn holds the module's own items", async () => {
    const session = await world.session({ sessionId: 'session-card' });
    await session.fire(
      'classic.UserPromptSubmit',
      promptEvent(world, RECALL_PROMPT, 'session-card'),
      beneath(session).run,
    );
    const turns = session.state.get('openviking/cardTurns')?.value as Array<{
      recalled: Array<{ uri: string; score?: number }>;
    }>;
    expect(turns.at(-1)?.recalled).toEqual([
      { uri: expect.stringContaining('osprey-deploy.md'), score: expect.any(Number) },
    ]);
  });
});

describe('nothing is sent, and the hook command still steps aside', () => {
  const cases: Array<[string, string, Record<string, string>?]> = [
    ['a slash command', '/openviking:forget the osprey cluster'],
    ['a shell escape', '!helm list'],
    [
      "a background agent's <task-notification>",
      `<task-notification>\n<summary>${RECALL_PROMPT}</summary>\n</task-notification>`,
    ],
    ['a prompt that is only private', '<private>osprey staging cluster deploys with helm</private>'],
    ['prefix mode, no prefix', RECALL_PROMPT, { OPENVIKING_RECALL_PREFIX: '?ov' }],
    ['memory off', RECALL_PROMPT, { OPENVIKING_MEMORY_ENABLED: 'false' }],
    ['auto-recall off', RECALL_PROMPT, { OPENVIKING_AUTO_RECALL: 'false' }],
    [
      'a bypassed folder',
      RECALL_PROMPT,
      { OPENVIKING_BYPASS_SESSION_PATTERNS: `${world?.workspace ?? '/tmp'}/**,/tmp/**` },
    ],
  ];
  for (const [name, prompt, env] of cases) {
    it(name, async () => {
      world.server.clearRequests();
      const session = await world.session(env === undefined ? {} : { env });
      const under = beneath(session);
      const answer = await session.fire('classic.UserPromptSubmit', promptEvent(world, prompt), under.run);
      expect(answer).toEqual({ additionalContext: ['OTHER-PLUGIN-CONTEXT'] });
      expect(world.server.requests()).toEqual([]);
      expect(under.seen[0]?.prompt).toBe(CLAUDE_PID);
    });
  }

  it('a workspace file turning memory off mid-session holds from the next prompt (the snapshot is looked at again first)', async () => {
    const session = await world.session({ sessionId: 'session-switch' });
    world.server.clearRequests();
    await session.fire(
      'classic.UserPromptSubmit',
      promptEvent(world, RECALL_PROMPT, 'session-switch'),
      beneath(session).run,
    );
    expect(world.server.requests(SEARCH)).toHaveLength(1);
    const folder = join(world.workspace, '.openviking');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ enabled: false }));
    try {
      world.server.clearRequests();
      const answer = await session.fire(
        'classic.UserPromptSubmit',
        promptEvent(world, RECALL_PROMPT, 'session-switch'),
        beneath(session).run,
      );
      expect(answer).toEqual({ additionalContext: ['OTHER-PLUGIN-CONTEXT'] });
      expect(world.server.requests()).toEqual([]);
    } finally {
      writeFileSync(join(folder, 'config.json'), JSON.stringify({}));
    }
  });
});
