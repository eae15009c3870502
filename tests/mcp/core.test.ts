/**
 * `createProxy` in-process with injected streams, against the real
 * OpenViking test server over loopback: concurrency bound, the on-disk tool
 * list across runs, and the list_changed notice after the server returns.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';
import { createProxy, type Proxy } from '../../src/mcp/proxy.js';
import { snapshotPath } from '../../src/mcp/snapshot.js';
import { startOvServer, TOOL_NAMES, type OvTestServer } from '../support/ov-server/index.js';
import { INITIALIZE_REQUEST, makeSandbox, waitFor, type Sandbox } from './support/harness.js';

interface Host {
  proxy: Proxy;
  messages: Array<Record<string, unknown>>;
  send(message: unknown): void;
  answer(id: number, timeoutMs?: number): Promise<Record<string, unknown>>;
}

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

interface HostOptions {
  maxConcurrent?: number;
  cacheDir?: string | null;
  env?: Record<string, string>;
  now?: () => number;
}

function startHost(server: OvTestServer, sandbox: Sandbox, options: HostOptions = {}): Host {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const messages: Array<Record<string, unknown>> = [];
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) messages.push(JSON.parse(line) as Record<string, unknown>);
  });
  const env = { OPENVIKING_URL: server.url, ...options.env };
  const proxy = createProxy({
    stdin,
    stdout,
    writeStderr: () => undefined,
    loadConfig: () => loadPluginConfig({ env, homeDir: sandbox.home }),
    env,
    homeDir: sandbox.home,
    fetch: (url, init) => fetch(url, init),
    now: options.now ?? Date.now,
    serverInfo: { name: 'openviking', version: 'test' },
    userAgent: 'openviking-codebuddy/test',
    ...(options.maxConcurrent ? { maxConcurrent: options.maxConcurrent } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
  });
  cleanups.push(() => proxy.close());
  return {
    proxy,
    messages,
    send: (message) => void stdin.write(`${JSON.stringify(message)}\n`),
    answer: (id, timeoutMs = 10_000) => waitFor(() => messages.find((message) => message.id === id), timeoutMs),
  };
}

async function fixtures(): Promise<{ server: OvTestServer; sandbox: Sandbox }> {
  const server = await startOvServer();
  const sandbox = await makeSandbox();
  cleanups.push(
    () => server.close(),
    () => sandbox.dispose(),
  );
  return { server, sandbox };
}

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'health', arguments: {} } });

describe('createProxy', () => {
  it('keeps at most maxConcurrent calls upstream at once', async () => {
    const { server, sandbox } = await fixtures();
    const host = startHost(server, sandbox, { maxConcurrent: 2, cacheDir: null });
    host.send(INITIALIZE_REQUEST);
    await host.answer(1);
    server.faults.latency(150, { path: '/mcp' });
    const ids = [10, 11, 12, 13, 14, 15];
    for (const id of ids) host.send(call(id));
    for (const id of ids) expect(await host.answer(id)).toHaveProperty('result');

    const calls = server
      .requests({ method: 'POST', path: '/mcp' })
      .filter((request) => (request.body as { method?: string }).method === 'tools/call')
      .map((request) => ({ start: request.startedAt, end: request.startedAt + (request.durationMs ?? 0) }));
    expect(calls).toHaveLength(ids.length);
    const peak = Math.max(...calls.map((a) => calls.filter((b) => b.start <= a.start && a.start < b.end).length));
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBeGreaterThanOrEqual(1);
  });

  it('remembers the tool list on disk (0600) and serves it to a later run while the server is down', async () => {
    const { server, sandbox } = await fixtures();
    const cacheDir = join(sandbox.home, 'data', 'cache');
    const first = startHost(server, sandbox, { cacheDir });
    first.send(INITIALIZE_REQUEST);
    await first.answer(1);
    first.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const live = (await first.answer(2)).result as { tools: Array<{ name: string }> };
    const file = snapshotPath(cacheDir, `${server.url}/mcp`);
    // The profile and the tool list are written as they arrive: wait for the list, not only the file.
    await waitFor(() =>
      readFile(file, 'utf8').then(
        (text) => JSON.stringify((JSON.parse(text) as { tools?: unknown }).tools) === JSON.stringify(live.tools),
        () => false,
      ),
    );
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await first.proxy.close();

    await server.stop();
    const second = startHost(server, sandbox, { cacheDir });
    second.send(INITIALIZE_REQUEST);
    const init = (await second.answer(1)).result as { capabilities: Record<string, unknown> };
    expect(init.capabilities.tools).toEqual({ listChanged: true });
    second.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const remembered = (await second.answer(2)).result as { tools: Array<{ name: string }> };
    expect(remembered.tools).toEqual(live.tools);
    expect(remembered.tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('names the configured timeout when a call times out, not the time that was left of it', async () => {
    const { server, sandbox } = await fixtures();
    // Every read of this clock is 7 ms later, so the timer inside is always armed with less than the budget.
    let skew = 0;
    const host = startHost(server, sandbox, {
      cacheDir: null,
      env: { OPENVIKING_TIMEOUT_MS: '1000' },
      now: () => Date.now() + (skew += 7),
    });
    host.send(INITIALIZE_REQUEST);
    await host.answer(1);
    host.send(call(2));
    expect(await host.answer(2)).toHaveProperty('result');

    server.faults.hang({ path: '/mcp' });
    host.send(call(3));
    const answer = (await host.answer(3)) as { error: { code: number; message: string; data: { timeoutMs: number } } };
    expect(answer.error.code).toBe(-32001);
    expect(answer.error.message).toContain('did not answer within 1000 ms');
    expect(answer.error.data.timeoutMs).toBe(1000);
  });

  it('tells the host the tool list changed once the server is reachable again', async () => {
    const { server, sandbox } = await fixtures();
    await server.stop();
    const host = startHost(server, sandbox, { cacheDir: null });
    host.send(INITIALIZE_REQUEST);
    await host.answer(1);
    host.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await host.answer(2)).result).toEqual({ tools: [] });
    host.send(call(3));
    expect(await host.answer(3)).toHaveProperty('error.code', -32001);

    await server.start();
    host.send(call(4));
    expect(await host.answer(4)).toHaveProperty('result');
    await waitFor(() => host.messages.find((message) => message.method === 'notifications/tools/list_changed'));
  });
});
