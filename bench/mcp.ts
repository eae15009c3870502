/**
 * MCP proxy benchmarks against the OpenViking test server's `/mcp`:
 * - start-up: spawn of `servers/mcp-proxy.mjs` → its first `initialize`
 *   answer, interleaved with a bare `node -e 0` (both spawned directly, as
 *   the host starts MCP servers without a shell);
 * - per call: median `tools/call health` through the proxy minus the median
 *   of the same call POSTed straight to `/mcp`, interleaved call by call.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { timedRun } from './process.js';
import { formatMs, formatRatio } from './report.js';
import type { ResultRow } from './report.js';
import { elapsedMs, interleave, median, ratioOf } from './stats.js';
import type { BenchWorld } from './world.js';

export const MCP_TARGETS = {
  startup: { limit: 1.5, label: '≤ 1.5×' },
  perCallMs: { limit: 2, label: '≤ 2 ms' },
};

const PROTOCOL_VERSION = '2025-06-18';

function initializeRequest(id: number): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '0' } } })}\n`;
}

function callRequest(id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'health', arguments: {} } });
}

/** A proxy child with a line reader: `request(line, id)` resolves when the answer with `id` arrives. */
function startProxy(world: BenchWorld) {
  const child = spawn(process.execPath, [join(world.pluginRoot, 'servers', 'mcp-proxy.mjs')], {
    cwd: world.workspace,
    env: world.env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const waiting = new Map<number, () => void>();
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const id = /"id":(\d+)/.exec(line)?.[1];
      if (id !== undefined) waiting.get(Number(id))?.();
    }
  });
  return {
    child,
    request: (line: string, id: number) =>
      new Promise<void>((resolve) => {
        waiting.set(id, () => {
          waiting.delete(id);
          resolve();
        });
        child.stdin.write(line.endsWith('\n') ? line : `${line}\n`);
      }),
    close: async () => {
      child.stdin.end();
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
    },
  };
}

async function timeToInitialize(world: BenchWorld): Promise<number> {
  const start = process.hrtime.bigint();
  const proxy = startProxy(world);
  await proxy.request(initializeRequest(1), 1);
  const ms = elapsedMs(start);
  await proxy.close();
  return ms;
}

async function directCall(url: string, id: number): Promise<number> {
  const start = process.hrtime.bigint();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
    },
    body: callRequest(id),
  });
  await response.text();
  return elapsedMs(start);
}

export async function measureMcp(world: BenchWorld, startupPairs: number, calls: number): Promise<ResultRow[]> {
  const bare = world.bareNode();
  const startup = await interleave(
    startupPairs,
    async () => (await timedRun({ ...bare, file: process.execPath, args: ['-e', '0'] })).ms,
    () => timeToInitialize(world),
  );
  const startupRatio = ratioOf(startup);

  const proxy = startProxy(world);
  await proxy.request(initializeRequest(1), 1);
  proxy.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await proxy.request(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), 2);
  const mcpUrl = `${world.server.url}/mcp`;
  let id = 100;
  const perCall = await interleave(
    calls,
    () => directCall(mcpUrl, ++id),
    async () => {
      const callId = ++id;
      const start = process.hrtime.bigint();
      await proxy.request(callRequest(callId), callId);
      return elapsedMs(start);
    },
  );
  await proxy.close();
  const overhead = median(perCall.pathMs) - median(perCall.bareMs);
  return [
    {
      name: 'MCP proxy start-up (spawn → initialize answer)',
      value: formatMs(median(startup.pathMs)),
      baseline: formatMs(median(startup.bareMs)),
      measured: startupRatio,
      measuredLabel: formatRatio(startupRatio),
      target: MCP_TARGETS.startup,
      note: 'both spawned without a shell',
    },
    {
      name: 'MCP proxy per-call overhead (tools/call health)',
      value: formatMs(median(perCall.pathMs)),
      baseline: `direct POST ${formatMs(median(perCall.bareMs))}`,
      measured: overhead,
      measuredLabel: `+${overhead.toFixed(2)} ms`,
      target: MCP_TARGETS.perCallMs,
      note: `median of ${calls} interleaved calls`,
    },
  ];
}
