/**
 * The client against the OpenViking test server (tests/support/ov-server):
 * every endpoint function, the headers it sends, and how each fault switch
 * surfaces as an `OvResult`. Real node:http transport, real loopback sockets.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenVikingClient } from '../../src/openviking/client.js';
import { socketHttpTransport } from '../../src/openviking/socketHttp.js';
import type { ClientOptions, OvResult, SessionMessage } from '../../src/openviking/types.js';
import { USER_AGENT } from '../../src/version.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';

const USER = 'default';
const MEMORIES = `viking://user/${USER}/memories`;

let server: OvTestServer;

beforeAll(async () => {
  server = await startOvServer({
    seed: {
      files: {
        'memories/profile.md': 'Alice writes TypeScript and prefers small modules.',
        'memories/preferences/alice/editor.md': {
          content: 'Alice edits code in vim with relative line numbers.',
          abstract: 'vim editor preference',
        },
        'memories/entities/alice/project.md': {
          content: 'Project Falcon is a TypeScript memory plugin.',
          abstract: 'project falcon',
        },
      },
    },
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.faults.clear();
  server.clearRequests();
});

const client = (overrides: Partial<ClientOptions> = {}) =>
  createOpenVikingClient({
    baseUrl: server.url,
    http: socketHttpTransport,
    now: Date.now,
    timeoutMs: 3000,
    userAgent: USER_AGENT,
    ...overrides,
  });

function expectOk<T>(result: OvResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.status} ${result.code}: ${result.message}`);
  return result.result;
}

const userTurn = (text: string): SessionMessage => ({ role: 'user', parts: [{ type: 'text', text }] });

describe('endpoints', () => {
  it('health: bare body, no auth needed, identifies the plugin', async () => {
    const health = expectOk(await client().health());
    expect(health).toMatchObject({ status: 'ok', healthy: true, auth_mode: 'dev' });
    const [request] = server.requests({ path: '/health' });
    expect(request?.headers['user-agent']).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^openviking-codebuddy\/\d+\.\d+\.\d+/);
    expect(request?.headers['content-type']).toBeUndefined();
  });

  it('systemStatus: the caller’s user', async () => {
    expect(expectOk(await client().systemStatus())).toEqual({ initialized: true, user: USER });
  });

  it('ls: GET /api/v1/fs/ls with the options as query parameters', async () => {
    const entries = expectOk(
      await client().ls(`${MEMORIES}/preferences`, { recursive: true, output: 'agent', absLimit: 512, nodeLimit: 512 }),
    );
    expect(entries.map((entry) => entry.uri)).toContain(`${MEMORIES}/preferences/alice/editor.md`);
    const [request] = server.requests({ path: '/api/v1/fs/ls' });
    expect(request?.query).toEqual({
      uri: `${MEMORIES}/preferences`,
      recursive: 'true',
      output: 'agent',
      abs_limit: '512',
      node_limit: '512',
    });
  });

  it('read: the file text; a missing file is a non-retryable NOT_FOUND', async () => {
    expect(expectOk(await client().read(`${MEMORIES}/profile.md`))).toBe(
      'Alice writes TypeScript and prefers small modules.',
    );
    const missing = await client().read(`${MEMORIES}/nope.md`);
    expect(missing).toMatchObject({ ok: false, status: 404, code: 'NOT_FOUND', retryable: false });
  });

  it('searchContext: POST /api/v1/search/search with the body unchanged', async () => {
    const body = {
      query: 'which editor does alice use',
      mode: 'context' as const,
      purpose: 'coding' as const,
      score_threshold: 0,
    };
    const result = expectOk(await client().searchContext(body));
    expect(Array.isArray(result.entries)).toBe(true);
    expect(typeof result.rendered).toBe('string');
    expect(typeof result.digest).toBe('string');
    const [request] = server.requests({ path: '/api/v1/search/search' });
    expect(request?.body).toEqual(body);
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('searchContext: a legacy server’s 400 is a non-retryable failure carrying the server code', async () => {
    server.faults.legacyContextFace = true;
    const result = await client().searchContext({ query: 'editor', mode: 'context' });
    expect(result).toMatchObject({ ok: false, status: 400, retryable: false });
  });

  it('recall: POST /api/v1/search/recall', async () => {
    const result = expectOk(await client().recall({ query: 'editor vim', render: true, min_score: 0 }));
    expect(typeof result.rendered).toBe('string');
    expect(server.requests({ path: '/api/v1/search/recall' })[0]?.body).toEqual({
      query: 'editor vim',
      render: true,
      min_score: 0,
    });
  });

  it('find: POST /api/v1/search/find, three buckets', async () => {
    const result = expectOk(
      await client().find({ query: 'vim editor', target_uri: MEMORIES, limit: 5, score_threshold: 0 }),
    );
    expect(result.memories.some((item) => item.uri.endsWith('editor.md'))).toBe(true);
    expect(result.resources).toEqual(expect.any(Array));
    expect(result.skills).toEqual(expect.any(Array));
  });

  it('sessions: add one, add a batch, get, commit, context', async () => {
    const ov = client();
    const id = 'cc-integration-1';
    const one = expectOk(await ov.addMessage(id, userTurn('remember that I like tabs')));
    expect(one.session_id).toBe(id);
    const batch = expectOk(
      await ov.addMessages(id, [
        userTurn('and dark themes'),
        { role: 'assistant', parts: [{ type: 'text', text: 'Noted.' }] },
      ]),
    );
    expect(batch).toMatchObject({ session_id: id, added: 2 });
    expect(batch.pending_tokens).toBeGreaterThan(0);

    const info = expectOk(await ov.getSession(id));
    expect(info).toMatchObject({ session_id: id, message_count: 3 });

    const commit = expectOk(await ov.commit(id, { keep_recent_count: 0 }));
    expect(commit).toMatchObject({ session_id: id, status: 'accepted', archived: true });
    expect(server.session(id)?.commits.at(-1)?.keepRecentCount).toBe(0);
    const again = expectOk(await ov.commit(id));
    expect(again.status).toBe('skipped');
    expect(server.requests({ path: `/api/v1/sessions/${id}/commit` }).at(-1)?.body).toEqual({});

    const context = expectOk(await ov.sessionContext(id, 32000));
    expect(typeof context.latest_archive_overview).toBe('string');
    expect(server.requests({ path: `/api/v1/sessions/${id}/context` })[0]?.query).toEqual({ token_budget: '32000' });
    expect(server.session(id)?.allMessages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('sessions: the id is percent-encoded into one path segment', async () => {
    await client().getSession('cc-a/b c');
    expect(server.requests({ method: 'GET' }).at(-1)?.path).toBe('/api/v1/sessions/cc-a%2Fb%20c');
  });

  it('sessions: a commit of an unknown session is NOT_FOUND, not retryable', async () => {
    expect(await client().commit('cc-never-seen')).toMatchObject({
      ok: false,
      status: 404,
      code: 'NOT_FOUND',
      retryable: false,
    });
  });

  it('sends the actor peer on non-session routes only, and identity headers everywhere', async () => {
    const ov = client({ actorPeer: 'laptop', account: 'default', user: USER });
    expectOk(await ov.systemStatus());
    expectOk(await ov.addMessage('cc-peer', userTurn('hello there')));
    const [status] = server.requests({ path: '/api/v1/system/status' });
    const [add] = server.requests({ path: '/api/v1/sessions/cc-peer/messages' });
    expect(status?.headers['x-openviking-actor-peer']).toBe('laptop');
    expect(add?.headers['x-openviking-actor-peer']).toBeUndefined();
    for (const request of [status, add]) {
      expect(request?.headers['x-openviking-account']).toBe('default');
      expect(request?.headers['x-openviking-user']).toBe(USER);
      expect(request?.headers['authorization']).toBeUndefined();
    }
  });
});

describe('auth (api_key server)', () => {
  let keyed: OvTestServer;
  beforeAll(async () => {
    keyed = await startOvServer({
      auth: {
        mode: 'api_key',
        rootKey: 'root-secret',
        keys: { 'user-secret': { account: 'acme', user: 'alice', role: 'user' } },
      },
    });
  });
  afterAll(() => keyed.close());
  const keyedClient = (apiKey?: string) =>
    createOpenVikingClient({
      baseUrl: keyed.url,
      http: socketHttpTransport,
      now: Date.now,
      timeoutMs: 3000,
      userAgent: USER_AGENT,
      apiKey,
    });

  it('sends Authorization: Bearer <key>; health then reports the identity', async () => {
    const health = expectOk(await keyedClient('user-secret').health());
    expect(health).toMatchObject({ auth_mode: 'api_key', account_id: 'acme', user_id: 'alice', role: 'user' });
    expect(keyed.requests({ path: '/health' }).at(-1)?.headers['authorization']).toBe('Bearer user-secret');
  });

  it('no key → 401, root key on a data API → 403; neither retryable, neither message holds the key', async () => {
    expect(await keyedClient().systemStatus()).toMatchObject({
      ok: false,
      status: 401,
      code: 'UNAUTHENTICATED',
      retryable: false,
    });
    const denied = await keyedClient('root-secret').find({ query: 'x' });
    expect(denied).toMatchObject({ ok: false, status: 403, code: 'PERMISSION_DENIED', retryable: false });
    if (!denied.ok) expect(denied.message).not.toContain('root-secret');
  });
});

describe('faults', () => {
  it('server down → NETWORK, status 0, retryable; back up → ok', async () => {
    await server.stop();
    try {
      expect(await client().health()).toMatchObject({ ok: false, status: 0, code: 'NETWORK', retryable: true });
    } finally {
      await server.start();
    }
    expect((await client().health()).ok).toBe(true);
  });

  it('latency beyond the per-call timeout → TIMEOUT, retryable, on time', async () => {
    server.faults.latency(1000, { path: '/health' });
    const started = Date.now();
    const result = await client({ timeoutMs: 150 }).health();
    expect(result).toMatchObject({ ok: false, status: 0, code: 'TIMEOUT', retryable: true });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('the per-call timeout of searchContext overrides the client default', async () => {
    server.faults.latency(300, { path: '/api/v1/search/search' });
    const ov = client({ timeoutMs: 100 });
    expect((await ov.searchContext({ query: 'vim', mode: 'context' })).ok).toBe(false);
    expect((await ov.searchContext({ query: 'vim', mode: 'context' }, 2000)).ok).toBe(true);
  });

  it('a hanging server is cut by the stage deadline → DEADLINE', async () => {
    server.faults.hang({ path: '/api/v1/search/search' });
    const started = Date.now();
    const result = await client({ timeoutMs: 10_000, deadlineAt: Date.now() + 200 }).searchContext({
      query: 'vim',
      mode: 'context',
    });
    expect(result).toMatchObject({ ok: false, status: 0, code: 'DEADLINE', retryable: true });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a passed deadline sends nothing', async () => {
    const result = await client({ deadlineAt: Date.now() - 1 }).addMessage('cc-late', userTurn('too late'));
    expect(result).toMatchObject({ ok: false, code: 'DEADLINE', retryable: true });
    expect(server.requests()).toHaveLength(0);
  });

  it('a burst of 503s is retryable and clears', async () => {
    server.faults.errorBurst({ status: 503, count: 2, match: { path: '/api/v1/system/status' } });
    const ov = client();
    expect(await ov.systemStatus()).toMatchObject({ ok: false, status: 503, code: 'UNAVAILABLE', retryable: true });
    expect(await ov.systemStatus()).toMatchObject({ ok: false, status: 503, retryable: true });
    expect((await ov.systemStatus()).ok).toBe(true);
  });

  it.each([
    [500, 'INTERNAL', true],
    [429, 'RESOURCE_EXHAUSTED', true],
    [504, 'DEADLINE_EXCEEDED', true],
  ])('%i → %s, retryable %s', async (status, code, retryable) => {
    server.faults.errorBurst({ status, match: { path: /\/messages\/batch$/ } });
    const result = await client().addMessages('cc-burst', [userTurn('hi there')]);
    expect(result).toMatchObject({ ok: false, status, code, retryable });
  });

  it('409 is retryable only when the server says details.retryable: true', async () => {
    server.faults.errorBurst({ status: 409, retryable: true, match: { path: /\/commit$/ } });
    server.faults.errorBurst({ status: 409, retryable: false, match: { path: /\/commit$/ } });
    const busy = await client().commit('cc-busy');
    expect(busy).toMatchObject({
      ok: false,
      status: 409,
      code: 'CONFLICT',
      retryable: true,
      details: { retryable: true },
    });
    expect(await client().commit('cc-busy')).toMatchObject({ ok: false, status: 409, retryable: false });
  });

  it('a reset mid-response → NETWORK, retryable — although the server already stored the write', async () => {
    server.faults.resetMidResponse({ path: /\/messages\/batch$/ });
    const result = await client().addMessages('cc-reset', [userTurn('was this stored?')]);
    expect(result).toMatchObject({ ok: false, status: 0, code: 'NETWORK', retryable: true });
    expect(server.session('cc-reset')?.allMessages).toHaveLength(1);
  });
});
