/**
 * Contract §2.1: auto-create, GET 404 vs auto_create, add/batch results,
 * the 100-message limit, part validation, tool-result aggregate split,
 * CJK-aware pending_tokens, commit accepted/skipped, archive context.
 */
import { afterAll, beforeEach, beforeAll, describe, expect, it } from 'vitest';
import { estimateTokens, startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { clientFor } from './http-client.js';

let server: OvTestServer;
let api: ReturnType<typeof clientFor>;
let sid: string;
let n = 0;

beforeAll(async () => {
  server = await startOvServer();
  api = clientFor(server.url, { 'X-OpenViking-User': 'u1' });
});
afterAll(() => server.close());
beforeEach(() => {
  sid = `cc-session-${++n}`;
});

const path = (suffix = ''): string => `/api/v1/sessions/${sid}${suffix}`;
const text = (role: string, content: string) => ({ role, content });

describe('session lifecycle', () => {
  it('GET of a missing session is 404 unless auto_create=true', async () => {
    expect((await api.get(path())).status).toBe(404);
    const created = await api.get(path('?auto_create=true'));
    expect(created.status).toBe(200);
    expect(created.json.result).toMatchObject({
      session_id: sid,
      message_count: 0,
      commit_count: 0,
      pending_tokens: 0,
      uri: `viking://user/u1/sessions/${sid}`,
    });
    expect((await api.get(path())).status).toBe(200);
  });

  it('the first POST messages auto-creates; result {session_id, message_count, pending_tokens}', async () => {
    const res = await api.post(path('/messages'), text('user', 'hello world!'));
    expect(res.json).toEqual({
      status: 'ok',
      result: { session_id: sid, message_count: 1, pending_tokens: 3 },
      error: null,
      telemetry: null,
      profile: null,
    });
    expect(server.session(sid)?.allMessages.map((m) => m.parts)).toEqual([[{ type: 'text', text: 'hello world!' }]]);
  });

  it('batch: result {session_id, message_count, added, pending_tokens}; order kept; ids minted', async () => {
    const res = await api.post(path('/messages/batch'), {
      messages: [text('user', 'one'), text('assistant', 'two'), text('user', 'three')],
    });
    // per-message ceil: one → 1, two → 1, three → 2
    expect(res.json.result).toEqual({ session_id: sid, message_count: 3, added: 3, pending_tokens: 4 });
    const stored = server.session(sid)?.allMessages ?? [];
    expect(stored.map((m) => m.parts[0]?.['text'])).toEqual(['one', 'two', 'three']);
    expect(stored.every((m) => /^msg_[0-9a-f]{32}$/.test(m.id))).toBe(true);
  });

  it('batch of 101 → 400 and nothing stored; 100 is fine', async () => {
    const many = (count: number) => ({ messages: Array.from({ length: count }, (_, i) => text('user', `m${i}`)) });
    const tooMany = await api.post(path('/messages/batch'), many(101));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.code).toBe('INVALID_ARGUMENT');
    expect(server.session(sid)).toBeUndefined();
    expect((await api.post(path('/messages/batch'), many(100))).json.result.added).toBe(100);
  });

  it('a batch with one invalid item is rejected whole, with the item loc', async () => {
    const res = await api.post(path('/messages/batch'), { messages: [text('user', 'ok'), { content: 'no role' }] });
    expect(res.status).toBe(400);
    expect(res.json.error.details.validation_errors[0].loc).toEqual(['body', 'messages', 1, 'role']);
    expect(server.session(sid)).toBeUndefined();
  });

  it('unknown keys on messages are ignored; content or parts is required; parts win', async () => {
    expect((await api.post(path('/messages'), { ...text('user', 'x'), surprise: 1 })).status).toBe(200);
    expect((await api.post(path('/messages'), { role: 'user' })).status).toBe(400);
    await api.post(path('/messages'), { role: 'user', content: 'ignored', parts: [{ type: 'text', text: 'wins' }] });
    expect(server.session(sid)?.allMessages[1]?.parts).toEqual([{ type: 'text', text: 'wins' }]);
  });

  it('validates part shapes: tool_status enum, non-empty image url, viking URIs, peer_id', async () => {
    const bad = [
      { role: 'assistant', parts: [{ type: 'tool', tool_status: 'done' }] },
      { role: 'user', parts: [{ type: 'image_url', image_url: { url: '' } }] },
      { role: 'user', parts: [{ type: 'context', uri: 'file:///etc/passwd' }] },
      { role: 'user', content: 'x', peer_id: 'bad/peer' },
    ];
    for (const body of bad) expect((await api.post(path('/messages'), body)).status).toBe(400);
    const unknown = await api.post(path('/messages'), { role: 'user', parts: [{ type: 'mystery', text: 'coerced' }] });
    expect(unknown.status).toBe(200);
    expect(server.session(sid)?.allMessages[0]?.parts).toEqual([{ type: 'text', text: 'coerced' }]);
  });

  it('splits a user tool-result aggregate into one tool_transport message per part', async () => {
    const parts = [
      { type: 'tool', tool_id: 't1', tool_name: 'Read', tool_output: 'a', tool_status: 'completed' },
      { type: 'tool', tool_id: 't2', tool_name: 'Grep', tool_output: 'b', tool_status: 'error' },
    ];
    const res = await api.post(path('/messages/batch'), { messages: [{ role: 'user', parts }] });
    expect(res.json.result).toMatchObject({ added: 2, message_count: 2 });
    expect(server.session(sid)?.allMessages.map((m) => [m.message_kind, m.parts[0]?.['tool_id']])).toEqual([
      ['tool_transport', 't1'],
      ['tool_transport', 't2'],
    ]);
  });

  it('pending_tokens is CJK-aware: ≥U+3000 counts 1.5, else chars/4', async () => {
    expect(estimateTokens('记住我喜欢绿茶')).toBe(11); // 7 × 1.5 = 10.5 → 11
    expect(estimateTokens('abcdefgh')).toBe(2);
    const res = await api.post(path('/messages'), text('user', '记住我喜欢绿茶'));
    expect(res.json.result.pending_tokens).toBe(11);
  });
});

