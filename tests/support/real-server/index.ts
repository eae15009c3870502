/**
 * The real OpenViking server for tests, the benchmark and `npm run
 * openviking`: `startRealServer()` starts the fake model provider, writes an
 * `ov.conf` into a fresh workspace, starts `openviking-server` on a free
 * loopback port and resolves once `GET /ready` answers 200 (which embeds a
 * probe through the provider, so the provider is up first). `stop()` ends
 * the server (SIGTERM through its guard, SIGKILL to its process group after
 * 3 s), then the provider; the workspace is removed unless
 * `OPENVIKING_KEEP_WORKSPACE=1`.
 *
 * The child's environment is a clean one: its own HOME inside the
 * workspace (so nothing reads or writes the user's `~/.openviking`), no
 * proxy variables (all traffic is loopback), and
 * `LITELLM_LOCAL_MODEL_COST_MAP=True` so litellm never fetches its cost map
 * (openviking-real.md §1).
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startModelProvider, type ModelProvider } from '../model-provider/index.js';
import { serverConfig, type EmbeddingEndpoint } from './config.js';
import { INSTALL_COMMAND, REAL_SERVER_HOME, serverBinary } from './install.js';

export type { EmbeddingEndpoint } from './config.js';

export interface RealServerOptions {
  /** Names the workspace folder (`.openviking-server/work/<name>-…`). */
  name: string;
  /** `dev` (default): no key; `api_key`: a root key is generated and returned. */
  auth?: 'dev' | 'api_key';
  /** A real embedding endpoint; default: the fake provider's hashed words. */
  embedding?: EmbeddingEndpoint;
  /** How long to wait for `/ready` (a cold start imports ~300 packages). */
  readyTimeoutMs?: number;
}

export interface RealServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** What `/health` reports, e.g. `0.5.2`. */
  readonly version: string;
  readonly auth: 'dev' | 'api_key';
  /** The root key (api_key mode only). */
  readonly rootKey?: string;
  readonly workspace: string;
  readonly pid: number;
  /** The fake model provider this server calls. */
  readonly provider: ModelProvider;
  /** The server's own log so far. */
  log(): string;
  stop(): Promise<void>;
}

export class RealServerMissing extends Error {}

export async function startRealServer(options: RealServerOptions): Promise<RealServer> {
  const binary = serverBinary();
  if (binary === undefined)
    throw new RealServerMissing(
      `openviking-server is not installed: run ${INSTALL_COMMAND} (or set OPENVIKING_SERVER_BIN)`,
    );
  const auth = options.auth ?? 'dev';
  const workspace = join(REAL_SERVER_HOME, 'work', `${options.name}-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(join(workspace, 'home'), { recursive: true, mode: 0o700 });
  const provider = await startModelProvider({ logFile: join(workspace, 'provider.jsonl') });
  const port = await freePort();
  const rootKey = auth === 'api_key' ? `root-${randomBytes(16).toString('hex')}` : undefined;
  const embedding = options.embedding ?? {
    apiBase: provider.apiBase,
    model: 'fake-embed',
    dimension: provider.dimension,
  };
  const configFile = join(workspace, 'ov.conf');
  writeFileSync(
    configFile,
    JSON.stringify(
      serverConfig({ port, workspace: join(workspace, 'data'), rootKey, embedding, vlmApiBase: provider.apiBase }),
    ),
    { mode: 0o600 },
  );
  const logFile = join(workspace, 'server.log');
  const child = spawnServer(binary, configFile, join(workspace, 'home'), logFile);
  const url = `http://127.0.0.1:${port}`;
  const stop = once(async () => {
    await stopChild(child);
    await provider.stop();
    if (process.env.OPENVIKING_KEEP_WORKSPACE !== '1') rmSync(workspace, { recursive: true, force: true });
  });
  try {
    await waitUntilReady(url, child, logFile, options.readyTimeoutMs ?? 90_000);
    const version = await healthVersion(url);
    return {
      url,
      port,
      version,
      auth,
      ...(rootKey !== undefined ? { rootKey } : {}),
      workspace,
      pid: child.pid!,
      provider,
      log: () => readFileSync(logFile, 'utf8'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The server runs under a small `sh` guard holding a pipe from this process: when the pipe
 * closes (stop(), or this process dying however it dies) the guard sends the server SIGTERM,
 * so no test run leaves a server behind. The guard exits with the server, so a server that
 * dies before it is ready is seen at once. The guard leads its own process
 * group, so stop() can SIGKILL both if the server will not go (0.5.2 was seen to take ~12 s
 * to exit on SIGTERM, and to spin when its provider had gone first).
 */
const GUARD = `exec 3<&0
"$1" --config "$2" </dev/null & server=$!
{ read _closed <&3; kill -TERM $server 2>/dev/null; } &
trap 'kill -TERM $server 2>/dev/null' TERM INT
wait $server`;

function spawnServer(binary: string, configFile: string, home: string, logFile: string): ChildProcess {
  const out = openSync(logFile, 'a', 0o600);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    LITELLM_LOCAL_MODEL_COST_MAP: 'True',
    NO_PROXY: '*',
  };
  try {
    return spawn('sh', ['-c', GUARD, 'openviking-server-guard', binary, configFile], {
      env,
      cwd: home,
      detached: true,
      stdio: ['pipe', out, out],
    });
  } finally {
    closeSync(out);
  }
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited (${signal ?? code})`));
  for (;;) {
    if (exited !== undefined) throw new Error(`openviking-server ${exited} before ready:\n${tail(logFile)}`);
    if (await answers(`${url}/ready`)) return;
    if (Date.now() > deadline) throw new Error(`openviking-server not ready after ${timeoutMs} ms:\n${tail(logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Whether `url` answers 2xx within 2 s (a readiness probe). */
export async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

async function healthVersion(url: string): Promise<string> {
  const health = (await (await fetch(`${url}/health`)).json()) as { version?: unknown };
  return typeof health.version === 'string' ? health.version : 'unknown';
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

/** A test server's data is thrown away: a short grace, then SIGKILL (0.5.2 takes ~12 s to stop on SIGTERM). */
const STOP_GRACE_MS = 3_000;

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  const killer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, STOP_GRACE_MS);
  await exited;
  clearTimeout(killer);
}

/** A port nothing listens on right now (the server binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= run());
}
