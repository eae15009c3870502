/**
 * `node scripts/hook.cjs resident`: the entry of the resident helper
 * (DESIGN D16), its own lazy file (scripts/lazy/resident.cjs). The hook
 * entry hands over what it builds from `process` (deps, its own bundle
 * file); this file adds the resident's process side: its FIFO
 * (made with `mkfifo`, read through the event loop), its working directory
 * (HOME, so it never pins the workspace it was started from) and its stop
 * signals. What it serves, and when it retires, is resident/server.ts; the
 * stage it runs for a request is its event's: the prompt stage or the
 * session start (stages/relay.ts relays only those two).
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import type { HttpTransport } from '../openviking/http.js';
import { socketHttpTransportFor } from '../openviking/socketHttp.js';
import { KEEP_ALIVE_MS, serveResident } from '../resident/server.js';
import type { HookInput } from '../protocol/input.js';
import type { Logger, StageDeps, StageResult } from '../protocol/stage.js';
import { PASS } from '../protocol/stage.js';
import { runPrompt } from '../stages/prompt.js';
import { runStart } from '../stages/start.js';
import type { NodeDeps } from './nodeDeps.js';

/** What the hook entry builds from `process` for the resident. */
export interface ResidentProcess {
  /** Deps of the resident itself (no argument), or of one request's stage: its hook's env and cwd, the resident's transport. */
  buildDeps(stage?: { env: Record<string, string>; cwd: string; http: HttpTransport }): NodeDeps;
  /** The bundle this process runs (scripts/hook.cjs): the resident retires when it changes. */
  codeFile: string;
}

/** Serves prompt and start hooks until the resident retires (resident/server.ts says when). */
export async function runResident(proc: ResidentProcess): Promise<void> {
  const base = proc.buildDeps();
  // Through the proxy the resident's environment names, if any (DESIGN D20); connections kept for the next request.
  const http = socketHttpTransportFor(base.deps.env, { keepAliveMs: KEEP_ALIVE_MS });
  process.chdir(base.deps.homeDir);
  await serveResident({
    stage: residentStage,
    env: process.env,
    homeDir: base.deps.homeDir,
    pluginRoot: base.deps.pluginRoot,
    pid: process.pid,
    now: Date.now,
    monotonicMs: () => Number(process.hrtime.bigint()) / 1e6,
    log: base.deps.log,
    makeFifo,
    listen: (path, onChunk) => listenOnFifo(path, onChunk, base.deps.log),
    createStageDeps: (env, cwd) => proc.buildDeps({ env, cwd, http }),
    codeFile: proc.codeFile,
    stopRequested: new Promise((resolve) => {
      for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => resolve());
    }),
  });
}

/** The stage of a relayed event; any other event is answered with the pass-through. */
function residentStage(input: HookInput, deps: StageDeps): Promise<StageResult> | StageResult {
  if (input.hook_event_name === 'UserPromptSubmit') return runPrompt(input, deps);
  return input.hook_event_name === 'SessionStart' ? runStart(input, deps) : PASS;
}

function makeFifo(path: string): void {
  const made = spawnSync('mkfifo', ['-m', '600', path], { stdio: 'ignore' });
  if (made.status !== 0)
    throw new Error(`mkfifo ${path} failed (${made.error?.message ?? `exit ${String(made.status)}`})`);
}

/**
 * Reads a FIFO through the event loop. Opened read-write, so the resident
 * itself counts as a writer and the FIFO never reads end-of-file between
 * hooks; non-blocking, so node's pipe handle can poll it.
 */
function listenOnFifo(path: string, onChunk: (text: string) => void, log: Logger): { close(): void } {
  const socket = new Socket({
    fd: openSync(path, constants.O_RDWR | constants.O_NONBLOCK),
    readable: true,
    writable: false,
  });
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => onChunk(text));
  socket.on('error', (error) => log.warn('resident: FIFO read failed', { error: error.message }));
  return { close: () => socket.destroy() };
}
