/**
 * Test harness for the stdio MCP proxy: spawns the shipped
 * `servers/mcp-proxy.mjs` as a real child process in a sandboxed HOME.
 *
 * @module
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { waitFor as waitAt } from '../../support/wait.js';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Path of the proxy under test: the shipped `servers/mcp-proxy.mjs` (`npm
 * test` builds before it runs the suites), or `MCP_PROXY_UNDER_TEST`.
 */
export function proxyUnderTest(): Promise<string> {
  return Promise.resolve(resolve(REPO_ROOT, process.env.MCP_PROXY_UNDER_TEST ?? 'servers/mcp-proxy.mjs'));
}

export interface Sandbox {
  home: string;
  /** `~/.openviking/ovcli.conf` in the sandbox. */
  ovcliPath: string;
  writeOvcli(value: Record<string, unknown>): Promise<void>;
  /** A minimal env: sandboxed HOME, PATH, no inherited OPENVIKING_* variables. */
  env(extra?: Record<string, string>): Record<string, string>;
  dispose(): Promise<void>;
}

export async function makeSandbox(): Promise<Sandbox> {
  const home = await mkdtemp(join(tmpdir(), 'ov-mcp-home-'));
  const ovcliPath = join(home, '.openviking', 'ovcli.conf');
  return {
    home,
    ovcliPath,
    async writeOvcli(value) {
      await mkdir(join(home, '.openviking'), { recursive: true, mode: 0o700 });
      await writeFile(ovcliPath, JSON.stringify(value), { mode: 0o600 });
    },
    env: (extra = {}) => ({ HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', ...extra }),
    dispose: () => rm(home, { recursive: true, force: true }),
  };
}

/** A git repository under the sandbox's HOME with `remote` as its origin: a workspace with a derived project peer. */
export async function makeRepoWorkspace(sandbox: Sandbox, remote: string): Promise<string> {
  const workspace = join(sandbox.home, 'repo');
  await mkdir(workspace);
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: workspace });
  return workspace;
}

export interface ProxyClient {
  client: Client;
  /** Everything the proxy wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns the proxy through the SDK's real stdio client and completes the MCP handshake. */
export async function connectThroughProxy(
  proxyPath: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<ProxyClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [proxyPath],
    env,
    stderr: 'pipe',
    ...(cwd ? { cwd } : {}),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'openviking', version: '0.0.0-test' }, { capabilities: {} });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Spawns the proxy with raw pipes (lifecycle tests talk JSON-RPC by hand). */
export function spawnProxy(proxyPath: string, env: Record<string, string>): RawProxy {
  const child = spawn(process.execPath, [proxyPath], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  return {
    child,
    lines,
    exited,
    send: (message) => void child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`),
    waitForLine: (predicate, timeoutMs = 5000) => waitFor(() => lines.find((line) => predicate(line)), timeoutMs),
  };
}

export interface RawProxy {
  child: ChildProcessWithoutNullStreams;
  /** Complete stdout lines so far. */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  send(message: unknown): void;
  waitForLine(predicate: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

/** Polls `probe` every 10 ms until it returns (or resolves to) a value (a fixed sleep flakes under load). */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  const found = await waitAt(
    async () => {
      const value = await probe();
      return value !== undefined && value !== false ? { value } : undefined;
    },
    { timeoutMs, intervalMs: 10 },
  );
  return found.value;
}

export const INITIALIZE_REQUEST = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'openviking', version: '2.117.0' } },
};
