/**
 * A capture test world: an OpenViking test server, a sandboxed HOME and
 * workspace, the host simulator running the BUILT bundle, and a transcript
 * writer that appends CodeBuddy 2.117-shaped turns, so tests drive capture
 * exactly as the host would and read the outcome off the server.
 *
 * @module
 */
import { detachedRuns } from '../../support/detached.js';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHostSim, createPayloads } from '../../support/host-sim/index.js';
import type { HostSim, HostVersion, Payloads } from '../../support/host-sim/index.js';
import { startOvServer } from '../../support/ov-server/index.js';
import type { OvServerOptions, OvTestServer } from '../../support/ov-server/index.js';
import { REPO_ROOT } from '../../support/spawn-hook.js';
import { waitFor } from '../../support/wait.js';
import { copyBuiltPlugin } from '../../faults/support/plugin.js';
import { startFaultProxy } from './proxy.js';
import type { ProxyRule } from './proxy.js';
import { ovSessionId } from '../../../src/session/ids.js';
import { captureStateFile } from '../../../src/capture/paths.js';

export interface CaptureWorld {
  server: OvTestServer;
  home: string;
  workspace: string;
  dataDir: string;
  sim: HostSim;
  p: Payloads;
  /** `cb-<session>` */
  ovId: string;
  /** Appends one user prompt and one assistant answer to the main transcript. */
  appendTurn(user: string, assistant: string, path?: string): void;
  /** Appends raw JSONL records. */
  appendRecords(records: readonly unknown[], path?: string): void;
  /** Texts of every message the server ever stored for a session, in order. */
  storedTexts(sessionId?: string): string[];
  /** Files in the dead-letter folder. */
  deadLetters(): string[];
  /** Queue entries waiting. */
  pendingEntries(): string[];
  close(): Promise<void>;
}

export interface WorldOptions {
  hostVersion?: HostVersion;
  env?: Record<string, string>;
  /** Put a fault proxy between the plugin and the server. */
  proxyRule?: ProxyRule;
  /** Run a private copy of the plugin whose worker has the crash seam (`OPENVIKING_TEST_CRASH_AT`); shipped bundles have none. */
  testSeams?: boolean;
  /** The test server's options (e.g. `extractOnCommit`). */
  server?: OvServerOptions;
}

let clock = Date.parse('2026-11-30T08:00:00Z');

export async function createWorld(options: WorldOptions = {}): Promise<CaptureWorld> {
  const server = await startOvServer(options.server);
  const proxy = options.proxyRule === undefined ? undefined : await startFaultProxy(server.url, options.proxyRule);
  const home = mkdtempSync(join(tmpdir(), 'ov-cap-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'ov-cap-ws-'));
  const debugLog = join(home, 'debug.log');
  const seamed = options.testSeams === true ? await copyBuiltPlugin(REPO_ROOT, { testSeams: true }) : undefined;
  const sim = createHostSim({
    pluginRoot: seamed?.root ?? REPO_ROOT,
    home,
    workspace,
    env: {
      OPENVIKING_URL: proxy?.url ?? server.url,
      OPENVIKING_DEBUG: '1',
      OPENVIKING_DEBUG_LOG: debugLog,
      OPENVIKING_TIMEOUT_MS: '5000',
      ...options.env,
    },
  });
  const p = createPayloads({
    workspace,
    configDir: join(home, '.codebuddy'),
    hostVersion: options.hostVersion ?? '2.117',
  });
  const dataDir = join(home, '.codebuddy', 'openviking');
  const ovId = ovSessionId(p.sessionId);
  const appendRecords = (records: readonly unknown[], path = p.transcriptPath): void => appendTranscript(path, records);
  return {
    server,
    home,
    workspace,
    dataDir,
    sim,
    p,
    ovId,
    appendRecords,
    appendTurn: (user, assistant, path) => appendRecords(turnRecords(p.sessionId, workspace, user, assistant), path),
    storedTexts: (sessionId = ovId) => (server.session(sessionId)?.allMessages ?? []).map(messageText),
    deadLetters: () => listFiles(join(dataDir, 'queue', 'dead')),
    pendingEntries: () => listFiles(join(dataDir, 'queue', 'pending')),
    close: async () => {
      // Detached workers may still be finishing: let them, so the sandbox can go.
      await until(
        () => detachedRuns(home).length === 0 && noCaptureActivity(dataDir),
        20_000,
        'capture workers to finish',
      ).catch(() => undefined);
      if (process.env.CAPTURE_TEST_DUMP) process.stdout.write(readDebugLog(home));
      await proxy?.close();
      await server.close();
      await seamed?.dispose();
      rmSync(home, { recursive: true, force: true, maxRetries: 5 });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** A session of the world's workspace that captures one turn and ends (SessionEnd commits it). */
export async function endedSession(w: CaptureWorld, text: string): Promise<string> {
  const p = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
  w.appendRecords(
    [
      {
        id: `u-${text}`,
        timestamp: Date.now(),
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text }],
        sessionId: p.sessionId,
        cwd: w.workspace,
      },
      {
        id: `a-${text}`,
        parentId: `u-${text}`,
        timestamp: Date.now(),
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: `noted ${text}` }],
        sessionId: p.sessionId,
        cwd: w.workspace,
      },
    ],
    p.transcriptPath,
  );
  await w.sim.fire('Stop', p.stop(`noted ${text}`));
  await w.sim.fire('SessionEnd', p.sessionEnd());
  await workersIdle(w, ovSessionId(p.sessionId));
  return ovSessionId(p.sessionId);
}

/** Appends `records` to the transcript at `path` as JSON lines (its folder made first). */
export function appendTranscript(path: string, records: readonly unknown[]): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
}