describe('commit', () => {
  it('unknown session → 404, not auto-created', async () => {
    const res = await api.post(path('/commit'), {});
    expect(res.status).toBe(404);
    expect(server.session(sid)).toBeUndefined();
  });

  it('empty session → skipped / no_messages', async () => {
    await api.get(path('?auto_create=true'));
    const res = await api.post(path('/commit'), {});
    expect(res.json.result).toMatchObject({
      session_id: sid,
      status: 'skipped',
      task_id: null,
      archive_uri: null,
      archived: false,
      reason: 'no_messages',
    });
  });

  it('accepted: archives all but keep_recent_count, counts update, task is pollable', async () => {
    await api.post(path('/messages/batch'), { messages: ['a', 'b', 'c', 'd'].map((t) => text('user', t)) });
    const res = await api.post(path('/commit'), { keep_recent_count: 1 });
    expect(res.json.result).toMatchObject({
      status: 'accepted',
      archived: true,
      archive_uri: `viking://user/u1/sessions/${sid}/history/archive_001`,
      budget_exceeded: false,
    });
    expect(res.json.result).toMatchObject({ trace_id: '', effective_enable_working_memory: false });
    const meta = (await api.get(path())).json.result;
    // pending_tokens counts what came after the commit, not the kept tail (0.5.2)
    expect(meta).toMatchObject({ message_count: 1, commit_count: 1, total_message_count: 4, pending_tokens: 0 });
    const snapshot = server.session(sid);
    expect(snapshot?.archives[0]?.messages.map((m) => m.parts[0]?.['text'])).toEqual(['a', 'b', 'c']);
    expect(snapshot?.messages.map((m) => m.parts[0]?.['text'])).toEqual(['d']);
    const task = await api.get(`/api/v1/tasks/${res.json.result.task_id}`);
    expect(task.json.result).toMatchObject({ status: 'completed' });
    expect((await api.get('/api/v1/tasks/nope')).status).toBe(404);
  });

  it('skipped / all_within_keep_window when keep_recent_count covers everything', async () => {
    await api.post(path('/messages'), text('user', 'only'));
    const res = await api.post(path('/commit'), { keep_recent_count: 10 });
    expect(res.json.result).toMatchObject({
      status: 'skipped',
      reason: 'all_within_keep_window',
      estimated_active_tokens: 1,
      budget_exceeded: false,
    });
  });

  it('ignores unknown keys, rejects turn-budget fields without retention_mode and out-of-range counts', async () => {
    await api.post(path('/messages'), text('user', 'x'));
    expect((await api.post(path('/commit'), { keep_recent_turn_count: 2 })).status).toBe(400);
    expect((await api.post(path('/commit'), { keep_recent_count: -1 })).status).toBe(400);
    expect((await api.post(path('/commit'), { whatever: true })).json.result.status).toBe('accepted');
  });

  it('commits with an empty body (no Content-Length body at all)', async () => {
    await api.post(path('/messages'), text('user', 'x'));
    expect((await api.post(path('/commit'))).json.result.status).toBe('accepted');
  });
});

describe('session context', () => {
  const archiveThenAdd = async (client: ReturnType<typeof clientFor>) => {
    await client.post(path('/messages/batch'), {
      messages: [text('user', 'we chose sqlite'), text('assistant', 'noted')],
    });
    await client.post(path('/commit'), {});
    await client.post(path('/messages'), text('user', 'next'));
    return (await client.get(path('/context?token_budget=32000'))).json.result;
  };

  it("working memory off (0.5.2's default): no archive overview, only the live messages", async () => {
    const context = await archiveThenAdd(api);
    expect(context.latest_archive_overview).toBe('');
    expect(context.pre_archive_abstracts).toEqual([]);
    expect(context.messages).toHaveLength(1);
    expect(context.stats).toMatchObject({ totalArchives: 1, includedArchives: 0, droppedArchives: 1 });
  });

  it('working memory on: the latest archive overview', async () => {
    const withSummaries = await startOvServer({ workingMemory: true });
    try {
      const context = await archiveThenAdd(clientFor(withSummaries.url, { 'X-OpenViking-User': 'u1' }));
      expect(context.latest_archive_overview).toContain('we chose sqlite');
      expect(context.messages).toHaveLength(1);
      expect(context.stats).toMatchObject({ totalArchives: 1, includedArchives: 1 });
    } finally {
      await withSummaries.close();
    }
  });

  it('negative token_budget → 400; missing session → 404', async () => {
    await api.get(path('?auto_create=true'));
    expect((await api.get(path('/context?token_budget=-1'))).status).toBe(400);
    expect((await api.get('/api/v1/sessions/none/context')).status).toBe(404);
  });
});
