/**
 * The start block in the hooks module (src/mod/start.ts; D30), on the BUILT
 * hooks/register.mjs with this machine's files and the real test server:
 * one profile read and the listings, the hook's own block after everyone
 * else's context, the start flag only around `next(e)`; a repeated delivery
 * answered once (in the session, and across processes through the stored
 * answer); the archive overview on resume; memory off (nothing sent) and the
 * memory-off line, once, as a transcript notice, its mark keeping the hook
 * command quiet; a big profile whole (a module's answer is not capped, FC6).
 *
 * @module
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitsWith } from '../../src/store/learned.js';
import { CLAUDE_CODE_HOOK_CONTEXT_LIMIT } from '../../src/protocol/hostTools.js';
import { createOpenVikingClient } from '../../src/openviking/client.js';
import { socketHttpTransportFor } from '../../src/openviking/socketHttp.js';
import { BIG_PROFILE_FIRST, BIG_PROFILE_LAST, bigMemorySeed } from '../support/big-memory.js';
import { PROFILE_MARKER } from '../support/session-world.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';
import { beneath, CLAUDE_PID, createModWorld, startEvent, type ModWorld } from './support/world.js';

const PROFILE_READ = { method: 'GET', path: '/api/v1/content/read' };

let world: ModWorld;

beforeAll(async () => {
  // Working memory on, so an archive has the overview resume shows (0.5.2 writes none by default: F41).
  world = await createModWorld({ server: { workingMemory: true } });
});
afterAll(async () => world.dispose());

type Answer = { additionalContext: string[] };

/** A client of the world's test server, to put sessions there as another session of the user would. */
function serverClient(baseUrl: string) {
  return createOpenVikingClient({
    baseUrl,
    userAgent: 'test',
    http: socketHttpTransportFor({}),
    now: Date.now,
    timeoutMs: 5_000,
  });
}

/** What the module told the user (`$.ui.log` without `to: 'debug'`), in order. */
function noticesOf(session: { calls: ReadonlyArray<{ op: string; args: readonly unknown[] }> }): unknown[] {
  return session.calls
    .filter((call) => call.op === 'ui.log' && (call.args[1] as { to?: string } | undefined)?.to !== 'debug')
    .map((call) => call.args[0]);
}

/** The hook command's whole start for the same event (no flag: it reads and answers itself). */
async function hookStart(
  event: Record<string, unknown>,
  env: Record<string, string> = {},
): Promise<{ context: string; notice?: string }> {
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
  const answer =
    run.stdout.trim() === ''
      ? {}
      : (JSON.parse(run.stdout) as { systemMessage?: string; hookSpecificOutput?: { additionalContext?: string } });
  return {
    context: answer.hookSpecificOutput?.additionalContext ?? '',
    ...(answer.systemMessage !== undefined ? { notice: answer.systemMessage } : {}),
  };
}

