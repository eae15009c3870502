/**
 * Fault switches and the request log: down/up on the same port, latency,
 * error bursts (500/503/429/409 retryable), hang, reset mid-response (after
 * the handler ran), legacy context face, missing recall route, hostile
 * text.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_TEXT, startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { call, clientFor } from './http-client.js';

let server: OvTestServer;
let api: ReturnType<typeof clientFor>;
const STATUS = '/api/v1/system/status';

beforeAll(async () => {
  server = await startOvServer({
    seed: { user: 'u1', files: { 'memories/preferences/u1/tea.md': 'Prefers green tea' } },
  });
  api = clientFor(server.url, { 'X-OpenViking-User': 'u1' });
});
afterEach(() => {
  server.faults.clear();
});
afterAll(() => server.close());

describe('down and up', () => {
  it('stop() refuses connections; start() answers again on the same port', async () => {
    const port = server.port;
    await server.stop();
    expect(server.running).toBe(false);
    await expect(api.get('/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await server.start();
    expect(server.port).toBe(port);
    expect((await api.get('/health')).status).toBe(200);
  });

  it('stop() also drops requests in flight', async () => {
    server.faults.hang({ path: STATUS });
    const pending = api.get(STATUS, { timeoutMs: 5000 });
    await server.waitForRequests({ path: STATUS });
    await server.stop();
    await expect(pending).rejects.toThrow();
    await server.start();
  });
});

describe('latency', () => {
  it('delays matching requests only', async () => {
    server.faults.latency(250, { path: STATUS });
    let started = Date.now();
    await api.get(STATUS);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    started = Date.now();
    await api.get('/health');
    expect(Date.now() - started).toBeLessThan(200);
  });
});

describe('error bursts', () => {
  it.each([
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
    [429, 'RESOURCE_EXHAUSTED'],
  ])('the next N matching requests answer %i %s, then normal service resumes', async (status, code) => {
    server.faults.errorBurst({ status, count: 2, match: { path: /\/messages/ } });
    const post = () => api.post('/api/v1/sessions/burst/messages', { role: 'user', content: 'x' });
    for (let i = 0; i < 2; i += 1) {
      const res = await post();
      expect(res.status).toBe(status);
      expect(res.json.error.code).toBe(code);
    }
    expect((await api.get(STATUS)).status).toBe(200);
    expect((await post()).status).toBe(200);
  });

  it('409 carries details.retryable (true by default, settable)', async () => {
    server.faults.errorBurst({ status: 409, count: 1 });
    server.faults.errorBurst({ status: 409, count: 1, retryable: false });
    expect((await api.get(STATUS)).json.error).toMatchObject({ code: 'CONFLICT', details: { retryable: true } });
    expect((await api.get(STATUS)).json.error.details.retryable).toBe(false);
  });

  it('a faulted request never reaches the handler (no state change)', async () => {
    server.faults.errorBurst({ status: 503, match: { path: '/api/v1/sessions/untouched/messages' } });
    await api.post('/api/v1/sessions/untouched/messages', { role: 'user', content: 'x' });
    expect(server.session('untouched')).toBeUndefined();
  });
});

describe('hang and reset', () => {
  it('hang: the request is read and never answered', async () => {
    server.faults.hang({ path: STATUS }, 1);
    await expect(api.get(STATUS, { timeoutMs: 300 })).rejects.toThrow('client timeout');
    expect(server.requests({ path: STATUS }).at(-1)).toMatchObject({ fault: 'hang', status: 0 });
    expect((await api.get(STATUS)).status).toBe(200);
  });

  it('resetMidResponse: the handler runs, then the body is cut and the socket destroyed', async () => {
    server.faults.resetMidResponse({ path: /\/messages$/ });
    await expect(api.post('/api/v1/sessions/reset/messages', { role: 'user', content: 'landed' })).rejects.toThrow();
    expect(server.session('reset')?.allMessages.map((m) => m.parts[0]?.['text'])).toEqual(['landed']);
    expect((await api.post('/api/v1/sessions/reset/messages', { role: 'user', content: 'again' })).status).toBe(200);
  });
});

describe('old-server faces', () => {
  it('legacyContextFace: context search → 400 naming the extra "mode"; list and find still work', async () => {
    server.faults.legacyContextFace = true;
    const res = await api.post('/api/v1/search/search', { query: 'tea', mode: 'context', purpose: 'coding' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toMatch(/extra/i);
    expect(JSON.stringify(res.json)).toContain('mode');
    expect((await api.post('/api/v1/search/recall', { query: 'tea' })).status).toBe(200);
    expect((await api.post('/api/v1/search/find', { query: 'tea' })).status).toBe(200);
    expect(server.requests({ path: '/api/v1/search/search' }).at(-1)?.fault).toBe('legacy');
  });

  it('noRecallRoute: /search/recall is 404 NOT_FOUND', async () => {
    server.faults.noRecallRoute = true;
    const res = await api.post('/api/v1/search/recall', { query: 'tea' });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });
});

describe('a hostile server', () => {
  it('hostileText: every string of every answer ends in HOSTILE_TEXT, the envelope status kept; errors too; MCP too', async () => {
    server.faults.hostileText = true;
    const health = await api.get('/health');
    expect(health.json.status).toBe('ok');
    expect(health.json.version).toBe(`${String(health.json.version).replace(HOSTILE_TEXT, '')}${HOSTILE_TEXT}`);
    const found = await api.post('/api/v1/search/find', { query: 'tea' });
    expect(found.json.status).toBe('ok');
    const uris = JSON.stringify(found.json.result);
    expect(uris).toContain(JSON.stringify(HOSTILE_TEXT).slice(1, -1));
    const missing = await api.get('/api/v1/content/read?uri=viking://user/u1/nothing.md');
    expect(missing.json.status).toBe('error');
    expect(missing.json.error.message.endsWith(HOSTILE_TEXT)).toBe(true);
    const tools = await call(server.url, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      headers: { 'X-OpenViking-User': 'u1', Accept: 'application/json, text/event-stream' },
    });
    expect(tools.text).toContain(JSON.stringify(HOSTILE_TEXT).slice(1, -1));
  });
});

describe('request log', () => {
  it('records method, path, query, headers (auth kept), parsed body, status and timing', async () => {
    server.clearRequests();
    await call(server.url, 'POST', '/api/v1/search/find?trace=1', {
      body: { query: 'tea' },
      headers: { Authorization: 'Bearer secret-key', 'X-OpenViking-User': 'u1' },
    });
    const [entry] = server.requests({ method: 'post', path: /find/ });
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/api/v1/search/find',
      query: { trace: '1' },
      body: { query: 'tea' },
      status: 200,
    });
    expect(entry?.headers['authorization']).toBe('Bearer secret-key');
    expect(entry?.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.requests({ status: 404 })).toEqual([]);
  });

  it('waitForRequests polls for requests that arrive later, and times out', async () => {
    server.clearRequests();
    const waiting = server.waitForRequests({ path: STATUS }, 2, 2000);
    setTimeout(() => void api.get(STATUS).then(() => api.get(STATUS)), 50);
    expect(await waiting).toHaveLength(2);
    await expect(server.waitForRequests({ path: '/never' }, 1, 50)).rejects.toThrow(/waited 50 ms/);
  });
});
