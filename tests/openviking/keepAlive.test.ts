/**
 * The resident helper's transport (`createSocketHttpTransport({ keepAliveMs })`,
 * DESIGN D16) against a raw node:net server whose behaviour per connection
 * and per request each test scripts: a kept connection carries the next
 * request, a connection the server closes or refuses to keep is never
 * reused, a stale kept connection is retried once on a fresh one, and a
 * parked connection never keeps a process alive.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSocketHttpTransport, socketHttpTransport } from '../../src/openviking/socketHttp.js';
import { transportFailureKind } from '../../src/openviking/transportError.js';

/** What the server does with request `n` (0-based) on connection `c` (0-based). */
type Reaction = 'answer' | 'answer-and-close' | 'drop-silently' | 'drop-mid-answer';
let script: (c: number, n: number) => Reaction;
/** Extra response header lines, e.g. `Keep-Alive: timeout=5`. */
let extraHeaders: string[];
let connections: number;
let requests: Array<{ connection: number; head: string }>;
const open = new Set<Socket>();

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((socket) => {
    const connection = connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    let pending = '';
    let served = 0;
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.slice(end + 4 + length);
        requests.push({ connection, head });
        react(socket, script(connection, served++), connection);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of open) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  script = () => 'answer';
  extraHeaders = [];
  connections = 0;
  requests = [];
  for (const socket of open) socket.destroy();
});

function react(socket: Socket, reaction: Reaction, connection: number): void {
  const body = `{"connection":${connection}}`;
  const head = ['HTTP/1.1 200 OK', 'Content-Type: application/json', `Content-Length: ${body.length}`, ...extraHeaders];
  if (reaction === 'drop-silently') return void socket.destroy();
  if (reaction === 'drop-mid-answer') {
    socket.write('HTTP/1.1 200 OK\r\nContent-Le');
    return void setTimeout(() => socket.destroy(), 10);
  }
  if (reaction === 'answer-and-close') head.push('Connection: close');
  socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  if (reaction === 'answer-and-close') socket.end();
}

const keeping = () => createSocketHttpTransport({ keepAliveMs: 3_000 });
const post = (transport: typeof socketHttpTransport) =>
  transport({
    method: 'POST',
    url: `${base}/api/v1/search/search`,
    headers: { 'content-type': 'application/json' },
    body: '{"query":"q"}',
    timeoutMs: 2_000,
  });

describe('keep-alive transport (resident only)', () => {
  it('carries consecutive requests on one connection, asking for keep-alive', async () => {
    const transport = keeping();
    for (let i = 0; i < 3; i++) expect(JSON.parse((await post(transport)).body)).toEqual({ connection: 0 });
    expect(connections).toBe(1);
    expect(requests.every((r) => /\r\nConnection: keep-alive/.test(r.head))).toBe(true);
  });

  it('the hooks\u2019 transport still opens one connection per request, with Connection: close', async () => {
    await post(socketHttpTransport);
    await post(socketHttpTransport);
    expect(connections).toBe(2);
    expect(requests.every((r) => /\r\nConnection: close/.test(r.head))).toBe(true);
  });

  it('never reuses a connection the server answered with Connection: close', async () => {
    script = () => 'answer-and-close';
    const transport = keeping();
    await post(transport);
    await post(transport);
    expect(connections).toBe(2);
  });

  it('drops a parked connection once the server closes it, and the next request connects afresh without an error', async () => {
    const transport = keeping();
    await post(transport);
    for (const socket of open) socket.end(); // the server's idle timeout
    await delay(100);
    expect(JSON.parse((await post(transport)).body)).toEqual({ connection: 1 });
    expect(requests).toHaveLength(2);
  });

  it('retries once on a fresh connection when a kept one fails before any byte of the answer', async () => {
    script = (c, n) => (c === 0 && n === 1 ? 'drop-silently' : 'answer');
    const transport = keeping();
    await post(transport);
    expect(JSON.parse((await post(transport)).body)).toEqual({ connection: 1 });
    expect(requests.map((r) => r.connection)).toEqual([0, 0, 1]);
  });

  it('does not retry once the answer has begun: the request fails (network)', async () => {
    script = (c, n) => (c === 0 && n === 1 ? 'drop-mid-answer' : 'answer');
    const transport = keeping();
    await post(transport);
    const error = await post(transport).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(transportFailureKind(error)).toBe('network');
    expect(requests).toHaveLength(2);
  });

  it("waits no longer than a second under the server's Keep-Alive timeout", async () => {
    extraHeaders = ['Keep-Alive: timeout=1'];
    const transport = keeping();
    await post(transport);
    await post(transport);
    expect(connections).toBe(2); // timeout=1 leaves no window: nothing is parked
  });

  it('a parked connection keeps no process alive', async () => {
    const script = `
      const { createSocketHttpTransport } = await import(${JSON.stringify(new URL('../../src/openviking/socketHttp.ts', import.meta.url).pathname)});
      const transport = createSocketHttpTransport({ keepAliveMs: 10000 });
      const r = await transport({ method: 'GET', url: ${JSON.stringify(`${base}/health`)}, headers: {}, timeoutMs: 10000 });
      process.stdout.write('status ' + r.status + ' ' + Date.now() + '\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exitedAt = await new Promise<number>((resolve) => child.on('exit', () => resolve(Date.now())));
    const match = /status (\d+) (\d+)/.exec(out);
    expect(match?.[1]).toBe('200');
    expect(exitedAt - Number(match?.[2])).toBeLessThan(3_000);
    expect(connections).toBe(1);
  });
});