describe('classic.SessionStart (Claude Code)', () => {
  it("one profile read, the listings, the hook's own block after everyone else's context, the flag only around next(e)", async () => {
    world.server.clearRequests();
    const session = await world.session({ sessionId: 'session-start' });
    const under = beneath(session);
    const answer = (await session.fire(
      'classic.SessionStart',
      startEvent(world, 'startup', 'session-start'),
      under.run,
    )) as Answer;
    expect(world.server.requests(PROFILE_READ)).toHaveLength(1);
    expect(world.server.requests({ path: '/api/v1/fs/ls' }).length).toBeGreaterThanOrEqual(2);
    expect(answer.additionalContext[0]).toBe('OTHER-PLUGIN-CONTEXT');
    expect(answer.additionalContext[1]).toContain(PROFILE_MARKER);
    expect(under.seen).toEqual([{ guard: undefined, prompt: undefined, start: CLAUDE_PID }]);
    expect(session.unstubbed).toEqual([]);
    expect(answer.additionalContext[1]).toBe(
      (await hookStart(startEvent(world, 'startup', 'session-start-hook'))).context,
    );
  });

  it('delivered again: answered once, in the session and by another process of it (the stored answer)', async () => {
    const event = startEvent(world, 'startup', 'session-twice');
    const session = await world.session({ sessionId: 'session-twice' });
    world.server.clearRequests();
    const [first, second] = (await Promise.all([
      session.fire('classic.SessionStart', event, beneath(session).run),
      session.fire('classic.SessionStart', event, beneath(session).run),
    ])) as Answer[];
    expect(second).toEqual(first);
    expect(world.server.requests(PROFILE_READ)).toHaveLength(1);
    // The stored answer is written after the answer; a later process of the session reuses it.
    const later = await world.session({ sessionId: 'session-twice' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = (await later.fire('classic.SessionStart', event, beneath(later).run)) as Answer;
    expect(third).toEqual(first);
    expect(world.server.requests(PROFILE_READ)).toHaveLength(1);
  });

  it("a delivery without a source is the start's (stages/startBlock.ts startSource, one owner): answered with a `startup` one at once", async () => {
    const withSource = startEvent(world, 'startup', 'session-no-source');
    const { source: _dropped, ...without } = withSource;
    const session = await world.session({ sessionId: 'session-no-source' });
    world.server.clearRequests();
    const [first, second] = (await Promise.all([
      session.fire('classic.SessionStart', without, beneath(session).run),
      session.fire('classic.SessionStart', withSource, beneath(session).run),
    ])) as Answer[];
    expect(second).toEqual(first);
    expect(first?.additionalContext[1]).toContain(PROFILE_MARKER);
    expect(world.server.requests(PROFILE_READ)).toHaveLength(1);
  });

  it("resume: the session's latest archive overview too", async () => {
    const client = serverClient(world.server.url);
    expect(
      (
        await client.addMessages('cb-session-resume', [
          { role: 'user', parts: [{ type: 'text', text: 'ARCHIVED-resume decision about retries' }] },
        ])
      ).ok,
    ).toBe(true);
    expect((await client.commit('cb-session-resume', {})).ok).toBe(true);
    const session = await world.session({ sessionId: 'session-resume' });
    const answer = (await session.fire(
      'classic.SessionStart',
      startEvent(world, 'resume', 'session-resume'),
      beneath(session).run,
    )) as Answer;
    expect(answer.additionalContext[1]).toMatch(/<archive-overview>[\s\S]*ARCHIVED-resume/);
  });

  it('memory off here: nothing sent, the hook command still steps aside to housekeeping', async () => {
    world.server.clearRequests();
    const session = await world.session({ env: { OPENVIKING_MEMORY_ENABLED: 'false' } });
    const under = beneath(session);
    expect(await session.fire('classic.SessionStart', startEvent(world), under.run)).toEqual({
      additionalContext: ['OTHER-PLUGIN-CONTEXT'],
    });
    expect(world.server.requests()).toEqual([]);
    expect(under.seen[0]?.start).toBe(CLAUDE_PID);
  });

  it('a privacy switch set to a word it does not understand: nothing sent, the same line as the hook command, once (issue 29 item 7)', async () => {
    world.server.clearRequests();
    const env = { OPENVIKING_MEMORY_ENABLED: 'nah' };
    const session = await world.session({ env, sessionId: 'session-nah' });
    const notices = () =>
      session.calls
        .filter((call) => call.op === 'ui.log' && (call.args[1] as { to?: string } | undefined)?.to !== 'debug')
        .map((call) => String(call.args[0]));
    const under = beneath(session);
    await session.fire('classic.SessionStart', startEvent(world, 'startup', 'session-nah'), under.run);
    expect(world.server.requests()).toEqual([]);
    expect(under.seen[0]?.start).toBe(CLAUDE_PID);
    expect(notices()).toHaveLength(1);
    expect(notices()[0]).toContain('OPENVIKING_MEMORY_ENABLED="nah"');
    // The hook command's own line for a session of its own is the same text.
    expect((await hookStart(startEvent(world, 'startup', 'session-nah-hook'), env)).notice).toBe(notices()[0]);
    await session.fire('classic.SessionStart', startEvent(world, 'resume', 'session-nah'), beneath(session).run);
    expect(notices()).toHaveLength(1);
    expect(world.server.requests()).toEqual([]);
  });

  it("a workspace file's peer the user has not approved (D32): the module's start says the hook command's line, once; the start reads speak as the workspace's own peer", async () => {
    mkdirSync(join(world.workspace, '.openviking'), { recursive: true });
    writeFileSync(
      join(world.workspace, '.openviking', 'config.json'),
      JSON.stringify({ version: 1, peer: { id: 'someone-else' } }),
    );
    try {
      world.server.clearRequests();
      const session = await world.session({ sessionId: 'session-trust' });
      await session.fire('classic.SessionStart', startEvent(world, 'startup', 'session-trust'), beneath(session).run);
      const notices = session.calls
        .filter((call) => call.op === 'ui.log' && (call.args[1] as { to?: string } | undefined)?.to !== 'debug')
        .map((call) => String(call.args[0]));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain('names the project peer someone-else');
      expect(notices[0]).toContain('/openviking:trust');
      expect((await hookStart(startEvent(world, 'startup', 'session-trust-hook'))).notice).toBe(notices[0]);
      const peers = world.server.requests().map((request) => request.headers['x-openviking-actor-peer']);
      expect(peers.length).toBeGreaterThan(0);
      expect(peers).not.toContain('someone-else');
    } finally {
      rmSync(join(world.workspace, '.openviking'), { recursive: true, force: true });
    }
  });

  it('no server answers: one line for the user, once per session, as a transcript notice; the hook command says nothing more', async () => {
    const env = { OPENVIKING_URL: 'http://127.0.0.1:9' };
    const session = await world.session({ env, sessionId: 'session-down' });
    await session.fire('classic.SessionStart', startEvent(world, 'startup', 'session-down'), beneath(session).run);
    const notices = () => noticesOf(session);
    expect(notices()).toEqual([
      'OpenViking memory is off: no server answers at http://127.0.0.1:9. Run /openviking:doctor for the fix.',
    ]);
    await session.fire('classic.SessionStart', startEvent(world, 'resume', 'session-down'), beneath(session).run);
    expect(notices()).toHaveLength(1);
    expect((await hookStart(startEvent(world, 'startup', 'session-down'), env)).notice).toBeUndefined();
  });
});

describe('what the last session taught (DESIGN D36), said by the module', () => {
  it('one task request beside the reads, one transcript notice, once; the hook command handed off says nothing', async () => {
    const taught = await createModWorld({ server: { extractOnCommit: true } });
    try {
      const client = serverClient(taught.server.url);
      await client.addMessages('cb-earlier', [
        { role: 'user', parts: [{ type: 'text', text: 'LEARNED we ship on fridays' }] },
      ]);
      const committed = await client.commit('cb-earlier', {});
      expect(committed.ok && committed.result.task_id).toBeTruthy();
      const taskId = committed.ok ? (committed.result.task_id ?? '') : '';
      const note = commitsWith(taught.dataDir, taught.workspace, { ovSessionId: 'cb-earlier', taskId, at: Date.now() });
      mkdirSync(dirname(note.file), { recursive: true });
      writeFileSync(note.file, note.text);
      taught.server.clearRequests();
      // The hook command of the same start, handed off (its `sh` stepped aside into `hook.cjs detached`, D31): housekeeping only, neither asked nor said.
      const handedOff = await spawnHook({
        args: ['detached'],
        stdin: JSON.stringify(startEvent(taught, 'startup', 'session-learned')),
        cwd: taught.workspace,
        env: {
          PATH: process.env.PATH,
          ...taught.env,
          CLAUDE_PLUGIN_ROOT: REPO_ROOT,
          CLAUDE_PROJECT_DIR: taught.workspace,
          CLAUDECODE: '1',
          OPENVIKING_RESIDENT: 'off',
        },
      });
      expect(handedOff.stdout).toBe('');
      expect(taught.server.requests({ path: /^\/api\/v1\/tasks\// })).toEqual([]);
      const session = await taught.session({ sessionId: 'session-learned' });
      const notices = () => noticesOf(session);
      await session.fire(
        'classic.SessionStart',
        startEvent(taught, 'startup', 'session-learned'),
        beneath(session).run,
      );
      expect(notices()).toEqual(['OpenViking learned 1 memory from your last session in this project.']);
      expect(taught.server.requests({ method: 'GET', path: `/api/v1/tasks/${taskId}` })).toHaveLength(1);
      const next = await taught.session({ sessionId: 'session-after' });
      await next.fire('classic.SessionStart', startEvent(taught, 'startup', 'session-after'), beneath(next).run);
      expect(noticesOf(next)).toEqual([]);
      expect(taught.server.requests({ path: /^\/api\/v1\/tasks\// })).toHaveLength(1);
    } finally {
      await taught.dispose();
    }
  });
});

describe('a 40 KB profile with 120 listed files (issue 22)', () => {
  it("reaches the model whole through the module: one closed block past the hook commands' cap, first and last lines, the listing", async () => {
    const big = await createModWorld({ server: { seed: bigMemorySeed() } });
    try {
      const session = await big.session();
      const block =
        ((await session.fire('classic.SessionStart', startEvent(big), beneath(session).run)) as Answer)
          .additionalContext[1] ?? '';
      expect(block.length).toBeGreaterThan(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
      expect(block.match(/<openviking-context /g)).toHaveLength(1);
      expect(block.endsWith('</openviking-context>')).toBe(true);
      for (const line of [BIG_PROFILE_FIRST, BIG_PROFILE_LAST, '</user-profile>']) expect(block).toContain(line);
      // The listing whole (the hook commands' 9,500-unit block names 'more' instead), the profile within its token budget.
      expect(block).toContain('default/topic-119.md\n</available-memories>');
      expect(block).not.toMatch(/\+\d+ more/);
    } finally {
      await big.dispose();
    }
  });
});
