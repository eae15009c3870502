/**
 * Where the API key and private text must never end up, checked on one
 * realistic run with the debug log ON against an api_key-mode server: a
 * session with a recall, a turn whose transcript holds a `<private>` block
 * and credentials, an outage that fills the pending queue, a wrong key
 * (401). Then:
 * - the key is in no file the plugin wrote (debug log, state, capture
 *   state, the pending queue and its dead letters), in no detached worker's
 *   argv, in no hook's stdout or stderr (what the model and the user see),
 *   and in no request body the server received;
 * - `<private>` content and credentials from the transcript never reach
 *   the server (its request log);
 * - every file the plugin wrote is 0600 and every directory 0700.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyBuiltPlugin } from '../faults/support/plugin.js';
import type { PrivatePlugin } from '../faults/support/plugin.js';
import { argvOf, findPids, isBackgroundOf } from '../faults/support/procfs.js';
import { createFaultWorld } from '../faults/support/world.js';
import type { FaultWorld } from '../faults/support/world.js';

const API_KEY = `ovk-${randomBytes(16).toString('hex')}`;
const WRONG_KEY = `ovk-wrong-${randomBytes(8).toString('hex')}`;
const PRIVATE_MARKER = `PRIVATE-${randomBytes(6).toString('hex')}`;
const AWS_ID = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
const PASSWORD = `pw-${randomBytes(6).toString('hex')}`;

let plugin: PrivatePlugin;
let world: FaultWorld;
const hookOutputs: string[] = [];
const workerArgvs: string[][] = [];

/** Every regular file under `dir`, with its mode; directories with theirs. */
function walk(dir: string): Array<{ path: string; dir: boolean; mode: number }> {
  const found: Array<{ path: string; dir: boolean; mode: number }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mode = statSync(path).mode & 0o777;
    found.push({ path, dir: entry.isDirectory(), mode });
    if (entry.isDirectory()) found.push(...walk(path));
  }
  return found;
}

