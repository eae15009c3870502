/**
 * Measures the proxy (not a test; prints numbers):
 * 1. start-up: spawn → first `initialize` answer, against a bare `node -e 0`;
 * 2. per-call overhead: median `tools/call` round trip through the proxy
 *    against the same call POSTed straight to `/mcp`.
 *
 * The upstream is a minimal hand-written streamable-HTTP MCP endpoint (SSE
 * replies, like FastMCP) so the numbers show the proxy, not a slow server.
 *
 * Run: `npx tsx tests/mcp/support/bench.ts [proxy.mjs ...]` (default: a fresh
 * bundle built like build.mjs; pass several bundles to compare them).
 *
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { proxyUnderTest, INITIALIZE_REQUEST, makeSandbox, spawnProxy } from './harness.js';

const STARTUP_RUNS = 25;
const CALL_RUNS = 300;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A minimal MCP endpoint: answers every request at once, as one SSE frame. */
async function startFastUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: number | string; method: string };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fast', version: '0' } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'health', description: 'ok', inputSchema: { type: 'object', properties: {} } }] }
            : { content: [{ type: 'text', text: 'OpenViking is healthy' }] };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server };
}

/** A bare Node process that echoes its first stdin chunk: the floor for "spawn → first answer". */
const BARE_ECHO = ['-e', "process.stdin.once('data', (d) => process.stdout.write(d))"];

/** Spawn → first stdout byte after writing `initialize` (args: the proxy, or BARE_ECHO). */
async function timeToFirstAnswer(args: string[], env: Record<string, string>): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.write(`${JSON.stringify(INITIALIZE_REQUEST)}\n`);
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const ms = elapsedMs(start);
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  return ms;
}

async function directCallMs(mcpUrl: string): Promise<number[]> {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  const samples: number[] = [];
  for (let i = 0; i < CALL_RUNS; i++) {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'health', arguments: {} },
    });
    const start = process.hrtime.bigint();
    const response = await fetch(mcpUrl, { method: 'POST', headers, body });
    await response.text();
    samples.push(elapsedMs(start));
  }
  return samples;
}

async function proxiedCallMs(proxyPath: string, env: Record<string, string>): Promise<number[]> {
  const proxy = spawnProxy(proxyPath, env);
  proxy.send(INITIALIZE_REQUEST);
  await proxy.waitForLine((line) => line.includes('"id":1'));
  proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  await proxy.waitForLine((line) => line.includes('"id":2'));
  const samples: number[] = [];
  for (let i = 0; i < CALL_RUNS; i++) {
    const id = 1000 + i;
    const answered = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        if (chunk.toString('utf8').includes(`"id":${id}`)) {
          proxy.child.stdout.off('data', onData);
          resolve();
        }
      };
      proxy.child.stdout.on('data', onData);
    });
    const start = process.hrtime.bigint();
    proxy.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'health', arguments: {} } });
    await answered;
    samples.push(elapsedMs(start));
  }
  proxy.child.stdin.end();
  await proxy.exited;
  return samples;
}

async function main(): Promise<void> {
  const bundles = process.argv.slice(2);
  if (bundles.length === 0) bundles.push(await proxyUnderTest());
  const sandbox = await makeSandbox();
  const upstream = await startFastUpstream();
  const env = sandbox.env({ OPENVIKING_URL: upstream.url });
  try {
    const bare: number[] = [];
    const exitOnly: number[] = [];
    const byBundle = new Map<string, number[]>(bundles.map((bundle) => [bundle, []]));
    for (let i = 0; i < STARTUP_RUNS; i++) {
      const start = process.hrtime.bigint();
      spawnSync(process.execPath, ['-e', '0']);
      exitOnly.push(elapsedMs(start));
      bare.push(await timeToFirstAnswer(BARE_ECHO, env));
      for (const bundle of bundles) byBundle.get(bundle)?.push(await timeToFirstAnswer([bundle], env));
    }
    console.log(
      `start-up, median of ${STARTUP_RUNS}: node -e 0 (spawnSync) = ${median(exitOnly).toFixed(1)} ms; bare node echoing stdin = ${median(bare).toFixed(1)} ms`,
    );
    for (const [bundle, samples] of byBundle) {
      console.log(
        `  ${bundle}: spawn → initialize answer = ${median(samples).toFixed(1)} ms (${(median(samples) / median(bare)).toFixed(2)}×)`,
      );
    }

    const direct = median(await directCallMs(`${upstream.url}/mcp`));
    console.log(`tools/call, median of ${CALL_RUNS}: direct POST = ${direct.toFixed(2)} ms`);
    for (const bundle of bundles) {
      const proxied = median(await proxiedCallMs(bundle, env));
      console.log(
        `  ${bundle}: through the proxy = ${proxied.toFixed(2)} ms (overhead ${(proxied - direct).toFixed(2)} ms)`,
      );
    }
  } finally {
    upstream.server.close();
    await sandbox.dispose();
  }
}

void main();