/** One user record and one assistant record, as CodeBuddy 2.117 writes them. */
export function turnRecords(sessionId: string, cwd: string, user: string, assistant: string): unknown[] {
  const userId = randomUUID();
  const answerId = `chatcmpl-${randomUUID()}`;
  const t = (clock += 1_000);
  return [
    {
      id: userId,
      timestamp: t,
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: user }],
      providerData: { agent: 'cli' },
      sessionId,
      cwd,
    },
    {
      id: answerId,
      parentId: userId,
      timestamp: t + 500,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ providerData: { annotations: [] }, type: 'output_text', text: assistant }],
      providerData: { messageId: randomUUID(), model: 'fake-model', agent: 'cli' },
      sessionId,
      cwd,
    },
  ];
}

/** Every text of a stored message (text parts and tool outputs), joined. */
export function messageText(message: { parts?: unknown[] }): string {
  return (message.parts ?? [])
    .map((part) => {
      const p = part as { type?: string; text?: string; tool_output?: string; tool_input?: unknown };
      if (p.type === 'text') return p.text ?? '';
      return `${JSON.stringify(p.tool_input ?? null)} ${p.tool_output ?? ''}`;
    })
    .join('\n');
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.json') || name.endsWith('.processing'));
  } catch {
    return [];
  }
}

/** The session's capture state as stored (undefined before the first pass). */
export function captureStateOf(world: CaptureWorld, sessionId = world.ovId): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(captureStateFile(world.dataDir, sessionId), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Reads the JSON-lines debug log of the world (empty when missing). */
export function debugLines(world: CaptureWorld): Record<string, unknown>[] {
  try {
    return readFileSync(join(world.home, 'debug.log'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return [];
  }
}

function readDebugLog(home: string): string {
  try {
    return readFileSync(join(home, 'debug.log'), 'utf8');
  } catch {
    return '';
  }
}

/** Polls `probe` until it returns true, or fails after `timeoutMs`. */
export async function until(
  probe: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<void> {
  await waitFor(probe, { timeoutMs, intervalMs: 25, what });
}

/** Waits until no capture worker holds or waits for the session (lock dir gone and inbox empty). */
export async function workersIdle(world: CaptureWorld, sessionId = world.ovId, timeoutMs = 30_000): Promise<void> {
  const { captureLockPath } = await import('../../../src/session/locks.js');
  const { requestDir } = await import('../../../src/capture/paths.js');
  const lock = captureLockPath(world.dataDir, sessionId);
  const inbox = requestDir(world.dataDir, sessionId);
  const idle = (): boolean => detachedRuns(world.home).length === 0 && !exists(lock) && listFiles(inbox).length === 0;
  // Idle twice, 50 ms apart: one /proc scan can fall inside a process's exec (see detachedRuns).
  await until(
    async () => idle() && (await new Promise((resolve) => setTimeout(resolve, 50)), idle()),
    timeoutMs,
    `idle capture of ${sessionId}`,
  );
}

/** No capture lock is held and no request waits, in any session of the data dir. */
function noCaptureActivity(dataDir: string): boolean {
  const locks = listAll(join(dataDir, 'locks')).filter((name) => name.startsWith('capture-'));
  const inboxes = listAll(join(dataDir, 'capture')).filter((name) => name.endsWith('.requests'));
  return locks.length === 0 && inboxes.every((inbox) => listFiles(join(dataDir, 'capture', inbox)).length === 0);
}

function listAll(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function exists(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}
