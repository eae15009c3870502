/**
 * The start stage through the host simulator, the test server and the
 * BUILT bundle (`npm run build` first): the exact profile block, pending
 * replay before the profile, idempotent double delivery (sequential and
 * concurrent), the archive overview on resume/compact, and pass-through
 * within the deadline when the server is down or slow.
 *
 * @module
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markUncommitted } from '../../src/capture/commitIndex.js';
import { emptyCaptureState, saveCaptureState } from '../../src/capture/state.js';
import { createOpenVikingClient } from '../../src/openviking/client.js';
import { STORED_DATA_LINE } from '../../src/recall/escape.js';
import { socketHttpTransport } from '../../src/openviking/socketHttp.js';
import { storeLayout } from '../../src/store/paths.js';
import { enqueue } from '../../src/store/queue.js';
import { USER_AGENT } from '../../src/version.js';
import { contextOf, createWorld, PROFILE_MARKER } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { pluginProcessesGone } from '../support/detached.js';
import { residentsListening } from '../support/resident.js';
import { waitFor } from '../support/wait.js';
import { readWhy } from '../../src/why/record.js';
import { createHostSim } from '../support/host-sim/index.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';

/**
 * Every case runs twice: with the resident helper off (the start in the hook
 * process) and on, as shipped (D44: the hook hands the start to a warm
 * resident, which runs this same stage). Answers, requests and deadlines
 * must not differ.
 */
const MODES = [
  { name: 'start in the hook process', resident: false },
  { name: 'start through the resident helper', resident: true },
] as const;

/** Starts the world's resident (a session start launches one) and waits until it listens. */
async function startResident(w: World): Promise<void> {
  await w.sim.fire('SessionStart', w.payloads().sessionStart('startup'));
  await residentsListening(w.dataDir);
  w.server.clearRequests();
}