/** Polls for detached workers of the private plugin copy and keeps their argv. */
function watchWorkerArgv(pluginRoot: string): () => Promise<void> {
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const pid of await findPids(isBackgroundOf(pluginRoot))) {
        const argv = await argvOf(pid);
        if (argv !== undefined) workerArgvs.push(argv);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

beforeAll(async () => {
  plugin = await copyBuiltPlugin();
  world = await createFaultWorld(
    plugin.root,
    { OPENVIKING_API_KEY: API_KEY, OPENVIKING_DEBUG: '1' },
    {
      auth: {
        mode: 'api_key',
        rootKey: 'root-key',
        keys: { [API_KEY]: { account: 'acme', user: 'alice', role: 'user' } },
      },
      seed: {
        account: 'acme',
        user: 'alice',
        files: { 'memories/preferences/alice/editor.md': { content: 'Uses Helix.', abstract: 'Editor: Helix' } },
      },
    },
  );
  const stopWatching = watchWorkerArgv(plugin.root);
  const s = world.session('sec');
  const record = async (
    event: Promise<{ result: { hooks: Array<{ process?: { stdout: string; stderr: string } | undefined }> } }>,
  ): Promise<void> => {
    for (const hook of (await event).result.hooks)
      hookOutputs.push(hook.process?.stdout ?? '', hook.process?.stderr ?? '');
  };
  await record(world.fire('SessionStart', 'SessionStart', s.p.sessionStart('startup')));
  await record(world.fire('prompt', 'UserPromptSubmit', s.p.userPromptSubmit('which editor do I prefer?', 1)));
  // A turn whose transcript carries a private block and credentials; the server is slow so the worker lives long enough to be seen.
  world.server.faults.latency(1_500, { path: /\/messages\/batch$/ });
  s.transcript.append();
  appendFileSync(
    s.transcript.path,
    `${JSON.stringify({ id: 'u-secret', timestamp: 1_796_000_100_000, type: 'message', role: 'user', content: [{ type: 'input_text', text: `keep this <private>${PRIVATE_MARKER}</private> and aws ${AWS_ID} and DB_PASSWORD=${PASSWORD}` }], sessionId: s.p.sessionId, cwd: world.workspace })}\n`,
  );
  await record(world.fire('Stop', 'Stop', s.p.stop('done')));
  // The worker now waits on the slow batch; make sure the watcher has seen it before it ends.
  for (let waited = 0; workerArgvs.length === 0 && waited < 5_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  await world.settle();
  world.server.faults.clear();
  // An outage: the next turn waits in the pending queue.
  await world.server.stop();
  s.transcript.append();
  await record(world.fire('Stop (server down)', 'Stop', s.p.stop('done')));
  await record(
    world.fire('prompt (server down)', 'UserPromptSubmit', s.p.userPromptSubmit('which editor do I prefer again?', 2)),
  );
  await world.settle();
  await world.server.start();
  // A wrong key: 401 on everything.
  await record(
    world.fire('prompt (wrong key)', 'UserPromptSubmit', s.p.userPromptSubmit('which editor do I prefer now?', 3), {
      OPENVIKING_API_KEY: WRONG_KEY,
    }),
  );
  await record(
    world.fire('SessionStart (wrong key)', 'SessionStart', s.p.sessionStart('resume'), {
      OPENVIKING_API_KEY: WRONG_KEY,
    }),
  );
  await world.settle();
  await stopWatching();
}, 120_000);

afterAll(async () => {
  await world?.close();
  await plugin?.dispose();
});

describe('secrets stay where they belong', () => {
  it('the run did what it claims (so the checks below can fail)', () => {
    expect(world.server.requests({ path: /\/messages\/batch$/ }).length).toBeGreaterThan(0);
    expect(world.server.requests({ status: 401 }).length).toBeGreaterThan(0);
    expect(workerArgvs.length, 'a detached worker was seen').toBeGreaterThan(0);
    const files = walk(world.home).filter((entry) => !entry.dir);
    expect(
      files.some((entry) => entry.path.includes('/queue/')),
      'the outage left queue files',
    ).toBe(true);
    expect(
      files.some((entry) => readFileSync(entry.path, 'utf8').includes('"level"')),
      'the debug log was written',
    ).toBe(true);
  });

  it('no file the plugin wrote contains the API key (debug log, state, queue, dead letters)', () => {
    for (const entry of walk(world.home).filter((item) => !item.dir)) {
      const text = readFileSync(entry.path, 'latin1');
      expect(text.includes(API_KEY), entry.path).toBe(false);
      expect(text.includes(WRONG_KEY), entry.path).toBe(false);
    }
  });

  it('no detached worker carries the key in its argv', () => {
    for (const argv of workerArgvs) expect(argv.join(' ')).not.toContain(API_KEY);
  });

  it('no hook output (what the model or the user sees) contains a key', () => {
    for (const text of hookOutputs) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(WRONG_KEY);
    }
  });

  it('the key travels only in the auth header, never in a body, path or query', () => {
    for (const request of world.server.requests()) {
      expect(request.rawBody.includes(API_KEY), `${request.method} ${request.path}`).toBe(false);
      expect(`${request.path}?${JSON.stringify(request.query)}`.includes(API_KEY)).toBe(false);
    }
  });

  it('private blocks and transcript credentials never reach the server', () => {
    const bodies = world.server.requests().map((request) => request.rawBody);
    expect(
      bodies.some((body) => body.includes('keep this')),
      'the turn itself was sent',
    ).toBe(true);
    for (const body of bodies) {
      expect(body).not.toContain(PRIVATE_MARKER);
      expect(body).not.toContain(AWS_ID);
      expect(body).not.toContain(PASSWORD);
    }
  });

  it('every file the plugin wrote is 0600 and every directory 0700', () => {
    const written = walk(world.home).filter((entry) => !entry.path.includes('/projects/'));
    expect(written.length).toBeGreaterThan(3);
    for (const entry of written) expect(entry.mode.toString(8), entry.path).toBe(entry.dir ? '700' : '600');
  });
});
