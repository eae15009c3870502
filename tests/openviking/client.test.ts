/**
 * Client behaviour the OpenViking test server cannot provoke: malformed and
 * odd replies, key redaction, local refusals. A scripted node:http server on
 * 127.0.0.1 answers each path with a fixed status and body.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenVikingClient } from '../../src/openviking/client.js';
import { createSocketHttpTransport, socketHttpTransport } from '../../src/openviking/socketHttp.js';
import type { ClientOptions, OvFailure, OvResult } from '../../src/openviking/types.js';
import { mayStillLand } from '../../src/capture/inflight.js';

interface Scripted {
  status: number;
  body: string;
}
const script = new Map<string, Scripted>();
const seen: Array<{ path: string; headers: Record<string, string | string[] | undefined> }> = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      seen.push({ path, headers: req.headers });
      const reply = script.get(path) ?? {
        status: 200,
        body: JSON.stringify({ status: 'ok', result: { echoed: req.headers.authorization ?? null } }),
      };
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (overrides: Partial<ClientOptions> = {}) =>
  createOpenVikingClient({
    baseUrl: `${url}/`,
    http: socketHttpTransport,
    now: Date.now,
    timeoutMs: 2000,
    userAgent: 'openviking-codebuddy/test',
    ...overrides,
  });
const answer = (path: string, status: number, body: unknown) =>
  script.set(path, { status, body: typeof body === 'string' ? body : JSON.stringify(body) });

function failureOf<T>(result: OvResult<T>) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.result)}`);
  return result;
}

describe('envelope handling', () => {
  it('a 200 with status:"error" is a failure with the server’s code and details', async () => {
    answer('/api/v1/system/status', 200, {
      status: 'error',
      error: { code: 'NOT_INITIALIZED', message: 'warming up', details: { eta: 3 } },
    });
    expect(await client().systemStatus()).toEqual({
      ok: false,
      status: 200,
      code: 'NOT_INITIALIZED',
      message: 'warming up',
      details: { eta: 3 },
      retryable: false,
    });
  });

  it('result.status "skipped" is a domain state, not a failure', async () => {
    answer('/api/v1/sessions/s1/commit', 200, {
      status: 'ok',
      result: { session_id: 's1', status: 'skipped', task_id: null, reason: 'no_messages', extra: 1 },
    });
    expect(await client().commit('s1')).toEqual({
      ok: true,
      status: 200,
      result: { session_id: 's1', status: 'skipped', task_id: null, reason: 'no_messages' },
    });
  });

  it('a non-JSON error page keeps the status and quotes the page briefly', async () => {
    answer('/api/v1/search/find', 502, `<html><body>Bad Gateway${' '.repeat(10)}${'x'.repeat(500)}</body></html>`);
    const failure = failureOf(await client().find({ query: 'q' }));
    expect(failure).toMatchObject({ status: 502, code: 'HTTP_502', retryable: true });
    expect(failure.message).toMatch(/^HTTP 502: <html><body>Bad Gateway x+…$/);
    expect(failure.message.length).toBeLessThan(260);
  });

  it('an old server’s {"detail": …} becomes the message', async () => {
    answer('/api/v1/search/recall', 422, { detail: 'extra fields not permitted' });
    expect(await client().recall({ query: 'q' })).toMatchObject({
      ok: false,
      status: 422,
      code: 'HTTP_422',
      message: 'extra fields not permitted',
      retryable: false,
    });
  });

  it('a 2xx that is not JSON is BAD_RESPONSE, not retryable', async () => {
    answer('/health', 200, 'OK');
    expect(await client().health()).toMatchObject({ ok: false, status: 200, code: 'BAD_RESPONSE', retryable: false });
  });

  it('tolerates nulls and extra keys', async () => {
    answer('/api/v1/search/search', 200, {
      status: 'ok',
      telemetry: null,
      result: {
        entries: [{ uri: 'viking://a', score: null, text: 'x', surprise: [1] }],
        rendered: null,
        digest: null,
        stats: null,
        more: {},
      },
    });
    expect(await client().searchContext({ query: 'q', mode: 'context' })).toEqual({
      ok: true,
      status: 200,
      result: { entries: [{ uri: 'viking://a', text: 'x' }], rendered: '', digest: '' },
    });
  });
});

describe('shape checks → BAD_RESPONSE', () => {
  const cases: Array<[string, string, unknown, (c: ReturnType<typeof client>) => Promise<OvResult<unknown>>, RegExp]> =
    [
      [
        'entries not an array',
        '/api/v1/search/search',
        { status: 'ok', result: { entries: {}, rendered: '' } },
        (c) => c.searchContext({ query: 'q', mode: 'context' }),
        /result\.entries: expected array, got object/,
      ],
      [
        'entry without uri',
        '/api/v1/search/recall',
        { status: 'ok', result: { entries: [{ score: 1 }] } },
        (c) => c.recall({ query: 'q' }),
        /result\.entries\[0\]\.uri: expected string, got undefined/,
      ],
      [
        'find bucket not a list',
        '/api/v1/search/find',
        { status: 'ok', result: { memories: 'none' } },
        (c) => c.find({ query: 'q' }),
        /result\.memories: expected array/,
      ],
      [
        'ls result not a list',
        '/api/v1/fs/ls',
        { status: 'ok', result: { entries: [] } },
        (c) => c.ls('viking://x'),
        /result: expected array, got object/,
      ],
      [
        'read result not text',
        '/api/v1/content/read',
        { status: 'ok', result: 42 },
        (c) => c.read('viking://x'),
        /result: expected string, got number/,
      ],
      [
        'commit without status',
        '/api/v1/sessions/s2/commit',
        { status: 'ok', result: { session_id: 's2' } },
        (c) => c.commit('s2'),
        /result\.status: expected string/,
      ],
      [
        'pending_tokens as text',
        '/api/v1/sessions/s3',
        { status: 'ok', result: { pending_tokens: '12' } },
        (c) => c.getSession('s3'),
        /result\.pending_tokens: expected number, got string/,
      ],
      ['health not an object', '/health', '[1,2]', (c) => c.health(), /health: expected object, got array/],
    ];
  it.each(cases)('%s', async (_name, path, body, call, message) => {
    answer(path, 200, body);
    const failure = failureOf(await call(client()));
    expect(failure).toMatchObject({ status: 200, code: 'BAD_RESPONSE', retryable: false });
    expect(failure.message).toMatch(message);
  });

  it('simple ls listings (bare strings) become entries', async () => {
    answer('/api/v1/fs/ls', 200, { status: 'ok', result: ['viking://a', { uri: 'viking://b', isDir: true }] });
    expect(await client().ls('viking://', { simple: true })).toMatchObject({
      ok: true,
      result: [{ uri: 'viking://a' }, { uri: 'viking://b', isDir: true }],
    });
  });

  it("a commit task: its status, this commit's counts and diff; an odd count or key is left out (DESIGN F24)", async () => {
    answer('/api/v1/tasks/t%201', 200, {
      status: 'ok',
      result: {
        task_id: 't 1',
        task_type: 'session_commit',
        status: 'completed',
        created_at: 1770000000.5,
        error: null,
        result: {
          archive_uri: 'viking://user/u/sessions/s/history/archive_001',
          memories_extracted: { events: 2, preferences: 1, odd: -1, half: 0.5, __proto__: 3 },
          memory_diff_uri: 'viking://user/u/sessions/s/history/archive_001/memory_diff.json',
        },
      },
    });
    expect(await client().getTask('t 1')).toEqual({
      ok: true,
      status: 200,
      result: {
        task_id: 't 1',
        status: 'completed',
        memories_extracted: { events: 2, preferences: 1 },
        memory_diff_uri: 'viking://user/u/sessions/s/history/archive_001/memory_diff.json',
        archive_uri: 'viking://user/u/sessions/s/history/archive_001',
      },
    });
    answer('/api/v1/tasks/t2', 200, {
      status: 'ok',
      result: { task_id: 't2', status: 'failed', error: 'VLM_FAILED', result: null },
    });
    expect(await client().getTask('t2')).toMatchObject({ ok: true, result: { status: 'failed', error: 'VLM_FAILED' } });
    expect(failureOf(await client().getTask(''))).toMatchObject({ status: 0, code: 'BAD_REQUEST' });
  });

  it('a session reply without session_id is read as the requested session', async () => {
    answer('/api/v1/sessions/s4/messages/batch', 200, { status: 'ok', result: { added: 1 } });
    expect(await client().addMessages('s4', [])).toEqual({
      ok: true,
      status: 200,
      result: { session_id: 's4', added: 1 },
    });
  });
});

describe('secrets and headers', () => {
  it('never puts the API key in a failure message, even when the server echoes it', async () => {
    answer('/api/v1/system/status', 401, {
      status: 'error',
      error: { code: 'UNAUTHENTICATED', message: 'Invalid API Key: s3cr3t-key (Bearer s3cr3t-key)' },
    });
    const failure = failureOf(await client({ apiKey: 's3cr3t-key' }).systemStatus());
    expect(failure.message).toBe('Invalid API Key: *** (Bearer ***)');
  });

  it('sends Bearer only with a key, trims identity values, and trims the base URL’s slash', async () => {
    script.delete('/api/v1/system/status');
    seen.length = 0;
    await client({ apiKey: ' k1 ', account: ' ', user: ' bob ' }).systemStatus();
    await client().systemStatus();
    const [keyed, anonymous] = seen;
    expect(keyed?.path).toBe('/api/v1/system/status');
    expect(keyed?.headers['authorization']).toBe('Bearer k1');
    expect(keyed?.headers['x-openviking-account']).toBeUndefined();
    expect(keyed?.headers['x-openviking-user']).toBe('bob');
    expect(keyed?.headers['user-agent']).toBe('openviking-codebuddy/test');
    expect(keyed?.headers['accept']).toBe('application/json');
    expect(anonymous?.headers['authorization']).toBeUndefined();
  });
});

describe('local refusals', () => {
  it('an empty session id is refused without a request (it would hit the session list route)', async () => {
    seen.length = 0;
    expect(await client().commit('')).toMatchObject({ ok: false, status: 0, code: 'BAD_REQUEST', retryable: false });
    expect(seen).toHaveLength(0);
  });

  it('an unserialisable body is refused without a request', async () => {
    seen.length = 0;
    const cyclic: Record<string, unknown> = { role: 'user', parts: [] };
    cyclic['self'] = cyclic;
    expect(await client().addMessage('s5', cyclic as never)).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
      retryable: false,
    });
    expect(seen).toHaveLength(0);
  });

  it('an oversized reply is BAD_RESPONSE, not retryable', async () => {
    answer('/api/v1/content/read', 200, { status: 'ok', result: 'x'.repeat(5000) });
    const small = createSocketHttpTransport({ maxResponseBytes: 1024 });
    expect(await client({ http: small }).read('viking://big')).toMatchObject({
      ok: false,
      status: 0,
      code: 'BAD_RESPONSE',
      retryable: false,
    });
  });

  it('a transport that throws synchronously still yields a NETWORK result', async () => {
    const exploding = () => {
      throw new Error('socket table full');
    };
    expect(await client({ http: exploding }).health()).toMatchObject({
      ok: false,
      status: 0,
      code: 'NETWORK',
      retryable: true,
      message: expect.stringMatching(/socket table full/),
    });
  });

  it('a request that never left is NETWORK and says so as data (unsent), whatever its message; any other NETWORK failure does not', async () => {
    const refused = await client({ baseUrl: 'http://127.0.0.1:1' }).health();
    expect(refused).toMatchObject({
      ok: false,
      status: 0,
      code: 'NETWORK',
      unsent: true,
      message: expect.stringMatching(/ECONNREFUSED/),
    });
    const worded = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1 (a message is no fact)'));
    const unknown = await client({ http: worded }).health();
    expect(unknown).toMatchObject({ ok: false, code: 'NETWORK' });
    expect(unknown).not.toHaveProperty('unsent');
    expect(mayStillLand(refused as OvFailure)).toBe(false);
    expect(mayStillLand(unknown as OvFailure)).toBe(true);
  });

  it('the effective timeout is the smaller of per-call timeout and time left', async () => {
    const timeouts: number[] = [];
    const recording: ClientOptions['http'] = (request) => {
      timeouts.push(request.timeoutMs);
      return socketHttpTransport(request);
    };
    let now = 1_000_000;
    const ov = client({ http: recording, now: () => now, timeoutMs: 5000, deadlineAt: 1_000_000 + 800 });
    await ov.health();
    now += 700;
    await ov.searchContext({ query: 'q', mode: 'context' }, 20_000);
    expect(timeouts).toEqual([800, 100]);
  });
});
