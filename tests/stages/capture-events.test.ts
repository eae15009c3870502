/**
 * The capture stage on each write-path event, through the host simulator and
 * the built bundle: PreCompact is synchronous (the server has the turn and
 * the commit when the hook returns), 2.163 payloads behave like 2.117 ones,
 * the token threshold commits with `keep_recent_count`, commit-stale
 * archives a session left behind, switches are honoured, and no secret or
 * `<private>` text ever reaches the server (checked on the raw request log).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHook } from '../support/spawn-hook.js';
import { createPayloads } from '../support/host-sim/index.js';
import { createWorld, turnRecords, until, workersIdle } from '../capture/support/world.js';
import type { CaptureWorld } from '../capture/support/world.js';
import { ovSessionId } from '../../src/session/ids.js';
import { join } from 'node:path';

let world: CaptureWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const OPENAI_KEY = 'sk-live0123456789abcdefghijklmnop';
const GITHUB_TOKEN = `ghp_${'a1B2'.repeat(9)}`;
const AWS_KEY = 'AKIAABCDEFGHIJKLMNOP';

describe('capture events', () => {
  it('PreCompact captures and commits before the hook answers', async () => {
    world = await createWorld();
    const w = world;
    w.appendTurn('question 1', 'answer 1');
    const compact = await w.sim.fire('PreCompact', w.p.preCompact('manual'));
    expect(compact.timedOut).toBe(false);
    expect(compact.outputs[0]?.stdout ?? '').toBe('');
    // No polling: the hook itself did the work.
    expect(w.storedTexts()).toEqual(['question 1', 'answer 1']);
    expect(w.server.session(w.ovId)?.commits.map((c) => c.status)).toEqual(['accepted']);
  });

  it('2.163 payloads: Stop captures, SessionEnd commits', async () => {
    world = await createWorld({ hostVersion: '2.163' });
    const w = world;
    w.appendTurn('question 1', 'answer 1');
    await w.sim.fire('Stop', w.p.stop('answer 1'));
    await until(() => w.storedTexts().length === 2);
    w.appendTurn('question 2', 'answer 2');
    await w.sim.fire('SessionEnd', w.p.sessionEnd('prompt_input_exit'));
    await until(() => (w.server.session(w.ovId)?.commits.length ?? 0) === 1, 30_000, 'commit');
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(['question 1', 'answer 1', 'question 2', 'answer 2']);
    expect(w.server.session(w.ovId)?.archives[0]?.messages.length).toBe(4);
  });

  it('commits with keep_recent_count once pending tokens pass the threshold', async () => {
    // The client-side threshold (a server without auto_commit_policy, or the policy switched off).
    world = await createWorld({
      env: {
        OPENVIKING_COMMIT_TOKEN_THRESHOLD: '1000',
        OPENVIKING_COMMIT_KEEP_RECENT_COUNT: '1',
        OPENVIKING_SERVER_COMMIT_POLICY: 'false',
      },
    });
    const w = world;
    w.appendTurn('small question', 'small answer');
    await w.sim.fire('Stop', w.p.stop());
    await until(() => w.storedTexts().length === 2);
    await workersIdle(w);
    expect(w.server.session(w.ovId)?.commits ?? []).toEqual([]);
    w.appendTurn(`big question ${'lorem ipsum dolor sit amet '.repeat(400)}`, 'big answer');
    await w.sim.fire('Stop', w.p.stop());
    await until(() => (w.server.session(w.ovId)?.commits.length ?? 0) === 1, 30_000, 'threshold commit');
    const commit = w.server.session(w.ovId)?.commits[0];
    expect(commit?.keepRecentCount).toBe(1);
    expect(commit?.status).toBe('accepted');
  });

  it("with the server's own policy, the server makes the threshold commit and the client none", async () => {
    world = await createWorld({
      env: { OPENVIKING_COMMIT_TOKEN_THRESHOLD: '1000', OPENVIKING_COMMIT_KEEP_RECENT_COUNT: '1' },
    });
    const w = world;
    w.appendTurn('small question', 'small answer');
    await w.sim.fire('Stop', w.p.stop());
    await until(() => w.server.requests({ method: 'PATCH' }).length === 1, 30_000, 'policy set');
    await workersIdle(w);
    w.appendTurn(`big question ${'lorem ipsum dolor sit amet '.repeat(400)}`, 'big answer');
    await w.sim.fire('Stop', w.p.stop());
    await until(() => w.storedTexts().length === 4, 30_000, 'second turn');
    await workersIdle(w);
    expect(w.server.session(w.ovId)?.commits.map((c) => [c.auto, c.keepRecentCount])).toEqual([['threshold', 0]]);
    expect(w.server.requests({ path: /\/commit$/ })).toEqual([]);
  });

  it('commit-stale archives the other sessions of the workspace, not the current one', async () => {
    // A server policy without idle timeout: the client-side rule is what commits idle sessions here.
    world = await createWorld({ env: { OPENVIKING_SERVER_COMMIT_IDLE_SECONDS: '0' } });
    const w = world;
    w.appendTurn('old session question', 'old session answer');
    await w.sim.fire('Stop', w.p.stop());
    await until(() => w.storedTexts().length === 2);
    await workersIdle(w);
    const current = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
    w.appendRecords(turnRecords(current.sessionId, w.workspace, 'new question', 'new answer'), current.transcriptPath);
    await w.sim.fire('Stop', current.stop());
    await until(() => w.storedTexts(ovSessionId(current.sessionId)).length === 2);
    await workersIdle(w, ovSessionId(current.sessionId));
    // Commit-stale leaves live sessions alone (tests/faults/live-sessions.test.ts); here every session counts as idle.
    const anyIdle = { ...w.sim.env, OPENVIKING_STALE_COMMIT_IDLE_MS: '0' };
    const run = await spawnHook({
      args: ['worker', 'commit-stale'],
      stdin: JSON.stringify(current.sessionStart('startup')),
      env: anyIdle,
      cwd: w.workspace,
      timeoutMs: 30_000,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(w.server.session(w.ovId)?.commits.map((c) => c.keepRecentCount)).toEqual([0]);
    expect(w.server.session(ovSessionId(current.sessionId))?.commits ?? []).toEqual([]);
    // Nothing left to commit: a second run sends nothing.
    const commits = w.server.requests({ path: /\/commit$/ }).length;
    await spawnHook({
      args: ['worker', 'commit-stale'],
      stdin: JSON.stringify({ workspace: w.workspace, exceptSessionId: current.sessionId }),
      env: anyIdle,
      cwd: w.workspace,
    });
    expect(w.server.requests({ path: /\/commit$/ }).length).toBe(commits);
  });

  it('OPENVIKING_AUTO_CAPTURE=0 and bypass patterns send nothing', async () => {
    world = await createWorld();
    const w = world;
    w.appendTurn('question 1', 'answer 1');
    await w.sim.fire('Stop', w.p.stop(), { env: { OPENVIKING_AUTO_CAPTURE: '0' } });
    await w.sim.fire('Stop', w.p.stop(), { env: { OPENVIKING_BYPASS_SESSION_PATTERNS: `${w.workspace}` } });
    await w.sim.fire('SessionEnd', w.p.sessionEnd(), { env: { OPENVIKING_MEMORY_ENABLED: 'false' } });
    await workersIdle(w);
    expect(w.server.requests({ path: /\/sessions\// })).toEqual([]);
  });

  it('secrets and <private> sections never reach the server, in text, tool input or tool output', async () => {
    world = await createWorld();
    const w = world;
    const sid = w.p.sessionId;
    const callId = `call_${randomUUID()}`;
    const now = Date.now();
    w.appendRecords([
      {
        id: randomUUID(),
        timestamp: now,
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: `deploy with ${OPENAI_KEY} <private>my diary entry</private> please` }],
        providerData: { agent: 'cli' },
        sessionId: sid,
      },
      {
        id: 'chatcmpl-s1',
        timestamp: now + 1,
        type: 'function_call',
        providerData: { messageId: 'm1' },
        callId,
        name: 'Bash',
        arguments: JSON.stringify({
          command: `curl -H "Authorization: Bearer ${GITHUB_TOKEN}" x`,
          api_key: 'plainvalue123',
        }),
        sessionId: sid,
      },
      {
        id: randomUUID(),
        timestamp: now + 2,
        type: 'function_call_result',
        name: 'Bash',
        callId,
        status: 'completed',
        output: { type: 'text', text: `AWS=${AWS_KEY}\n<system-reminder>injected</system-reminder>ok` },
        sessionId: sid,
      },
      {
        id: 'chatcmpl-s2',
        timestamp: now + 3,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: `done, token ${GITHUB_TOKEN}` }],
        providerData: { messageId: 'm2' },
        sessionId: sid,
      },
    ]);
    await w.sim.fire('Stop', w.p.stop());
    await until(() => w.storedTexts().length === 3);
    await workersIdle(w);
    const wire = w.server
      .requests()
      .map((r) => r.rawBody)
      .join('\n');
    expect(wire).toContain('deploy with');
    for (const secret of [
      OPENAI_KEY,
      GITHUB_TOKEN,
      AWS_KEY,
      'my diary entry',
      'plainvalue123',
      'injected',
      '<private>',
    ])
      expect(wire).not.toContain(secret);
    const stored = JSON.stringify(w.server.session(w.ovId)?.allMessages);
    for (const secret of [OPENAI_KEY, GITHUB_TOKEN, AWS_KEY, 'my diary entry', 'plainvalue123'])
      expect(stored).not.toContain(secret);
  });

  it('OPENVIKING_CAPTURE_ASSISTANT_TURNS=0 sends only the user turns', async () => {
    world = await createWorld({ env: { OPENVIKING_CAPTURE_ASSISTANT_TURNS: '0' } });
    const w = world;
    w.appendTurn('question 1', 'answer 1');
    w.appendTurn('question 2', 'answer 2');
    await w.sim.fire('Stop', w.p.stop());
    await until(() => w.storedTexts().length === 2);
    await workersIdle(w);
    expect(w.storedTexts()).toEqual(['question 1', 'question 2']);
  });
});
