import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSocketHttpTransport, MAX_RESPONSE_BYTES, socketHttpTransport } from '../../src/openviking/socketHttp.js';
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

const get = (path: string, timeoutMs = 2000) =>
  socketHttpTransport({ method: 'GET', url: base + path, headers: {}, timeoutMs });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('socketHttpTransport', () => {
  it('sends method, headers and body, closes the connection, and lower-cases response headers', async () => {
    const response = await socketHttpTransport({
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

  it('rejects as unsent when the connection is refused (no byte of the request left)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await rejection(
      socketHttpTransport({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {}, timeoutMs: 2000 }),
    );
    expect(transportFailureKind(error)).toBe('unsent');
    expect(String((error as Error).message)).toMatch(/ECONNREFUSED/);
  });

  it('rejects when the connection is reset mid-response', async () => {
    const error = await rejection(get('/reset'));
    expect(transportFailureKind(error)).toBe('network');
  });

  it('rejects bodies over the cap, declared or streamed', async () => {
    const small = createSocketHttpTransport({ maxResponseBytes: 2048 });
    const request = (path: string) => small({ method: 'GET', url: base + path, headers: {}, timeoutMs: 2000 });
    expect(transportFailureKind(await rejection(request('/big-declared')))).toBe('too_large');
    expect(transportFailureKind(await rejection(request('/big-chunked')))).toBe('too_large');
    expect((await request('/echo')).status).toBe(200);
  });

  it('applies the 16 MiB default cap', async () => {
    expect(transportFailureKind(await rejection(get('/huge', 10_000)))).toBe('too_large');
  });

  // Nothing leaves the machine for them (`unsent`): a configured URL that is not one sends nothing (issue 30 item 4).
  it('rejects unsupported URLs without throwing synchronously, as unsent', async () => {
    const promise = socketHttpTransport({ method: 'GET', url: 'ftp://127.0.0.1/', headers: {}, timeoutMs: 100 });
    expect(transportFailureKind(await rejection(promise))).toBe('unsent');
    expect(transportFailureKind(await rejection(get('not a url' as string)))).toBe('unsent');
    // An empty server URL (config/credentials.ts keeps a URL that is not one as '') gives a bare path.
    const bare = socketHttpTransport({ method: 'GET', url: '/api/v1/search/find', headers: {}, timeoutMs: 100 });
    expect(transportFailureKind(await rejection(bare))).toBe('unsent');
  });

  it('leaves no handle behind: a process exits right after its response', async () => {
    // The server keeps idle connections for 10 s and the request's timer is 10 s; a pooled socket or an
    // uncleared timer would hold the child that long. 3 s leaves room for a loaded CI machine.
    const script = `
      const { socketHttpTransport } = await import(${JSON.stringify(new URL('../../src/openviking/socketHttp.ts', import.meta.url).pathname)});
      const r = await socketHttpTransport({ method: 'GET', url: ${JSON.stringify(`${base}/echo`)}, headers: {}, timeoutMs: 10000 });
      process.stdout.write('status ' + r.status + ' ' + Date.now() + '\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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

// ---------------------------------------------------------------------------
// Against a raw node:net server: handcrafted bytes, in several writes with
// small delays, so framing is exercised across real packet boundaries.
// ---------------------------------------------------------------------------

/** What the raw server answers on a path: the pieces (5 ms apart), then how the connection ends. */
interface RawScript {
  writes: Array<string | Buffer>;
  then: 'end' | 'reset' | 'keep';
}

const utf8Body = Buffer.from('{"q":"größe 🚀"}');
const rocketAt = utf8Body.indexOf(Buffer.from('🚀'));

const rawRoutes: Record<string, RawScript> = {
  '/chunked-ext': {
    writes: [
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n',
      '5;name=value\r\nhel',
      'lo\r\n6 ; quoted="a;b"\r',
      '\n worl',
      'd\r\n',
      '0;end\r\nX-Checksum: abc\r\n',
      '\r\n',
    ],
    then: 'keep', // complete by its framing: the transport must not wait for the close
  },
  '/continue': {
    writes: [
      'HTTP/1.1 100 Continue\r\n\r\n',
      'HTTP/1.1 201 Created\r\nContent-Length: 7\r\nX-A: 1\r\n\r\n',
      'cre',
      'ated',
    ],
    then: 'keep',
  },
  '/until-close': {
    writes: ['HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n', '\r\n{"ok":', 'true}'],
    then: 'end',
  },
  '/utf8-split': {
    writes: [
      `HTTP/1.1 200 OK\r\nContent-Length: ${utf8Body.length}\r\n\r\n`,
      utf8Body.subarray(0, rocketAt + 1),
      utf8Body.subarray(rocketAt + 1, rocketAt + 3),
      utf8Body.subarray(rocketAt + 3),
    ],
    then: 'keep',
  },
  '/garbage-then-close': { writes: ['SSH-2.0-OpenSSH_9.6\r\n'], then: 'end' },
  '/garbage': { writes: ['<html>\r\n<body>', 'not http</body>\r\n\r\n</html>'], then: 'keep' },
  '/mid-chunk-close': {
    writes: ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', '10\r\nonly a p', 'art'],
    then: 'end',
  },
  '/mid-chunk-reset': {
    writes: ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', '10\r\nonly a p', 'art'],
    then: 'reset',
  },
};

let rawServer: NetServer;
let rawBase: string;
const rawSockets = new Set<Socket>();

/** Reads one request (head and Content-Length body), then plays the script of its path; `/echo-raw` answers with the request bytes. */
function serveRaw(socket: Socket): void {
  rawSockets.add(socket);
  socket.on('close', () => rawSockets.delete(socket));
  socket.on('error', () => undefined); // the client destroys its end as soon as it has the response
  socket.setNoDelay(true);
  let received = Buffer.alloc(0);
  let answered = false;
  socket.on('data', (chunk: Buffer) => {
    if (answered) return;
    received = Buffer.concat([received, chunk]);
    const headEnd = received.indexOf('\r\n\r\n');
    if (headEnd === -1) return;
    const head = received.toString('latin1', 0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (received.length < headEnd + 4 + length) return;
    answered = true;
    const path = (head.split(' ')[1] ?? '').split('?')[0] ?? '';
    const script: RawScript =
      path === '/echo-raw'
        ? { writes: [`HTTP/1.1 200 OK\r\nContent-Length: ${received.length}\r\n\r\n`, received], then: 'keep' }
        : (rawRoutes[path] ?? { writes: ['HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'], then: 'end' });
    void play(socket, script);
  });
}

async function play(socket: Socket, script: RawScript): Promise<void> {
  for (const [index, piece] of script.writes.entries()) {
    if (index > 0) await delay(5);
    if (socket.destroyed) return;
    socket.write(piece);
  }
  await delay(5);
  if (socket.destroyed) return;
  if (script.then === 'end') socket.end();
  if (script.then === 'reset') socket.resetAndDestroy();
}

async function listen(server: NetServer, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  const port = await listen(probe, '127.0.0.1');
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (port === undefined) throw new Error('could not bind a probe port');
  return port;
}

beforeAll(async () => {
  rawServer = createNetServer(serveRaw);
  rawBase = `http://127.0.0.1:${await listen(rawServer, '127.0.0.1')}`;
});

afterAll(async () => {
  for (const socket of rawSockets) socket.destroy();
  await new Promise<void>((resolve) => rawServer.close(() => resolve()));
});

const rawGet = (path: string, timeoutMs = 2000) =>
  socketHttpTransport({ method: 'GET', url: rawBase + path, headers: {}, timeoutMs });

/** Rejects quickly with kind network (not by running into the 2 s timeout). */
async function expectNetworkRejection(promise: Promise<unknown>): Promise<Error> {
  const started = Date.now();
  const error = await rejection(promise);
  expect(transportFailureKind(error), String(error)).toBe('network');
  expect(Date.now() - started).toBeLessThan(1000);
  return error as Error;
}

describe('socketHttpTransport against handcrafted responses', () => {
  it('sends exactly the serialized request bytes', async () => {
    const body = '{"q":"größe 🚀"}';
    const response = await socketHttpTransport({
      method: 'POST',
      url: `${rawBase}/echo-raw?x=1&y=%20`,
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'Bearer k',
        host: 'evil',
        Connection: 'keep-alive',
      },
      body,
      timeoutMs: 2000,
    });
    const host = new URL(rawBase).host;
    expect(response.body).toBe(
      `POST /echo-raw?x=1&y=%20 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nContent-Type: application/json\r\nAuthorization: Bearer k\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });

  it('decodes a chunked body with chunk extensions and trailers, without waiting for the close', async () => {
    const response = await rawGet('/chunked-ext');
    expect(response).toEqual({
      status: 200,
      headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
      body: 'hello world',
    });
  });

  it('skips 100 Continue and resolves with the real response', async () => {
    const response = await rawGet('/continue');
    expect(response).toEqual({ status: 201, headers: { 'content-length': '7', 'x-a': '1' }, body: 'created' });
  });

  it('reads a body without Content-Length up to the close', async () => {
    const response = await rawGet('/until-close');
    expect(response).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
  });

  it('decodes a UTF-8 character split across writes', async () => {
    expect((await rawGet('/utf8-split')).body).toBe('{"q":"größe 🚀"}');
  });

  it('rejects as network when the server does not speak HTTP', async () => {
    await expectNetworkRejection(rawGet('/garbage'));
    await expectNetworkRejection(rawGet('/garbage-then-close'));
  });

  it('rejects as network when the server closes or resets mid-chunk', async () => {
    await expectNetworkRejection(rawGet('/mid-chunk-close'));
    await expectNetworkRejection(rawGet('/mid-chunk-reset'));
  });

  it('connects to an IPv6 literal (brackets stripped), when the machine has ::1', async () => {
    const server6 = createNetServer(serveRaw);
    const port = await listen(server6, '::1');
    if (port === undefined) return; // no IPv6 loopback here: nothing to check
    try {
      const response = await socketHttpTransport({
        method: 'GET',
        url: `http://[::1]:${port}/echo-raw`,
        headers: {},
        timeoutMs: 2000,
      });
      expect(response.body).toBe(`GET /echo-raw HTTP/1.1\r\nHost: [::1]:${port}\r\nConnection: close\r\n\r\n`);
    } finally {
      for (const socket of rawSockets) socket.destroy();
      await new Promise<void>((resolve) => server6.close(() => resolve()));
    }
  });

  it('https: a refused connection rejects as unsent (the tls path loads and fails cleanly)', async () => {
    const port = await closedPort();
    const error = await rejection(
      socketHttpTransport({ method: 'GET', url: `https://127.0.0.1:${port}/`, headers: {}, timeoutMs: 2000 }),
    );
    expect(transportFailureKind(error)).toBe('unsent');
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('https: a server that answers in plain text fails the handshake as network', async () => {
    const plain = createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.resume(); // read (and drop) the ClientHello, or the end of the connection never shows and close() waits forever
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    });
    try {
      const port4 = await listen(plain, '127.0.0.1');
      await expectNetworkRejection(
        socketHttpTransport({ method: 'GET', url: `https://127.0.0.1:${port4}/`, headers: {}, timeoutMs: 2000 }),
      );
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
    const plain6 = createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.resume(); // read (and drop) the ClientHello, or the end of the connection never shows and close() waits forever
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    });
    const port6 = await listen(plain6, '::1');
    if (port6 === undefined) return;
    try {
      await expectNetworkRejection(
        socketHttpTransport({ method: 'GET', url: `https://[::1]:${port6}/`, headers: {}, timeoutMs: 2000 }),
      );
    } finally {
      await new Promise<void>((resolve) => plain6.close(() => resolve()));
    }
  });
});
