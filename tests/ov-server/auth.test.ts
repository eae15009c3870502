/**
 * Contract §1.2 and §3: auth modes dev / api_key / trusted, ROOT's 403 on
 * tenant data, `X-API-Key` over Bearer, the `~` home alias (expanded for
 * ROOT too on 0.5.2, docs/host-facts.md F37), a wrong key at `/health` (F35),
 * the uid-less shorthand, per-user visibility, actor-peer validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { clientFor } from './http-client.js';

const FIND = '/api/v1/search/find';

describe('dev mode', () => {
  let server: OvTestServer;
  beforeAll(async () => {
    server = await startOvServer({ seed: { user: 'alice', files: { 'memories/profile.md': 'Alice likes tea' } } });
  });
  afterAll(() => server.close());

  it('every request is ROOT with account/user from headers, default "default"', async () => {
    const api = clientFor(server.url);
    expect((await api.get('/api/v1/system/status')).json.result.user).toBe('default');
    const as = await api.get('/api/v1/system/status', { headers: { 'X-OpenViking-User': ' bob ' } });
    expect(as.json.result.user).toBe('bob');
  });

  it("viking://~ is the header user's space for ROOT too (default without one)", async () => {
    const asAlice = clientFor(server.url, { 'X-OpenViking-User': 'alice' });
    const found = await asAlice.post(FIND, { query: 'tea', target_uri: 'viking://~/memories' });
    expect(found.json.result.memories.map((item: { uri: string }) => item.uri)).toEqual([
      'viking://user/alice/memories/profile.md',
    ]);
    const anonymous = await clientFor(server.url).get('/api/v1/content/read?uri=viking://~/memories/profile.md');
    expect(anonymous.json.error.message).toBe('File not found: viking://user/default/memories/profile.md');
  });

  it('ROOT sees every user under viking://user (seeded, or homes made by earlier requests)', async () => {
    const res = await clientFor(server.url, { 'X-OpenViking-User': 'carol' }).get(
      '/api/v1/fs/ls?uri=viking://user&output=original',
    );
    // alice is seeded; default and bob made requests above; carol's home exists from this request
    expect(res.json.result.map((entry: { name: string }) => entry.name).sort()).toEqual([
      'alice',
      'bob',
      'carol',
      'default',
    ]);
  });
});

describe('api_key mode', () => {
  let server: OvTestServer;
  beforeAll(async () => {
    server = await startOvServer({
      auth: {
        mode: 'api_key',
        rootKey: 'root-key',
        keys: {
          'alice-key': { account: 'acme', user: 'alice', role: 'user' },
          'bob-key': { account: 'acme', user: 'bob', role: 'admin' },
        },
      },
      seed: [
        { account: 'acme', user: 'alice', files: { 'memories/preferences/alice/tea.md': 'Alice prefers green tea' } },
        { account: 'acme', user: 'bob', files: { 'memories/profile.md': 'Bob' } },
      ],
    });
  });
  afterAll(() => server.close());

  it('no key → 401 UNAUTHENTICATED; unknown key → 401', async () => {
    const missing = await clientFor(server.url).get('/api/v1/system/status');
    expect(missing.status).toBe(401);
    expect(missing.json.error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: expect.stringContaining('Missing API Key'),
    });
    const unknown = await clientFor(server.url, { Authorization: 'Bearer nope' }).get('/api/v1/system/status');
    expect(unknown.status).toBe(401);
  });

  it('identity comes from the key; account/user headers are stripped', async () => {
    const res = await clientFor(server.url, { Authorization: 'Bearer alice-key', 'X-OpenViking-User': 'bob' }).get(
      '/api/v1/system/status',
    );
    expect(res.json.result.user).toBe('alice');
  });

  it('X-API-Key wins over Authorization: Bearer', async () => {
    const res = await clientFor(server.url, { 'X-API-Key': 'bob-key', Authorization: 'Bearer alice-key' }).get(
      '/api/v1/system/status',
    );
    expect(res.json.result.user).toBe('bob');
  });

  it('only the exact "Bearer " prefix counts', async () => {
    const res = await clientFor(server.url, { Authorization: 'bearer alice-key' }).get('/api/v1/system/status');
    expect(res.status).toBe(401);
  });

  it('ROOT key: 403 PERMISSION_DENIED on tenant data, allowed on system/status', async () => {
    const root = clientFor(server.url, { Authorization: 'Bearer root-key' });
    expect((await root.get('/api/v1/system/status')).status).toBe(200);
    for (const res of [
      await root.post(FIND, { query: 'x' }),
      await root.post('/api/v1/sessions/s/messages', { role: 'user', content: 'x' }),
      await root.get('/api/v1/fs/ls?uri=viking://user'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('PERMISSION_DENIED');
    }
  });

  it('viking://~ expands to the caller for USER/ADMIN; responses echo the canonical URI', async () => {
    const res = await clientFor(server.url, { Authorization: 'Bearer alice-key' }).post(FIND, {
      query: 'green tea',
      target_uri: 'viking://~/memories',
    });
    expect(res.status).toBe(200);
    expect(res.json.result.memories[0].uri).toBe('viking://user/alice/memories/preferences/alice/tea.md');
  });

  it('uid-less viking://user/memories/... is 400 INVALID_URI for USER', async () => {
    const res = await clientFor(server.url, { Authorization: 'Bearer alice-key' }).post(FIND, {
      query: 'tea',
      target_uri: 'viking://user/memories',
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_URI');
    expect(res.json.error.message).toContain('viking://~/memories');
  });

  it("another user's space is 403; viking://user lists only the caller", async () => {
    const alice = clientFor(server.url, { Authorization: 'Bearer alice-key' });
    expect((await alice.get('/api/v1/content/read?uri=viking://user/bob/memories/profile.md')).status).toBe(403);
    const users = await alice.get('/api/v1/fs/ls?uri=viking://user&output=original');
    expect(users.json.result.map((entry: { name: string }) => entry.name)).toEqual(['alice']);
  });

  it('/health carries identity fields when a key was sent, and a wrong key is 401 there too', async () => {
    const anon = await clientFor(server.url).get('/health');
    expect(anon.json.user_id).toBeUndefined();
    const keyed = await clientFor(server.url, { Authorization: 'Bearer alice-key' }).get('/health');
    expect(keyed.json).toMatchObject({ auth_mode: 'api_key', account_id: 'acme', user_id: 'alice', role: 'user' });
    const bad = await clientFor(server.url, { Authorization: 'Bearer nope' }).get('/health');
    expect(bad.status).toBe(401);
    expect(bad.json).toMatchObject({ status: 'error', error: { code: 'UNAUTHENTICATED', message: 'Invalid API key' } });
  });

  it('a bad X-OpenViking-Actor-Peer is 400 on data routes but ignored on session routes', async () => {
    const alice = clientFor(server.url, { Authorization: 'Bearer alice-key', 'X-OpenViking-Actor-Peer': 'a/b' });
    expect((await alice.post(FIND, { query: 'x' })).status).toBe(400);
    expect((await alice.post('/api/v1/sessions/s-peer/messages', { role: 'user', content: 'hi' })).status).toBe(200);
  });
});

describe('trusted mode', () => {
  let server: OvTestServer;
  beforeAll(async () => {
    server = await startOvServer({ auth: { mode: 'trusted' } });
  });
  afterAll(() => server.close());

  it('account and user headers are the identity, both required', async () => {
    const ok = await clientFor(server.url, { 'X-OpenViking-Account': 'acme', 'X-OpenViking-User': 'dave' }).get(
      '/api/v1/system/status',
    );
    expect(ok.json.result.user).toBe('dave');
    const missing = await clientFor(server.url, { 'X-OpenViking-User': 'dave' }).get('/api/v1/system/status');
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('INVALID_ARGUMENT');
    const empty = await clientFor(server.url, { 'X-OpenViking-Account': '  ', 'X-OpenViking-User': 'dave' }).get(
      '/api/v1/system/status',
    );
    expect(empty.status).toBe(400);
  });

  it('the role is USER, so ~ expands', async () => {
    const res = await clientFor(server.url, { 'X-OpenViking-Account': 'acme', 'X-OpenViking-User': 'dave' }).post(
      FIND,
      { query: 'x', target_uri: 'viking://~/memories' },
    );
    expect(res.status).toBe(200);
  });

  it('with a root key configured, the key must match (401 otherwise)', async () => {
    const guarded = await startOvServer({ auth: { mode: 'trusted', rootKey: 'gate' } });
    try {
      const headers = { 'X-OpenViking-Account': 'acme', 'X-OpenViking-User': 'dave' };
      expect((await clientFor(guarded.url, headers).get('/api/v1/system/status')).status).toBe(401);
      expect(
        (await clientFor(guarded.url, { ...headers, 'X-API-Key': 'gate' }).get('/api/v1/system/status')).status,
      ).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
