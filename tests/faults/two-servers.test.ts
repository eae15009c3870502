/**
 * Queued conversation belongs to the server and identity it was captured
 * for (DESIGN D33, issue 29 item 6), through the host simulator and the
 * BUILT hooks with two test servers. Turns queued for server A while it is
 * down are never sent to server B after the configuration changes, nor to
 * A under another user or another key; doctor says what waits and for
 * whom; once A is back and configured again, the next session start
 * delivers them to A under the user they were captured for, once. A batch
 * sent to A whose outcome is unknown (a writer killed mid-request) is never
 * settled against B either: the session waits for A. On 4953f41 the first
 * session start under B sent the queued turns to B, and the unsettled batch
 * was resent to B.
 * `OV_BUILT_PLUGIN_DIR` runs it against another build.
 *
 * @module
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendTranscript, turnRecords, until } from '../capture/support/world.js';
import { pluginProcesses } from '../support/detached.js';
import { createHostSim, createPayloads, type Payloads } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';
import { captureStateFile } from '../../src/capture/paths.js';
import { writeTargetOf } from '../../src/capture/writeTarget.js';

const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;
const MARKER = 'TURN-CAPTURED-FOR-A-AS-ALICE';

let serverA: OvTestServer;
let serverB: OvTestServer;
let root: string;
let home: string;
let workspace: string;

beforeAll(async () => {
  serverA = await startOvServer();
  serverB = await startOvServer();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-two-servers-')));
  home = join(root, 'home');
  workspace = join(root, 'ws');
  for (const dir of [home, workspace]) mkdirSync(dir);
});
afterAll(async () => {
  await until(() => pluginProcesses(home).length === 0, 20_000, 'background work').catch(() => undefined);
  await serverA.close();
  await serverB.close();
  rmSync(root, { recursive: true, force: true, maxRetries: 5 });
});

const settle = () => until(() => pluginProcesses(home).length === 0, 30_000, 'background work of the hooks');
const pending = () =>
  readdirSync(join(home, '.codebuddy', 'openviking', 'queue', 'pending')).filter((name) => name.endsWith('.json'));

/** The configuration of one moment: the server, the user, perhaps a key. */
function configured(server: OvTestServer, user: string, key?: string): Record<string, string> {
  return {
    OPENVIKING_URL: server.url,
    OPENVIKING_USER: user,
    OPENVIKING_ACCOUNT: 'acme',
    OPENVIKING_TIMEOUT_MS: '3000',
    OPENVIKING_RESIDENT: 'off',
    ...(key !== undefined ? { OPENVIKING_API_KEY: key } : {}),
  };
}

function session(env: Record<string, string>) {
  const sim = createHostSim({ pluginRoot: PLUGIN_ROOT, home, workspace, env });
  const p: Payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
  return {
    p,
    start: async () => {
      await sim.fire('SessionStart', p.sessionStart('startup'));
      await settle();
    },
    turn: async (user: string) => {
      appendTranscript(p.transcriptPath, turnRecords(p.sessionId, workspace, user, 'ok'));
      await sim.fire('Stop', p.stop('ok'));
      await settle();
    },
  };
}

/** Every request a server saw about the first session, and every message of it it holds. */
const reached = (server: OvTestServer, id: string) => ({
  requests: server.requests().filter((request) => request.path.includes(id)).length,
  messages: server.sessions().flatMap((s) => s.allMessages.filter((m) => JSON.stringify(m).includes(MARKER))).length,
});

