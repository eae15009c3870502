/**
 * "Memory is off" told to the user once per session (DESIGN D21, issue 15
 * item 5): the bundled SessionStart hook, run by the host simulator, answers
 * a `systemMessage` naming /openviking:doctor when its own requests meet an
 * unreachable server, a refused key or a root key, or when writes were given
 * up; never twice for one session, never on a healthy start. Needs
 * `npm run build`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const DEAD_URL = 'http://127.0.0.1:9';
const USER_KEY = 'k-user-notice';
const ROOT_KEY = 'root-notice';
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function world(env: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'ov-notice-'));
  roots.push(root);
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  for (const dir of [home, workspace]) mkdirSync(dir, { recursive: true });
  const sim = createHostSim({ pluginRoot: REPO_ROOT, home, workspace, env });
  const dataDir = join(home, '.codebuddy', 'openviking');
  const start = async (
    payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy') }),
    source = 'startup',
  ) => {
    const result = await sim.fire('SessionStart', payloads.sessionStart(source));
    expect(result.timedOut).toBe(false);
    return {
      messages: result.merged.systemMessages,
      context: result.merged.additionalContext.join('\n'),
      stdout: result.outputs[0]?.stdout ?? '',
    };
  };
  return {
    home,
    workspace,
    dataDir,
    start,
    newSession: () => createPayloads({ workspace, configDir: join(home, '.codebuddy') }),
  };
}

describe('SessionStart tells the user once when memory is off', () => {
  let server: OvTestServer;
  beforeAll(async () => {
    server = await startOvServer({
      auth: {
        mode: 'api_key',
        rootKey: ROOT_KEY,
        keys: { [USER_KEY]: { account: 'default', user: 'default', role: 'user' } },
      },
      seed: { files: { 'memories/profile.md': 'Profile of the notice user.' } },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('an unreachable server: one line naming /openviking:doctor, not repeated for the same session, said again for the next', async () => {
    const w = world({ OPENVIKING_URL: DEAD_URL });
    const session = w.newSession();
    const first = await w.start(session);
    expect(first.messages).toHaveLength(1);
    expect(first.messages[0]).toMatch(
      /^OpenViking memory is off: no server answers at http:\/\/127\.0\.0\.1:9\. Run \/openviking:doctor/,
    );
    expect(first.messages[0]).not.toContain('\n');
    expect(JSON.parse(first.stdout)).toEqual({ systemMessage: first.messages[0], suppressOutput: true });
    expect((await w.start(session)).messages).toEqual([]);
    expect((await w.start(session, 'resume')).messages).toEqual([]);
    expect((await w.start(w.newSession())).messages).toHaveLength(1);
  });

  // Issue 30 item 4: a URL without a scheme sends nothing (no default server in its place) and says so.
  it('a configured URL that is not one: one line saying so, and no request anywhere', async () => {
    const w = world({ OPENVIKING_URL: `127.0.0.1:${server.port}` });
    server.clearRequests();
    const { messages } = await w.start();
    expect(messages).toEqual([
      'OpenViking memory is off: the configured server URL is not an http(s) URL. Run /openviking:doctor for the fix.',
    ]);
    expect(server.requests()).toEqual([]);
  });

  it('a refused key', async () => {
    const w = world({ OPENVIKING_URL: server.url, OPENVIKING_API_KEY: 'k-wrong' });
    const { messages } = await w.start();
    expect(messages).toEqual([expect.stringMatching(/refused the API key\. Run \/openviking:doctor/)]);
  });

  it('a root key', async () => {
    const w = world({ OPENVIKING_URL: server.url, OPENVIKING_API_KEY: ROOT_KEY });
    const { messages } = await w.start();
    expect(messages).toEqual([
      expect.stringMatching(/refuses this key for memory \(a root key\?\)\. Run \/openviking:doctor/),
    ]);
  });

  /** A dead letter as the queue names it, given up at `at`. */
  function giveUp(dataDir: string, at: number, seq: number): void {
    const deadDir = join(dataDir, 'queue', 'dead');
    mkdirSync(deadDir, { recursive: true });
    const deadAt = String(at).padStart(15, '0');
    writeFileSync(
      join(deadDir, `${deadAt}-${String(seq).padStart(15, '0')}-000000-${'a'.repeat(32)}.json`),
      JSON.stringify({ reason: 'max-attempts', deadAt: at, file: 'x.json' }),
    );
  }

  it('writes given up since the last notice: told once, not again in the next session', async () => {
    const w = world({ OPENVIKING_URL: server.url, OPENVIKING_API_KEY: USER_KEY });
    giveUp(w.dataDir, Date.now(), 1);
    const first = await w.start();
    expect(first.messages).toEqual([
      'OpenViking gave up on 1 queued memory write. Run /openviking:doctor for the fix.',
    ]);
    expect(first.context).toContain('Profile of the notice user.');
    expect((await w.start(w.newSession())).messages).toEqual([]);
  });

  it('writes given up while an already told session goes on are told in the next session, not lost', async () => {
    const w = world({ OPENVIKING_URL: server.url, OPENVIKING_API_KEY: USER_KEY });
    giveUp(w.dataDir, Date.now() - 60_000, 1);
    const session = w.newSession();
    expect((await w.start(session)).messages).toHaveLength(1);
    giveUp(w.dataDir, Date.now(), 2);
    expect((await w.start(session, 'resume')).messages).toEqual([]); // once per session
    expect((await w.start(w.newSession())).messages).toEqual([
      'OpenViking gave up on 1 queued memory write. Run /openviking:doctor for the fix.',
    ]);
  });

  it('a healthy start says nothing and its answer carries no "decision" field', async () => {
    const w = world({ OPENVIKING_URL: server.url, OPENVIKING_API_KEY: USER_KEY });
    const healthy = await w.start();
    expect(healthy.messages).toEqual([]);
    expect(healthy.context).toContain('Profile of the notice user.');
    expect(JSON.parse(healthy.stdout)).not.toHaveProperty('decision');
  });
});
