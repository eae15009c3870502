/**
 * Capture, commit and extraction against the REAL OpenViking server, through
 * the bundled hooks exactly as CodeBuddy runs them (host simulator, built
 * `scripts/hook.cjs`, a sandboxed HOME, a git workspace with its project
 * peer). One host session of three turns and a sub-agent, every Stop fired
 * as the host fires it, then SessionEnd; what the server stored is counted
 * through its own API (tests/real/support/stored.ts). It proves, on the
 * server users run:
 * - every turn of the main session and of the sub-agent is stored exactly
 *   once, in order, each message spoken by the project's peer (D12, D24);
 * - SessionEnd commits the session and SubagentStop the sub-agent's, once
 *   each, and events fired again afterwards send and commit nothing more;
 * - the commit the plugin noted (D36) is the server's real task: its phase 2
 *   asked the model provider for an extraction of this conversation, and
 *   the memory it wrote is under `viking://user/<u>/peers/<peer>/memories/`.
 * The double (tests/support/ov-server) cannot prove this: it neither runs
 * the extraction nor stores messages the way 0.5.2 does.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ov, settledTask } from './support/http.js';
import { providerRequests, sharedServers } from './support/servers.js';
import { storedSession, storedWhen, type StoredSession } from './support/stored.js';
import { createRealWorld, devIdentity, type HostSession, type RealWorld } from './support/world.js';

const { dev } = sharedServers();

const TURNS: ReadonlyArray<readonly [string, string]> = [
  ['Set up the build for the kestrel service.', 'The build is set up with make.'],
  ['Remember: the kestrel service deploys with blue-green rollouts. Thanks.', 'Noted, blue-green it is.'],
  ['Run the tests once more.', 'All 42 tests pass.'],
];
const SUB_AGENT = 'agent-7d1e5c';
const SUB_TURN = ['Find every TODO in the kestrel sources.', 'Found 3 TODOs in src/.'] as const;

let world: RealWorld;
let session: HostSession;
/** What the server held right after the session ended, and after everything was fired again. */
let afterEnd: StoredSession;
let afterReplay: StoredSession;

beforeAll(async () => {
  world = createRealWorld({ url: dev.url, identity: devIdentity('capture') });
  session = world.session();
  await session.fire('SessionStart', session.p.sessionStart());
  for (const [index, [user, assistant]] of TURNS.entries()) {
    session.turn(user, assistant);
    if (index === 1) {
      await session.fire('SubagentStart', session.p.subagentStart(SUB_AGENT));
      session.turn(SUB_TURN[0], SUB_TURN[1], SUB_AGENT);
      await session.fire('SubagentStop', session.p.subagentStop(SUB_AGENT));
    }
    await session.fire('Stop', session.p.stop(assistant));
    await storedWhen(dev.url, world.speaker, session.ovId, (s) => s.totalMessages >= (index + 1) * 2, 'turn stored');
  }
  await session.fire('SessionEnd', session.p.sessionEnd());
  afterEnd = await storedWhen(dev.url, world.speaker, session.ovId, (s) => s.commits >= 1, 'the SessionEnd commit');
  await world.settle();
  // The host may fire them again (a resumed session, a retried hook): nothing is sent twice.
  await session.fire('Stop', session.p.stop(TURNS[2]![1]));
  await session.fire('SubagentStop', session.p.subagentStop(SUB_AGENT));
  await session.fire('SessionEnd', session.p.sessionEnd());
  await world.settle();
  afterReplay = (await storedSession(dev.url, world.speaker, session.ovId))!;
});

afterAll(async () => {
  await world?.dispose();
});

describe('capture on the real server', () => {
  it('stores every turn of the main session once, in order, spoken by the project peer', () => {
    const expected = TURNS.flatMap(([user, assistant]) => [
      { role: 'user', text: user },
      { role: 'assistant', text: assistant },
    ]);
    expect(afterEnd.totalMessages).toBe(expected.length);
    expect(afterEnd.messages.map(({ role, text }) => ({ role, text }))).toEqual(expected);
    expect(new Set(afterEnd.messages.map((message) => message.peerId))).toEqual(new Set([world.peer]));
  });

  it('stores the sub-agent in its own session, once, and commits it', async () => {
    const sub = await storedWhen(
      dev.url,
      world.speaker,
      session.subagentOvId(SUB_AGENT),
      (s) => s.commits >= 1,
      'the SubagentStop commit',
    );
    expect(sub.messages.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'user', text: SUB_TURN[0] },
      { role: 'assistant', text: SUB_TURN[1] },
    ]);
    expect(sub.totalMessages).toBe(2);
    expect(sub.commits).toBe(1);
    expect(afterEnd.messages.map((message) => message.text).join('\n')).not.toContain(SUB_TURN[0]);
  });

  it('commits at SessionEnd once, and events fired again send and commit nothing', () => {
    expect(afterEnd.commits).toBe(1);
    expect(afterReplay.totalMessages).toBe(afterEnd.totalMessages);
    expect(afterReplay.commits).toBe(1);
  });

  it("has the server extract the session's memory into the project peer's memories", async () => {
    const noted = await world.commits(2);
    const main = noted.filter((commit) => commit.ovSessionId === session.ovId);
    expect(main).toHaveLength(1);
    const task = await settledTask(dev.url, world.speaker, main[0]!.taskId);
    expect(task, JSON.stringify(task)).toMatchObject({ status: 'completed', resource_id: session.ovId });
    expect(task.result.memories_extracted.memory_write).toBeGreaterThanOrEqual(1);
    const asked = providerRequests(dev, 'extraction').filter((request) =>
      JSON.stringify(request.body).includes('the kestrel service deploys with blue-green rollouts'),
    );
    expect(asked.length).toBeGreaterThanOrEqual(1);
    const memory = `viking://user/${world.user}/peers/${world.peer}/memories/preferences/${world.peer}/kestrel_service_deploys.md`;
    const read = await ov<string>(dev.url, world.speaker, `/api/v1/content/read?uri=${encodeURIComponent(memory)}`);
    expect(read.status, JSON.stringify(read.error)).toBe('ok');
    expect(read.result).toContain('the kestrel service deploys with blue-green rollouts');
  });
});