describe('turns queued for server A while it is down', () => {
  let first: ReturnType<typeof session>;
  let id: string;

  it('are queued with A (as alice) as their target', async () => {
    const asAlice = configured(serverA, 'alice');
    first = session(asAlice);
    id = `cb-${first.p.sessionId}`;
    await serverA.stop();
    await first.start();
    await first.turn(`Remember ${MARKER}: the deploy goes through the blue cluster.`);
    expect(pending().length).toBeGreaterThan(0);
  }, 60_000);

  it('are never sent to server B once the configuration names B; B gets only its own session', async () => {
    const later = session(configured(serverB, 'alice'));
    await later.start();
    await later.turn('a turn of the later session, for B');
    await spawnHook({
      pluginRoot: PLUGIN_ROOT,
      args: ['requeue-dead'],
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home, ...configured(serverB, 'alice') },
    });
    await settle();
    expect(reached(serverB, id)).toEqual({ requests: 0, messages: 0 });
    expect(serverB.sessions().map((s) => s.sessionId)).toEqual([`cb-${later.p.sessionId}`]);
    expect(pending().length).toBeGreaterThan(0);
  }, 60_000);

  it('doctor names what waits, and for whom', async () => {
    const run = await spawnHook({
      pluginRoot: PLUGIN_ROOT,
      args: ['doctor'],
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home, ...configured(serverB, 'alice') },
      timeoutMs: 20_000,
    });
    expect(run.stdout).toContain('Writes for another server');
    expect(run.stdout).toMatch(
      new RegExp(`queued writes? wait for ${serverA.url.replace(/[.]/g, '\\.')} as account acme, user alice`),
    );
  }, 30_000);

  it('are never sent to A under another user, nor under another key, when A is back', async () => {
    await serverA.start();
    for (const env of [configured(serverA, 'bob'), configured(serverA, 'alice', 'another-key')]) {
      await session(env).start();
      expect(reached(serverA, id)).toEqual({ requests: 0, messages: 0 });
    }
    expect(pending().length).toBeGreaterThan(0);
  }, 60_000);

  it('reach A, under alice, once, when A is configured again', async () => {
    await session(configured(serverA, 'alice')).start();
    await until(() => reached(serverA, id).messages > 0, 20_000, 'the queued turn on A');
    const held = serverA.sessions().filter((s) => s.sessionId === id);
    expect(held.map((s) => s.user)).toEqual(['alice']);
    expect(reached(serverA, id).messages).toBe(1);
    expect(reached(serverB, id)).toEqual({ requests: 0, messages: 0 });
    expect(pending()).toEqual([]);
  }, 60_000);
});

describe('a batch sent to A whose outcome is unknown (a writer killed mid-request)', () => {
  it('is never settled or resent against B: the session waits for A, which then gets the turn once', async () => {
    const asAlice = configured(serverA, 'alice');
    const s = session(asAlice);
    const id = `cb-${s.p.sessionId}`;
    await s.start();
    await s.turn('the first turn, captured by A');
    // The next turn's batch went out to A and the writer died before the answer: its write-ahead record stays.
    const file = captureStateFile(join(home, '.codebuddy', 'openviking'), id);
    const state = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const before = serverA.sessions().find((held) => held.sessionId === id)?.allMessages.length ?? 0;
    const target = writeTargetOf({ baseUrl: serverA.url, account: 'acme', user: 'alice' }).id;
    writeFileSync(
      file,
      JSON.stringify({
        ...state,
        inflight: {
          fingerprint: 'f'.repeat(64),
          recordIds: [],
          before: { live: before },
          queued: false,
          startedAt: 0,
          target,
        },
      }),
    );
    serverB.clearRequests();
    const sim = createHostSim({ pluginRoot: PLUGIN_ROOT, home, workspace, env: configured(serverB, 'alice') });
    appendFileSync(
      s.p.transcriptPath,
      turnRecords(s.p.sessionId, workspace, `the second turn ${MARKER}-2`, 'ok')
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    );
    await sim.fire('Stop', s.p.stop('ok'));
    await settle();
    expect(serverB.requests().filter((request) => request.path.includes(id))).toEqual([]);
    await session(asAlice).start();
    await createHostSim({ pluginRoot: PLUGIN_ROOT, home, workspace, env: asAlice }).fire('Stop', s.p.stop('ok'));
    await settle();
    const onA = serverA.sessions().find((held) => held.sessionId === id)?.allMessages ?? [];
    expect(onA.filter((message) => JSON.stringify(message).includes(`${MARKER}-2`))).toHaveLength(1);
  }, 60_000);
});
