/**
 * Contract §10 in the test server: `auto_commit_policy` on create and on
 * `PATCH .../config` (defaults, clamping, integers only, an idle timeout of
 * 0 or at least 300 s as 0.5.2 takes it, null disables),
 * threshold commits after message writes, the idle scanner (only when
 * enabled), and an older server that knows none of it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { call, clientFor } from './http-client.js';
import { waitFor } from '../support/wait.js';

let server: OvTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serverWith(options: Parameters<typeof startOvServer>[0] = {}) {
  server = await startOvServer(options);
  const api = clientFor(server.url);
  const patch = (sid: string, body: unknown) => call(server!.url, 'PATCH', `/api/v1/sessions/${sid}/config`, { body });
  return { server, api, patch };
}

const message = (text: string) => ({ role: 'user', content: text });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('auto_commit_policy', () => {
  it('create stores the policy with defaults for missing fields and clamped values; GET shows it', async () => {
    const { api } = await serverWith();
    const created = await api.post('/api/v1/sessions', {
      session_id: 's1',
      auto_commit_policy: { pending_token_threshold: 5_000_000, idle_timeout_seconds: 600 },
    });
    const expected = {
      pending_token_threshold: 1_000_000,
      message_count_threshold: 100,
      idle_timeout_seconds: 600,
      keep_recent_count: 0,
      min_commit_interval_seconds: 0,
    };
    expect(created.json.result.auto_commit_policy).toEqual(expected);
    expect((await api.get('/api/v1/sessions/s1')).json.result.auto_commit_policy).toEqual(expected);
    expect((await api.post('/api/v1/sessions', { session_id: 's1' })).status).toBe(409);
  });

  it('refuses unknown fields and explicit nulls; PATCH needs an existing session; null disables', async () => {
    const { api, patch } = await serverWith();
    expect((await api.post('/api/v1/sessions', { session_id: 's2', auto_commit_policy: { bogus: 1 } })).status).toBe(
      400,
    );
    const nullField = await api.post('/api/v1/sessions', {
      session_id: 's2',
      auto_commit_policy: { idle_timeout_seconds: null },
    });
    expect(nullField.status).toBe(400);
    expect(nullField.text).toContain('use auto_commit_policy=null');
    for (const seconds of [1, 299]) {
      const short = await api.post('/api/v1/sessions', {
        session_id: 's2',
        auto_commit_policy: { idle_timeout_seconds: seconds },
      });
      expect(short.status).toBe(400);
      expect(short.json.error.message).toContain('auto_commit_policy.idle_timeout_seconds must be 0 or at least 300');
    }
    expect((await patch('missing', { auto_commit_policy: {} })).status).toBe(404);
    await api.post('/api/v1/sessions/s2/messages', message('hello'));
    const set = await patch('s2', { auto_commit_policy: { message_count_threshold: 2 } });
    expect(set.json.result.auto_commit_policy).toMatchObject({
      message_count_threshold: 2,
      pending_token_threshold: 150_000,
    });
    expect((await patch('s2', { auto_commit_policy: null })).json.result.auto_commit_policy).toBeNull();
  });

  it('a write that reaches a threshold commits with the policy keep_recent_count; the answer is the post-write count', async () => {
    const { server, api, patch } = await serverWith();
    await api.post('/api/v1/sessions/s3/messages', message('one'));
    await patch('s3', { auto_commit_policy: { message_count_threshold: 3, keep_recent_count: 1 } });
    await api.post('/api/v1/sessions/s3/messages', message('two'));
    expect(server.session('s3')?.commits).toEqual([]);
    const third = await api.post('/api/v1/sessions/s3/messages/batch', { messages: [message('three')] });
    expect(third.json.result).toMatchObject({ message_count: 3, added: 1 });
    const commits = server.session('s3')?.commits ?? [];
    expect(commits.map((c) => [c.status, c.auto, c.keepRecentCount])).toEqual([['accepted', 'threshold', 1]]);
    expect(server.session('s3')?.messages.map((m) => m.parts[0]?.text)).toEqual(['three']);
    expect((await api.get('/api/v1/sessions/s3')).json.result).toMatchObject({
      message_count: 1,
      total_message_count: 3,
    });
    expect((await api.get('/api/v1/sessions/s3')).json.result.last_auto_commit_at).not.toBe('');
  });

  it('the idle scanner commits sessions idle past their timeout, only when enabled', async () => {
    // The server's clock, moved by the test: the shortest idle timeout 0.5.2 takes is 300 s.
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => clock;
    const off = await serverWith({ now });
    await off.api.post('/api/v1/sessions', { session_id: 'idle', auto_commit_policy: { idle_timeout_seconds: 300 } });
    await off.api.post('/api/v1/sessions/idle/messages', message('quiet'));
    clock += 301_000;
    await sleep(300);
    expect(off.server.session('idle')?.commits).toEqual([]);
    await off.server.close();

    const on = await serverWith({ now, autoCommit: { idleScanMs: 50 } });
    await on.api.post('/api/v1/sessions', { session_id: 'idle', auto_commit_policy: { idle_timeout_seconds: 300 } });
    await on.api.post('/api/v1/sessions', { session_id: 'none' });
    await on.api.post('/api/v1/sessions/idle/messages', message('quiet'));
    await on.api.post('/api/v1/sessions/none/messages', message('no policy'));
    clock += 299_000;
    await sleep(300);
    expect(on.server.session('idle')?.commits).toEqual([]);
    clock += 2_000;
    await waitFor(() => on.server.session('idle')?.commits.length === 1, { what: 'the idle commit' });
    expect(on.server.session('idle')?.commits.map((c) => [c.status, c.auto])).toEqual([['accepted', 'idle']]);
    expect(on.server.session('none')?.commits).toEqual([]);
  });

  it('an older server: create refuses the field (422), the config route does not exist (404)', async () => {
    const { api, patch } = await serverWith({ autoCommit: { supported: false } });
    const created = await api.post('/api/v1/sessions', { session_id: 'old', auto_commit_policy: {} });
    expect(created.status).toBe(422);
    expect(created.text).toContain('auto_commit_policy');
    await api.post('/api/v1/sessions/old/messages', message('hi'));
    expect((await patch('old', { auto_commit_policy: {} })).status).toBe(404);
  });
});
