/**
 * Issue 15 item 4: CodeBuddy 2.163 headless (`-p`/stream-json) never fires
 * UserPromptSubmit, SessionEnd or the sub-agent events (seed 000 §3), so
 * nothing commits a session at its end. Through the host simulator's
 * `2.163-headless` profile (which also sets CODEBUDDY_PLUGIN_DATA the 2.163
 * way) and the test server:
 * - a server with `auto_commit_policy`: each session carries the policy from
 *   the plugin's knobs, and the server's idle scanner commits every turn;
 * - an older server that refuses the policy: the plugin asks once per server,
 *   and the client-side rule (a later start commits the idle session)
 *   commits every turn.
 * Each case prints the fault-suite line plus the uncommitted count.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlinePluginDataDir } from '../support/host-sim/index.js';
import { spawnHook } from '../support/spawn-hook.js';
import { ledger } from './support/ledger.js';
import { expectExactlyOnceWithinDeadlines } from './support/expect.js';
import { copyBuiltPlugin } from './support/plugin.js';
import type { PrivatePlugin } from './support/plugin.js';
import { createFaultWorld } from './support/world.js';
import type { FaultSession, FaultWorld } from './support/world.js';

let plugin: PrivatePlugin;
beforeAll(async () => {
  plugin = await copyBuiltPlugin();
});
afterAll(async () => {
  await plugin?.dispose();
});

const TURNS = 3;
const CONFIG_ROUTE = /\/api\/v1\/sessions\/[^/]+\/config$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A headless 2.163 session: start, then per turn the (silent) prompt, the transcript growing, Stop; the (silent) end. */
async function headlessSession(world: FaultWorld, s: FaultSession): Promise<void> {
  await world.fire(`${s.tag} SessionStart`, 'SessionStart', s.p.sessionStart('startup'));
  for (let turn = 1; turn <= TURNS; turn++) {
    const prompt = await world.fire(
      `${s.tag} prompt ${turn}`,
      'UserPromptSubmit',
      s.p.userPromptSubmit(`remember fact ${turn}`, turn),
    );
    expect(prompt.result.notFired, 'UserPromptSubmit never fires headless on 2.163').toBe(true);
    s.transcript.append();
    await world.fire(`${s.tag} Stop ${turn}`, 'Stop', s.p.stop('done'));
    await world.settle();
  }
  const end = await world.fire(`${s.tag} SessionEnd`, 'SessionEnd', s.p.sessionEnd('prompt_input_exit'));
  expect(end.result.notFired).toBe(true);
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await sleep(100);
}

describe('CodeBuddy 2.163 headless: every turn still ends up committed', () => {
  it('the server commits each session by the policy the plugin gave it (idle scanner on)', async () => {
    // The server's clock runs ahead once the session is over: 0.5.2's shortest idle timeout is 300 s (F41).
    let ahead = 0;
    const world = await createFaultWorld(
      plugin.root,
      { OPENVIKING_SERVER_COMMIT_IDLE_SECONDS: '2' },
      { autoCommit: { idleScanMs: 200 }, now: () => Date.now() + ahead },
      { profile: '2.163-headless' },
    );
    try {
      const s = world.session('h163');
      await headlessSession(world, s);
      // The hooks ran with CODEBUDDY_PLUGIN_DATA as 2.163 sets it under --plugin-dir (where data goes is DESIGN D21's).
      expect(world.sim.env.CODEBUDDY_PLUGIN_DATA).toBe(inlinePluginDataDir(world.home));
      const policy = (await (await fetch(`${world.server.url}/api/v1/sessions/${s.ovId}`)).json()) as {
        result: { auto_commit_policy: unknown };
      };
      expect(policy.result.auto_commit_policy).toEqual({
        pending_token_threshold: 20000,
        message_count_threshold: 200,
        // the knob's 2 s, sent as 0.5.2's least
        idle_timeout_seconds: 300,
        keep_recent_count: 0,
        min_commit_interval_seconds: 0,
      });
      // Doctor shows the effective policy of the latest session.
      const doctor = await spawnHook({
        pluginRoot: plugin.root,
        args: ['doctor', '--json'],
        env: world.sim.env,
        cwd: world.workspace,
        timeoutMs: 30_000,
      });
      const check = (
        JSON.parse(doctor.stdout) as { checks: Array<{ id: string; lines: string[]; data?: { sessionId?: string } }> }
      ).checks.find((c) => c.id === 'commit-policy');
      expect(check?.data?.sessionId).toBe(s.ovId);
      expect(check?.lines[0]).toContain(
        'the server commits it by itself at 20000 pending tokens, 200 messages, 300 s idle',
      );
      ahead = 301_000;
      await until(() => ledger(world.server, s.expected()).uncommitted.length === 0, 10_000);
      const uncommitted = ledger(world.server, s.expected()).uncommitted;
      const auto = world.server.session(s.ovId)?.commits.filter((commit) => commit.auto === 'idle').length ?? 0;
      console.log(
        `[faults] 2.163 headless, server policy: turns uncommitted = ${uncommitted.length}, server idle commits = ${auto}, config requests = ${world.server.requests({ path: CONFIG_ROUTE }).length}`,
      );
      expect(uncommitted).toEqual([]);
      expect(auto).toBeGreaterThanOrEqual(1);
      expect(world.server.requests({ path: CONFIG_ROUTE }), 'the policy is set once per session').toHaveLength(1);
      await expectExactlyOnceWithinDeadlines(world, '2.163 headless, server policy', [s], [], { committed: true });
    } finally {
      await world.close();
    }
  }, 120_000);

  it('an older server refuses the policy: asked once, and each later start commits the session left idle', async () => {
    const env = { OPENVIKING_STALE_COMMIT_IDLE_MS: '2000' };
    const world = await createFaultWorld(
      plugin.root,
      env,
      { autoCommit: { supported: false } },
      { profile: '2.163-headless' },
    );
    try {
      const a = world.session('old163a');
      await headlessSession(world, a);
      await sleep(2_500);
      const b = world.session('old163b');
      await headlessSession(world, b);
      await sleep(2_500);
      const c = world.session('old163c');
      await world.fire('old163c SessionStart', 'SessionStart', c.p.sessionStart('startup'));
      await world.settle();
      const uncommitted = ledger(world.server, [...a.expected(), ...b.expected()]).uncommitted;
      const configRequests = world.server.requests({ path: CONFIG_ROUTE });
      console.log(
        `[faults] 2.163 headless, older server: turns uncommitted = ${uncommitted.length}, config requests = ${configRequests.length}`,
      );
      expect(uncommitted).toEqual([]);
      expect(configRequests.map((request) => request.status)).toEqual([404]);
      await expectExactlyOnceWithinDeadlines(world, '2.163 headless, older server', [a, b], [], { committed: true });
    } finally {
      await world.close();
    }
  }, 120_000);
});
