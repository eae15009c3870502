/**
 * Contract §1.3–§1.6: envelope, error-code table, /health, system status,
 * request validation face, X-Request-ID, 404/405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownErrorCodes, startOvServer, statusForCode, type OvTestServer } from '../support/ov-server/index.js';
import { call, clientFor } from './http-client.js';

let server: OvTestServer;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  server = await startOvServer();
  api = clientFor(server.url);
});
afterAll(() => server.close());

describe('envelope and framework errors', () => {
  it('/health is not enveloped and has no identity without a key', async () => {
    const res = await api.get('/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', healthy: true, version: expect.any(String), auth_mode: 'dev' });
  });

  it('system/status is enveloped {status:"ok", result} with the caller user, and 0.5.2\'s null keys', async () => {
    const res = await api.get('/api/v1/system/status', { headers: { 'X-OpenViking-User': 'alice' } });
    expect(res.json).toEqual({
      status: 'ok',
      result: { initialized: true, user: 'alice' },
      error: null,
      telemetry: null,
      profile: null,
    });
  });

  it('routes 0.5.2 dumps with exclude_none answer without the null keys (find)', async () => {
    const res = await api.post('/api/v1/search/find', { query: 'x' });
    expect(Object.keys(res.json)).toEqual(['status', 'result']);
  });

  it("a raised error carries result/telemetry/profile null and details; a handler's own answer does not", async () => {
    const missing = await api.post('/api/v1/sessions/nope/commit', {});
    expect(missing.json).toEqual({
      status: 'error',
      result: null,
      error: { code: 'NOT_FOUND', message: 'Session not found: nope', details: { type: 'session', resource: 'nope' } },
      telemetry: null,
      profile: null,
    });
    const got = await api.get('/api/v1/sessions/nope');
    expect(got.json).toEqual({ status: 'error', error: { code: 'NOT_FOUND', message: 'Session nope not found' } });
  });

  it('unknown route → 404 NOT_FOUND envelope', async () => {
    const res = await api.get('/api/v1/nope');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ status: 'error', error: { code: 'NOT_FOUND', message: 'Not Found' } });
  });

  it('wrong method → 405 with code UNKNOWN and Allow', async () => {
    const res = await api.get('/api/v1/search/find');
    expect(res.status).toBe(405);
    expect(res.json.error.code).toBe('UNKNOWN');
    expect(res.headers['allow']).toBe('POST');
  });

  it('bad JSON → 400 INVALID_ARGUMENT with validation_errors (never 422)', async () => {
    const res = await call(server.url, 'POST', '/api/v1/search/find', { rawBody: '{not json' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.validation_errors[0]).toMatchObject({ type: 'json_invalid' });
  });

  it('validation message reads "Invalid request parameters: <loc>: <msg>"', async () => {
    const res = await api.post('/api/v1/sessions/s1/messages', { content: 'no role' });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('Invalid request parameters: body.role: Field required');
    expect(res.json.error.details.validation_errors).toEqual([
      { loc: ['body', 'role'], message: 'Field required', type: 'missing' },
    ]);
  });

  it('echoes a valid X-Request-ID, mints one otherwise, sets X-Process-Time', async () => {
    const sent = await api.get('/health', { headers: { 'X-Request-ID': 'abc.DEF:1-2_3' } });
    expect(sent.headers['x-request-id']).toBe('abc.DEF:1-2_3');
    const minted = await api.get('/health');
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(minted.headers['x-process-time'])).toBeGreaterThanOrEqual(0);
  });

  it('rejects a malformed or repeated X-Request-ID with 400', async () => {
    const bad = await api.get('/api/v1/system/status', { headers: { 'X-Request-ID': 'has space' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_ARGUMENT');
    const twice = await api.get('/api/v1/system/status', { headers: { 'X-Request-ID': ['a', 'b'] } });
    expect(twice.status).toBe(400);
    const tooLong = await api.get('/api/v1/system/status', { headers: { 'X-Request-ID': 'x'.repeat(129) } });
    expect(tooLong.status).toBe(400);
  });

  it('maps every documented error code to its HTTP status', () => {
    const expected: Record<number, string[]> = {
      400: [
        'INVALID_ARGUMENT',
        'INVALID_URI',
        'UNSUPPORTED_URI',
        'UNSUPPORTED_MODE',
        'INVALID_FILTER',
        'SKILL_INVALID',
        'SKILL_CAPABILITY_UNAVAILABLE',
      ],
      401: ['UNAUTHENTICATED'],
      403: ['PERMISSION_DENIED'],
      404: ['NOT_FOUND'],
      409: ['ALREADY_EXISTS', 'CONFLICT', 'ABORTED', 'WRITE_CONFLICT'],
      410: ['SESSION_EXPIRED'],
      412: ['FAILED_PRECONDITION'],
      429: ['RESOURCE_EXHAUSTED'],
      500: [
        'INTERNAL',
        'INTERNAL_ERROR',
        'PROCESSING_ERROR',
        'EMBEDDING_FAILED',
        'VLM_FAILED',
        'NOT_INITIALIZED',
        'WRITE_FAILED',
        'REFRESH_FAILED',
        'RESTORE_WRITEBACK_PARTIAL',
        'AGENT_OUTPUT_INVALID',
        'UNKNOWN',
      ],
      501: ['UNIMPLEMENTED'],
      503: ['UNAVAILABLE', 'MODEL_UNAVAILABLE', 'BOT_RESTARTED', 'NO_VECTOR_DB'],
      504: ['DEADLINE_EXCEEDED'],
    };
    const all = Object.values(expected).flat();
    expect(knownErrorCodes().sort()).toEqual([...all].sort());
    for (const [status, codes] of Object.entries(expected))
      for (const code of codes) expect(statusForCode(code)).toBe(Number(status));
  });

  it('an error-code fault answers with the table status', async () => {
    server.faults.errorBurst({ status: 412, code: 'FAILED_PRECONDITION', match: { path: '/api/v1/system/status' } });
    const res = await api.get('/api/v1/system/status');
    expect(res.status).toBe(412);
    expect(res.json).toMatchObject({ status: 'error', error: { code: 'FAILED_PRECONDITION' } });
  });
});