for (const mode of MODES)
  describe(mode.name, () => {
    let world: World;

    beforeAll(async () => {
      // Working memory on, so an archive has the overview resume/compact show (0.5.2 writes none by default: F41).
      world = await createWorld({ resident: mode.resident, server: { workingMemory: true } });
      if (mode.resident) await startResident(world);
    });
    afterAll(async () => world.dispose());
    afterEach(() => {
      world.server.faults.clear();
      world.server.clearRequests();
    });

    const EXPECTED_STARTUP_BLOCK = [
      '<openviking-context source="startup">',
      'Long-term memory from OpenViking. Read a memory with mcp__openviking__read {"uris": "<uri>"}, list a folder with mcp__openviking__list {"uri": "<folder>"}; they are deferred tools: call them through DeferExecuteTool with toolName and params.',
      STORED_DATA_LINE,
      '<user-profile uri="viking://user/default/memories/profile.md">',
      '# Profile',
      '',
      `The user is Grace (${PROFILE_MARKER}). Writes compilers.`,
      '</user-profile>',
      '<available-memories>',
      'viking://user/default/memories/preferences/',
      '  - default/indentation.md',
      'viking://user/default/memories/entities/',
      '  - default/osprey-deploy.md',
      '</available-memories>',
      '</openviking-context>',
    ].join('\n');

    function client() {
      return clientOf(world);
    }

    function clientOf(target: World) {
      return createOpenVikingClient({
        baseUrl: target.server.url,
        http: socketHttpTransport,
        now: Date.now,
        timeoutMs: 3000,
        userAgent: USER_AGENT,
      });
    }

    describe('profile block', () => {
      it('injects exactly the expected block (2.117 payload: no cwd)', async () => {
        const p = world.payloads();
        const payload = p.sessionStart('startup');
        expect(payload).not.toHaveProperty('cwd');
        const result = await world.sim.fire('SessionStart', payload);
        expect(result.outputs[0]?.stdout).toBe(
          JSON.stringify({
            hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: EXPECTED_STARTUP_BLOCK },
          }),
        );
      });

      it('records which process answered the block, for `why` and doctor', async () => {
        const p = world.payloads();
        expect(contextOf(await world.sim.fire('SessionStart', p.sessionStart('startup')))).toBe(EXPECTED_STARTUP_BLOCK);
        // Written after the answer: by the hook before it exits, by the resident after its reply.
        const why = await waitFor(() => readWhy(world.dataDir, `cb-${p.sessionId}`)[0]);
        expect(why).toMatchObject({ kind: 'start', detail: 'startup', by: mode.resident ? 'resident' : 'hook' });
      });

      it('works with the 2.163 payload shape and caches the user space for later sessions', async () => {
        const p = world.payloads({ hostVersion: '2.163' });
        const result = await world.sim.fire('SessionStart', p.sessionStart('startup'));
        expect(contextOf(result)).toBe(EXPECTED_STARTUP_BLOCK);
        expect(world.server.requests({ path: /system\/status/ })).toHaveLength(0);
      });

      it('never names the non-existent memory_recall tool, and keeps within the budget', async () => {
        const many = Object.fromEntries(
          Array.from({ length: 200 }, (_, n) => [
            `memories/preferences/default/topic-${String(n).padStart(3, '0')}.md`,
            `pref ${n}`,
          ]),
        );
        const own = await createWorld({
          resident: mode.resident,
          server: { seed: { files: { 'memories/profile.md': 'line\n'.repeat(3000), ...many } } },
        });
        try {
          const result = await own.sim.fire('SessionStart', own.payloads().sessionStart(), {
            env: { OPENVIKING_PROFILE_TOKEN_BUDGET: '800' },
          });
          const context = contextOf(result);
          expect(context).toContain('[profile middle elided]');
          expect(context).toMatch(/\.\.\. \+\d+ more; list them with mcp__openviking__list/);
          expect(context).not.toContain('memory_recall');
          expect(Math.ceil(context.length / 4)).toBeLessThan(800 + 150);
        } finally {
          await own.dispose();
        }
      });
    });

    describe('pending replay', () => {
      it('replays queued writes BEFORE fetching the profile', async () => {
        const queueDir = storeLayout(world.dataDir).queueDir;
        const queued = await enqueue(
          queueDir,
          {
            type: 'addMessages',
            sessionId: 'cb-earlier',
            payload: { messages: [{ role: 'user', parts: [{ type: 'text', text: 'queued while offline' }] }] },
            createdAt: Date.now() - 1000,
          },
          { now: Date.now, lockTimeoutMs: 1000 },
        );
        expect(queued.ok).toBe(true);
        const result = await world.sim.fire('SessionStart', world.payloads().sessionStart());
        expect(contextOf(result)).toContain(PROFILE_MARKER);
        const paths = world.server.requests().map((r) => r.path);
        const replayAt = paths.indexOf('/api/v1/sessions/cb-earlier/messages/batch');
        const profileAt = paths.indexOf('/api/v1/content/read');
        expect(replayAt).toBeGreaterThanOrEqual(0);
        expect(profileAt).toBeGreaterThan(replayAt);
        expect(world.server.session('cb-earlier')?.allMessages).toHaveLength(1);
      });
    });

    /**
     * A world of its own (earlier tests' workers build an uncommitted index in the shared one) holding a session
     * left uncommitted two hours ago (past OPENVIKING_STALE_COMMIT_IDLE_MS), in a data dir from before the index.
     */
    async function worldWithLeftBehind(ovSessionId: string, text: string): Promise<World> {
      const fresh = await createWorld({ resident: mode.resident });
      const transcript = join(fresh.home, 'old.jsonl');
      writeFileSync(transcript, '');
      const idleSince = Date.now() - 2 * 3_600_000;
      utimesSync(transcript, idleSince / 1000, idleSince / 1000);
      const hostSessionId = ovSessionId.replace(/^cb-/, '');
      const old = {
        ...emptyCaptureState({ ovSessionId, hostSessionId, workspace: fresh.workspace }),
        transcriptPath: transcript,
        capturedSinceCommit: 2,
        lastCaptureAt: idleSince,
      };
      expect((await saveCaptureState(fresh.dataDir, old)).ok).toBe(true);
      expect(
        (await clientOf(fresh).addMessages(ovSessionId, [{ role: 'user', parts: [{ type: 'text', text }] }])).ok,
      ).toBe(true);
      return fresh;
    }

    describe('earlier sessions left uncommitted', () => {
      it('start hands them to the commit-stale worker, which commits them', async () => {
        const fresh = await worldWithLeftBehind('cb-left-behind', 'never committed');
        try {
          await fresh.sim.fire('SessionStart', fresh.payloads().sessionStart());
          await fresh.server.waitForRequests(
            { method: 'POST', path: '/api/v1/sessions/cb-left-behind/commit' },
            1,
            20_000,
          );
          expect(fresh.server.session('cb-left-behind')?.commits.length).toBeGreaterThanOrEqual(1);
        } finally {
          await fresh.dispose();
        }
      }, 40_000);

      it('upgrade: a capture made before the index was built does not hide them; the next start still has them committed', async () => {
        const fresh = await worldWithLeftBehind('cb-before-upgrade', 'said before the upgrade');
        try {
          // The new version's first capture, in another (live) session, adds its own entry to the index folder.
          expect(
            markUncommitted(fresh.dataDir, {
              ovSessionId: 'cb-after-upgrade',
              hostSessionId: 'after-upgrade',
              workspace: fresh.workspace,
            }),
          ).toBe(true);
          await fresh.sim.fire('SessionStart', fresh.payloads().sessionStart());
          await fresh.server.waitForRequests(
            { method: 'POST', path: '/api/v1/sessions/cb-before-upgrade/commit' },
            1,
            20_000,
          );
          expect(fresh.server.session('cb-after-upgrade')).toBeUndefined();
        } finally {
          await fresh.dispose();
        }
      }, 40_000);
    });

    describe('double delivery', () => {
      async function queueOne(sessionId: string): Promise<void> {
        await enqueue(
          storeLayout(world.dataDir).queueDir,
          { type: 'commit', sessionId, payload: {}, createdAt: Date.now() },
          { now: Date.now, lockTimeoutMs: 1000 },
        );
      }

      it('sequential: one replay, one profile fetch, the same answer', async () => {
        await queueOne('cb-seq');
        const p = world.payloads();
        const first = await world.sim.fire('SessionStart', p.sessionStart());
        const second = await world.sim.fire('SessionStart', p.sessionStart());
        expect(contextOf(first)).toContain(PROFILE_MARKER);
        expect(second.outputs[0]?.stdout).toBe(first.outputs[0]?.stdout);
        expect(world.server.requests({ path: '/api/v1/content/read' })).toHaveLength(1);
        expect(world.server.requests({ path: /\/commit$/ })).toHaveLength(1);
      });

      it('concurrent: one replay, one profile fetch, the same answer', async () => {
        await queueOne('cb-conc');
        world.server.faults.latency(150);
        const p = world.payloads();
        const [first, second] = await Promise.all([
          world.sim.fire('SessionStart', p.sessionStart()),
          world.sim.fire('SessionStart', p.sessionStart()),
        ]);
        expect(contextOf(first)).toContain(PROFILE_MARKER);
        expect(second.outputs[0]?.stdout).toBe(first.outputs[0]?.stdout);
        expect(world.server.requests({ path: '/api/v1/content/read' })).toHaveLength(1);
        expect(world.server.requests({ path: /\/commit$/ })).toHaveLength(1);
      });
    });

    describe('the hooks module took the start over (D30, D31)', () => {
      /** The process that starts each hook's shell here, as Claude Code starts its own (`$PPID`, FC21). */
      const PID = String(process.pid);
      const reads = () => world.server.requests({ path: /\/(content\/read|fs\/ls|system\/status)/ });
      const queueOne = (sessionId: string) =>
        enqueue(
          storeLayout(world.dataDir).queueDir,
          { type: 'commit', sessionId, payload: {}, createdAt: Date.now() },
          { now: Date.now, lockTimeoutMs: 1000 },
        );
      /** The same plugin, home and server as Claude Code runs it: `/bin/sh -c` from this process, CLAUDE_PID = its pid. */
      const claude = () =>
        createHostSim({
          pluginRoot: REPO_ROOT,
          home: world.home,
          workspace: world.workspace,
          host: 'claude-code',
          env: { OPENVIKING_URL: world.server.url },
        });

      it('Claude Code, its flag = the process that started the shell: the command answers at once, its dispatcher detached: no profile or listing read and no block, the queue still replayed', async () => {
        await queueOne('cb-handed-off');
        const result = await claude().fire('SessionStart', world.payloads().sessionStart(), {
          env: { OPENVIKING_MODULE_START: PID },
        });
        expect(result.outputs[0]?.stdout ?? '').toBe('');
        await world.server.waitForRequests({ path: /\/commit$/ }, 1, 10_000);
        await pluginProcessesGone(world.home);
        expect(reads()).toEqual([]);
        expect(world.server.requests({ path: /\/commit$/ })).toHaveLength(1);
      });

      it('its flag: no memory-off line either, none claimed (the module says it, once)', async () => {
        const deadDir = join(world.dataDir, 'queue', 'dead');
        mkdirSync(deadDir, { recursive: true });
        writeFileSync(
          join(
            deadDir,
            `${String(Date.now()).padStart(15, '0')}-${'1'.padStart(15, '0')}-000000-${'a'.repeat(32)}.json`,
          ),
          JSON.stringify({ reason: 'max-attempts', deadAt: Date.now(), file: 'x.json' }),
        );
        try {
          const flagged = await claude().fire('SessionStart', world.payloads().sessionStart(), {
            env: { OPENVIKING_MODULE_START: PID },
          });
          expect(flagged.outputs[0]?.stdout ?? '').toBe('');
          await pluginProcessesGone(world.home);
          // The same start without the flag says it: the detached housekeeping did not claim the session's line.
          const told = await world.sim.fire('SessionStart', world.payloads().sessionStart());
          expect(told.outputs[0]?.stdout ?? '').toContain('OpenViking gave up on 1 queued memory write');
        } finally {
          rmSync(deadDir, { recursive: true, force: true });
          rmSync(join(world.dataDir, 'notices'), { recursive: true, force: true });
        }
      });

      for (const [name, env] of [
        [
          'Claude Code, the flag and CLAUDE_PID of another process (inherited)',
          { OPENVIKING_MODULE_START: '4242', CLAUDE_PID: '4242' },
        ],
        ['Claude Code, an empty flag', { OPENVIKING_MODULE_START: '' }],
        ["Claude Code, another kind's flag", { OPENVIKING_MODULE_PROMPT: PID }],
      ] as const) {
        it(`${name}: the block as before`, async () => {
          const result = await claude().fire('SessionStart', world.payloads().sessionStart(), { env });
          expect(contextOf(result)).toContain(PROFILE_MARKER);
          expect(contextOf(result)).toContain('mcp__plugin_openviking_openviking__read');
        });
      }

      it('CodeBuddy, the flag and CLAUDE_PID naming the process that started the shell (a forged environment): the block as before', async () => {
        const result = await world.sim.fire('SessionStart', world.payloads().sessionStart(), {
          env: { OPENVIKING_MODULE_START: PID, CLAUDE_PID: PID },
        });
        expect(contextOf(result)).toBe(EXPECTED_STARTUP_BLOCK);
      });

      it('the dispatcher never decides from the environment: node hook.cjs with every flag = CLAUDE_PID answers the block', async () => {
        const result = await spawnHook({
          stdin: JSON.stringify(world.payloads().sessionStart()),
          env: {
            PATH: process.env.PATH,
            HOME: world.home,
            OPENVIKING_URL: world.server.url,
            OPENVIKING_RESIDENT: 'off',
            CLAUDE_PLUGIN_ROOT: REPO_ROOT,
            CLAUDE_PROJECT_DIR: world.workspace,
            CLAUDE_PID: PID,
            OPENVIKING_MODULE_START: PID,
            OPENVIKING_MODULE_PROMPT: PID,
            OPENVIKING_MODULE_GUARD: PID,
          },
          cwd: world.workspace,
        });
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toContain(PROFILE_MARKER);
      });
    });

    describe('resume and compact', () => {
      for (const source of ['resume', 'compact'] as const) {
        it(`${source}: adds the session's latest archive overview`, async () => {
          const p = world.payloads();
          const ovSession = `cb-${p.sessionId}`;
          const c = client();
          expect(
            (
              await c.addMessages(ovSession, [
                { role: 'user', parts: [{ type: 'text', text: `ARCHIVED-${source} decision about retries` }] },
              ])
            ).ok,
          ).toBe(true);
          expect((await c.commit(ovSession, {})).ok).toBe(true);
          world.server.clearRequests();
          const result = await world.sim.fire('SessionStart', p.sessionStart(source));
          const context = contextOf(result);
          expect(context.startsWith(`<openviking-context source="${source}">`)).toBe(true);
          expect(context).toMatch(
            new RegExp(
              `<session-archive>\\n<archive-overview>\\n[\\s\\S]*ARCHIVED-${source}[\\s\\S]*\\n</archive-overview>\\n</session-archive>\\n</openviking-context>$`,
            ),
          );
          expect(world.server.requests({ path: `/api/v1/sessions/${ovSession}/context` })[0]?.query).toEqual({
            token_budget: '32000',
          });
        });
      }

      it('startup does not ask for an archive', async () => {
        await world.sim.fire('SessionStart', world.payloads().sessionStart('startup'));
        expect(world.server.requests({ path: /\/context$/ })).toHaveLength(0);
      });
    });

    describe('server trouble', () => {
      it('down → pass-through, exit 0, within the deadline', async () => {
        await world.server.stop();
        try {
          const result = await world.sim.fire('SessionStart', world.payloads().sessionStart(), {
            env: { OPENVIKING_START_DEADLINE_MS: '1000' },
          });
          expect(result.timedOut).toBe(false);
          // No context; only the one-line notice for the user (DESIGN D21).
          expect(JSON.parse(result.outputs[0]?.stdout ?? '')).toEqual({
            systemMessage: expect.stringContaining('/openviking:doctor'),
            suppressOutput: true,
          });
          expect(result.durationMs).toBeLessThan(1000 + 3000);
        } finally {
          await world.server.start();
        }
      });

      it('slower than the deadline → pass-through within the deadline', async () => {
        world.server.faults.latency(6_000);
        const result = await world.sim.fire('SessionStart', world.payloads().sessionStart(), {
          env: { OPENVIKING_START_DEADLINE_MS: '1000' },
        });
        expect(result.timedOut).toBe(false);
        expect(result.outputs[0]?.stdout).toBe('');
        expect(result.durationMs).toBeLessThan(1000 + 3000);
      });

      it('bypassed workspace → nothing sent', async () => {
        const result = await world.sim.fire('SessionStart', world.payloads().sessionStart(), {
          env: { OPENVIKING_BYPASS_SESSION_PATTERNS: `${world.workspace}` },
        });
        expect(result.outputs[0]?.stdout).toBe('');
        expect(world.server.requests()).toHaveLength(0);
      });
    });
  });
