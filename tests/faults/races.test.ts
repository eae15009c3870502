/**
 * Host events that overlap: Stop, SubagentStop, PreCompact and SessionEnd
 * fired at once; SessionStart delivered twice at once while writes wait in
 * the pending queue; two CodeBuddy sessions running in the same workspace
 * at the same time (each one's SessionStart also sees the other as an
 * "earlier session left uncommitted"). Each case prints its ledger line and
 * asserts: turns lost = 0, turns duplicated = 0, every hook inside its
 * timeout.
 *
 * @module
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { copyBuiltPlugin } from './support/plugin.js';
import type { PrivatePlugin } from './support/plugin.js';
import { createTranscript, expectedMarkers } from './support/turns.js';
import { createFaultWorld } from './support/world.js';
import type { FaultSession, FaultWorld } from './support/world.js';

let plugin: PrivatePlugin;
beforeAll(async () => {
  plugin = await copyBuiltPlugin();
});
afterAll(async () => {
  await plugin?.dispose();
});

async function inWorld(work: (world: FaultWorld) => Promise<void>): Promise<void> {
  const world = await createFaultWorld(plugin.root);
  try {
    await work(world);
  } finally {
    await world.close();
  }
}

describe('racing host events', () => {
  it('Stop, SubagentStop, PreCompact and SessionEnd at once', async () => {
    await inWorld(async (world) => {
      const s = world.session('race');
      const agentId = 'agent-race';
      const agent = createTranscript(s.p.subagentTranscriptPath(agentId), 'race-agent', {
        sessionId: s.p.sessionId,
        cwd: world.workspace,
      });
      await world.fire('SessionStart', 'SessionStart', s.p.sessionStart('startup'));
      for (let round = 1; round <= 3; round++) {
        s.transcript.append(2);
        agent.append();
        await Promise.all([
          world.fire(`Stop ${round}`, 'Stop', s.p.stop('done')),
          world.fire(`SubagentStop ${round}`, 'SubagentStop', s.p.subagentStop(agentId)),
          world.fire(`PreCompact ${round}`, 'PreCompact', s.p.preCompact('auto')),
          world.fire(`SessionEnd ${round}`, 'SessionEnd', s.p.sessionEnd('clear')),
        ]);
      }
      await world.recover([s]);
      await expectExactlyOnceWithinDeadlines(
        world,
        'Stop/SubagentStop/PreCompact/SessionEnd racing',
        [s],
        expectedMarkers('race-agent', agent.turns),
      );
    });
  }, 90_000);

  it('SessionStart delivered twice at once, with writes waiting in the queue', async () => {
    await inWorld(async (world) => {
      const s = world.session('twice');
      await world.server.stop();
      for (let turn = 1; turn <= 2; turn++) {
        s.transcript.append();
        await world.fire(`Stop ${turn} (server down)`, 'Stop', s.p.stop('done'));
        await world.settle();
      }
      await world.server.start();
      await Promise.all([
        world.fire('SessionStart #1', 'SessionStart', s.p.sessionStart('resume')),
        world.fire('SessionStart #2', 'SessionStart', s.p.sessionStart('resume')),
      ]);
      await world.recover([s]);
      await expectExactlyOnceWithinDeadlines(world, 'SessionStart delivered twice', [s]);
    });
  }, 90_000);

  it('two sessions in the same workspace at once', async () => {
    await inWorld(async (world) => {
      const sessions = [world.session('ws-a'), world.session('ws-b')];
      const run = async (s: FaultSession, offset: number): Promise<void> => {
        await world.fire(`${s.tag} SessionStart`, 'SessionStart', s.p.sessionStart('startup'));
        for (let turn = 1; turn <= 4; turn++) {
          await world.fire(
            `${s.tag} prompt ${turn}`,
            'UserPromptSubmit',
            s.p.userPromptSubmit(`turn ${turn + offset} question`, turn),
          );
          s.transcript.append();
          await world.fire(`${s.tag} Stop ${turn}`, 'Stop', s.p.stop('done'));
        }
      };
      await Promise.all(sessions.map((s, index) => run(s, index * 10)));
      // A third session starting now finds both as earlier sessions of this workspace.
      const late = world.session('ws-c');
      await world.fire('ws-c SessionStart', 'SessionStart', late.p.sessionStart('startup'));
      await world.recover(sessions);
      await expectExactlyOnceWithinDeadlines(world, 'two sessions in one workspace', sessions);
    });
  }, 90_000);
});
