/**
 * Process lifecycle and stdout hygiene of the built proxy, spoken to with
 * raw JSON-RPC lines over pipes, as CodeBuddy does.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import {
  proxyUnderTest,
  INITIALIZE_REQUEST,
  makeSandbox,
  spawnProxy,
  type RawProxy,
  type Sandbox,
} from './support/harness.js';

let proxyPath: string;
const cleanups: Array<() => Promise<unknown> | void> = [];

beforeAll(async () => {
  proxyPath = await proxyUnderTest();
});

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function start(): Promise<{ server: OvTestServer; sandbox: Sandbox; proxy: RawProxy }> {
  const server = await startOvServer();
  const sandbox = await makeSandbox();
  const proxy = spawnProxy(proxyPath, sandbox.env({ OPENVIKING_URL: server.url }));
  cleanups.push(
    () => server.close(),
    () => sandbox.dispose(),
    () => void proxy.child.kill('SIGKILL'),
  );
  return { server, sandbox, proxy };
}

const hasId = (id: number) => (line: string) => (JSON.parse(line) as { id?: unknown }).id === id;

describe('mcp proxy: lifecycle', () => {
  it('answers initialize with the negotiated version, then exits 0 promptly when stdin closes', async () => {
    const { proxy } = await start();
    proxy.send(INITIALIZE_REQUEST);
    const answer = JSON.parse(await proxy.waitForLine(hasId(1))) as {
      result: { protocolVersion: string; capabilities: Record<string, unknown> };
    };
    expect(answer.result.protocolVersion).toBe('2025-11-25');
    expect(answer.result.capabilities.tools).toEqual({ listChanged: true });
    proxy.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await proxy.waitForLine(hasId(2));

    const closedAt = Date.now();
    proxy.child.stdin.end();
    const exit = await proxy.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - closedAt).toBeLessThan(1500);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits 0 on ${signal}`, async () => {
      const { proxy } = await start();
      proxy.send(INITIALIZE_REQUEST);
      await proxy.waitForLine(hasId(1));
      proxy.child.kill(signal);
      expect(await proxy.exited).toEqual({ code: 0, signal: null });
    });
  }

  it('answers requests written just before stdin closes, upstream ones included, then exits 0', async () => {
    const { proxy } = await start();
    proxy.send(INITIALIZE_REQUEST);
    // The upstream link is made first: its cold start (SDK chunk, handshake) is not what this test is about,
    // and on a loaded machine it can outlast the 1 s the end of stdin grants (STDIN_END_DRAIN_MS).
    proxy.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'health', arguments: {} } });
    await proxy.waitForLine(hasId(4));
    proxy.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    proxy.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'health', arguments: {} } });
    proxy.child.stdin.end();
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(proxy.lines.filter(hasId(1))).toHaveLength(1);
    expect(proxy.lines.filter(hasId(2))).toHaveLength(1);
    expect(JSON.parse(proxy.lines.find(hasId(3)) ?? '{}')).toHaveProperty('result.content');
  });

  it('answers garbage with JSON-RPC errors and writes nothing but JSON-RPC to stdout', async () => {
    const { proxy } = await start();
    proxy.send('this is not json');
    proxy.send({ jsonrpc: '1.0', id: 7, method: 'ping' });
    proxy.send({ jsonrpc: '2.0', id: 8, method: 'ping', params: [1, 2] });
    proxy.send(INITIALIZE_REQUEST);
    proxy.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'health', arguments: {} } });
    proxy.send({ jsonrpc: '2.0', id: 10, method: 'no/such/method' });
    await proxy.waitForLine(hasId(9));
    await proxy.waitForLine(hasId(10));
    proxy.child.stdin.end();
    await proxy.exited;

    const messages = proxy.lines.map(
      (line) => JSON.parse(line) as { jsonrpc: string; id?: unknown; error?: { code: number } },
    );
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    expect(messages.find((message) => message.id === null)?.error?.code).toBe(-32700);
    expect(messages.find((message) => message.id === 7)?.error?.code).toBe(-32600);
    expect(messages.find((message) => message.id === 8)?.error?.code).toBe(-32600);
    expect(messages.find((message) => message.id === 9)).toHaveProperty('result');
    expect(messages.find((message) => message.id === 10)?.error?.code).toBe(-32601);
  });

  it('stops answering a request the host cancelled', async () => {
    const { server, proxy } = await start();
    proxy.send(INITIALIZE_REQUEST);
    await proxy.waitForLine(hasId(1));
    server.faults.latency(600, { path: '/mcp' });
    proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'health', arguments: {} } });
    proxy.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'user' } });
    proxy.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'health', arguments: {} } });
    await proxy.waitForLine(hasId(3), 10_000);
    expect(proxy.lines.filter(hasId(2))).toHaveLength(0);
  });
});
