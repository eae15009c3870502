import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpTransport, MAX_RESPONSE_BYTES, nodeHttpTransport } from '../../src/openviking/nodeHttp.js';
import { transportFailureKind } from '../../src/openviking/transportError.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const routes: Record<string, Handler> = {
  '/echo': (req, res, body) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-multi', ['a', 'b']);
    res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
  },
  '/status/503': (_req, res) => {
    res.statusCode = 503;
    res.end('{"status":"error"}');
  },
  '/hang': () => {
    // never answers
  },
  '/slow-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first part…');
    // the rest never comes
  },
  '/reset': (_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('x'.repeat(100));
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/big-declared': (_req, res) => {
    res.writeHead(200, { 'content-length': String(4096) });
    res.end('y'.repeat(4096));
  },
  '/big-chunked': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    for (let i = 0; i < 8; i += 1) res.write('z'.repeat(1024));
    res.end();
  },
  '/huge': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.alloc(MAX_RESPONSE_BYTES + 1024, 0x61));
  },
};

let server: Server;
let base: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => (routes[req.url ?? ''] ?? ((_q, r) => r.writeHead(404).end()))(req, res, body));
  });
  // Keep-alive on the server side, so a client that kept its socket would keep a child process alive.
  server.keepAliveTimeout = 10_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (path: string, timeoutMs = 2000) => nodeHttpTransport({ method: 'GET', url: base + path, headers: {}, timeoutMs });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('nodeHttpTransport', () => {
  it('sends method, headers and body, closes the connection, and lower-cases response headers', async () => {
    const response = await nodeHttpTransport({
      method: 'POST',
      url: `${base}/echo`,
      headers: { 'Content-Type': 'application/json', 'X-Test': 'yes' },
      body: '{"q":"größe"}',
      timeoutMs: 2000,
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-multi']).toBe('a, b');
    const echoed = JSON.parse(response.body) as { method: string; headers: Record<string, string>; body: string };
    expect(echoed.method).toBe('POST');
    expect(echoed.body).toBe('{"q":"größe"}');
    expect(echoed.headers['content-length']).toBe(String(Buffer.byteLength('{"q":"größe"}')));
    expect(echoed.headers['connection']).toBe('close');
    expect(echoed.headers['x-test']).toBe('yes');
  });

  it('resolves (does not reject) for error statuses', async () => {
    const response = await get('/status/503');
    expect(response.status).toBe(503);
    expect(response.body).toBe('{"status":"error"}');
  });

  it('times out a request that is never answered, within the limit', async () => {
    const started = Date.now();
    const error = await rejection(get('/hang', 150));
    expect(transportFailureKind(error)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('counts the body in the timeout (connect to last byte)', async () => {
    const error = await rejection(get('/slow-body', 150));
    expect(transportFailureKind(error)).toBe('timeout');
  });

  it('rejects as network when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await rejection(nodeHttpTransport({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {}, timeoutMs: 2000 }));
    expect(transportFailureKind(error)).toBe('network');
    expect(String((error as Error).message)).toMatch(/ECONNREFUSED/);
  });

  it('rejects when the connection is reset mid-response', async () => {
    const error = await rejection(get('/reset'));
    expect(transportFailureKind(error)).toBe('network');
  });

  it('rejects bodies over the cap, declared or streamed', async () => {
    const small = createNodeHttpTransport({ maxResponseBytes: 2048 });
    const request = (path: string) => small({ method: 'GET', url: base + path, headers: {}, timeoutMs: 2000 });
    expect(transportFailureKind(await rejection(request('/big-declared')))).toBe('too_large');
    expect(transportFailureKind(await rejection(request('/big-chunked')))).toBe('too_large');
    expect((await request('/echo')).status).toBe(200);
  });

  it('applies the 16 MiB default cap', async () => {
    expect(transportFailureKind(await rejection(get('/huge', 10_000)))).toBe('too_large');
  });

  it('rejects unsupported URLs without throwing synchronously', async () => {
    const promise = nodeHttpTransport({ method: 'GET', url: 'ftp://127.0.0.1/', headers: {}, timeoutMs: 100 });
    expect(transportFailureKind(await rejection(promise))).toBe('network');
    expect(transportFailureKind(await rejection(get('not a url' as string)))).toBe('network');
  });

  it('leaves no handle behind: a process exits right after its response', async () => {
    // The server keeps idle connections for 10 s and the request's timer is 10 s; a pooled socket or an
    // uncleared timer would hold the child that long. 3 s leaves room for a loaded CI machine.
    const script = `
      const { nodeHttpTransport } = await import(${JSON.stringify(new URL('../../src/openviking/nodeHttp.ts', import.meta.url).pathname)});
      const r = await nodeHttpTransport({ method: 'GET', url: ${JSON.stringify(`${base}/echo`)}, headers: {}, timeoutMs: 10000 });
      process.stdout.write('status ' + r.status + ' ' + Date.now() + '\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exitedAt = await new Promise<number>((resolve) => child.on('exit', () => resolve(Date.now())));
    const match = /status (\d+) (\d+)/.exec(out);
    expect(match, err).not.toBeNull();
    expect(match?.[1]).toBe('200');
    expect(exitedAt - Number(match?.[2])).toBeLessThan(3000);
  });
});
