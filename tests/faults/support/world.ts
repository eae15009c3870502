/**
 * One fault scenario's world: the OpenViking test server, a sandboxed HOME
 * and workspace, the host simulator running hooks.json of a private copy of
 * the built plugin (plugin.ts), CodeBuddy-shaped transcripts (turns.ts) and the ledger
 * (ledger.ts). `fire` runs an event like the host and checks its
 * host-visible time against the hook's own timeout; `settle` waits for
 * every detached worker of the private plugin copy, so the ledger reads a quiet
 * system; `recover` clears the faults and lets capture catch up the way the
 * product does (another Stop, then a SessionStart, which replays the queue).
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHostSim, createPayloads } from '../../support/host-sim/index.js';
import type { FireResult, HostProfile, HostSim, Payloads } from '../../support/host-sim/index.js';
import { startOvServer } from '../../support/ov-server/index.js';
import type { OvServerOptions, OvTestServer } from '../../support/ov-server/index.js';
import { ovSessionId } from '../../../src/session/ids.js';
import { describeLedger, settledLedger, traceDuplicates } from './ledger.js';
import type { LedgerReport } from './ledger.js';
import { killWorkers, waitForWorkersGone } from './procfs.js';
import { createTranscript, expectedMarkers } from './turns.js';
import type { TranscriptWriter } from './turns.js';

/** Knobs that keep scenarios short: each request gives up after 1 s. */
export const FAST_KNOBS: Record<string, string> = {
  OPENVIKING_TIMEOUT_MS: '1000',
  OPENVIKING_PROMPT_DEADLINE_MS: '800',
  OPENVIKING_START_DEADLINE_MS: '1500',
  OPENVIKING_SYNC_CAPTURE_DEADLINE_MS: '3000',
  OPENVIKING_PENDING_REPLAY_BUDGET_MS: '1500',
  OPENVIKING_LOCK_TIMEOUT_MS: '1000',
};

export interface FaultSession {
  p: Payloads;
  tag: string;
  ovId: string;
  transcript: TranscriptWriter;
  /** Markers of every turn written so far. */
  expected(): string[];
}

export interface TimedEvent {
  label: string;
  result: FireResult;
  /** Largest host-visible time of the event's hooks. */
  ms: number;
  /** The smallest timeout among them (what the host kills at). */
  deadlineMs: number;
}

export interface FaultWorld {
  server: OvTestServer;
  home: string;
  workspace: string;
  sim: HostSim;
  /** Every event fired, for the host-time check. */
  readonly events: TimedEvent[];
  session(tag: string, sessionId?: string): FaultSession;
  /** Fires like the host; records the time. */
  fire(
    label: string,
    event: string,
    payload: Record<string, unknown>,
    env?: Record<string, string>,
  ): Promise<TimedEvent>;
  /** Waits until no detached worker of the private plugin copy runs (SIGKILLs stragglers after `timeoutMs`). */
  settle(timeoutMs?: number): Promise<void>;
  /** Clears faults, then Stop + SessionStart for each session until the ledger is complete (or tries run out). */
  recover(sessions: readonly FaultSession[]): Promise<void>;
  /** Ledger over the sessions' markers plus `extra` ones (e.g. a sub-agent's), printed; returns the report. */
  report(label: string, sessions: readonly FaultSession[], extra?: readonly string[]): Promise<LedgerReport>;
  /** The slowest recorded event, for the printed line and the deadline assertion. */
  slowest(): TimedEvent | undefined;
  close(): Promise<void>;
}

/** How the simulated host behaves (host-sim `profile`; the payload shape follows it). */
export interface FaultHostOptions {
  profile?: HostProfile;
}

export async function createFaultWorld(
  pluginRoot: string,
  env: Record<string, string> = {},
  serverOptions: OvServerOptions = {},
  hostOptions: FaultHostOptions = {},
): Promise<FaultWorld> {
  const server = await startOvServer(serverOptions);
  const root = mkdtempSync(join(tmpdir(), 'ov-faults-'));
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  for (const dir of [home, workspace]) mkdirSync(dir, { mode: 0o700 });
  const sim = createHostSim({
    pluginRoot,
    home,
    workspace,
    env: { OPENVIKING_URL: server.url, ...FAST_KNOBS, ...env },
    ...hostOptions,
  });
  const events: TimedEvent[] = [];
  const configDir = join(home, '.codebuddy');

  const session = (tag: string, sessionId?: string): FaultSession => {
    const hostVersion = hostOptions.profile === '2.163-headless' ? '2.163' : '2.117';
    const p = createPayloads({ workspace, configDir, hostVersion, ...(sessionId === undefined ? {} : { sessionId }) });
    const transcript = createTranscript(p.transcriptPath, tag, { sessionId: p.sessionId, cwd: workspace });
    return {
      p,
      tag,
      ovId: ovSessionId(p.sessionId),
      transcript,
      expected: () => expectedMarkers(tag, transcript.turns),
    };
  };
  const slowest = (): TimedEvent | undefined =>
    events.reduce<TimedEvent | undefined>(
      (worst, event) =>
        worst === undefined || event.ms / event.deadlineMs > worst.ms / worst.deadlineMs ? event : worst,
      undefined,
    );

  const fire = async (
    label: string,
    event: string,
    payload: Record<string, unknown>,
    extraEnv?: Record<string, string>,
  ): Promise<TimedEvent> => {
    const result = await sim.fire(event, payload, extraEnv === undefined ? {} : { env: extraEnv });
    const ms = Math.max(0, ...result.hooks.map((hook) => hook.durationMs));
    const deadlineMs = Math.min(...result.hooks.map((hook) => hook.timeoutMs));
    const timed: TimedEvent = { label, result, ms, deadlineMs };
    events.push(timed);
    return timed;
  };

  const settle = async (timeoutMs = 20_000): Promise<void> => {
    if (!(await waitForWorkersGone(pluginRoot, timeoutMs))) await killWorkers(pluginRoot);
  };

  return {
    server,
    home,
    workspace,
    sim,
    events,
    session,
    fire,
    settle,
    recover: async (list) => {
      server.faults.clear();
      if (!server.running) await server.start();
      for (let attempt = 0; attempt < 3; attempt++) {
        await settle();
        const report = await settledLedger(
          server,
          list.flatMap((s) => s.expected()),
          { timeoutMs: 200, quietMs: 0 },
        );
        if (report.lost.length === 0) return;
        for (const s of list) await fire(`recover ${s.tag}: Stop`, 'Stop', s.p.stop('done'));
        await settle();
        for (const s of list) await fire(`recover ${s.tag}: SessionStart`, 'SessionStart', s.p.sessionStart('resume'));
      }
      await settle();
    },
    report: async (label, list, extra = []) => {
      await settle();
      // The server is this world's own, so every session on it (sub-agents included) belongs to the scenario.
      const report = await settledLedger(server, [...list.flatMap((s) => s.expected()), ...extra], {
        timeoutMs: 3_000,
      });
      const slow = slowest();
      console.log(describeLedger(label, report, slow?.ms ?? 0, slow?.deadlineMs ?? 0));
      for (const line of traceDuplicates(server, report.duplicated)) console.log(line);
      return report;
    },
    slowest,
    close: async () => {
      await settle(5_000);
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
