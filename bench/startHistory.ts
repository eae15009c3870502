/**
 * SessionStart as users live it (issue 17 item 3, DESIGN D19): a fresh
 * session (a new session id every run, so nothing of the session is
 * cached; the user's space is, as after any earlier session of that user),
 * then the same with 5,000 and 50,000 past sessions in the data directory.
 * Target: the fresh row within +25 ms of bare node, and each history row
 * within +25 ms of the fresh row, all measured in the same interleaved
 * rounds.
 *
 * Past sessions are written the way the plugin leaves a session it captured
 * and committed, after capture state retention (store/retention.ts): one
 * settled capture state per session, not in the uncommitted index, its
 * start answer and empty inbox swept. The data directory's size is printed.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initUncommittedIndex } from '../src/capture/commitIndex.js';
import { captureStateFile } from '../src/capture/paths.js';
import { emptyCaptureState } from '../src/capture/state.js';
import { createPayloads } from '../tests/support/host-sim/index.js';
import { timedRun } from './process.js';
import type { Command } from './process.js';
import { formatMs } from './report.js';
import type { ResultRow, Target } from './report.js';
import { median } from './stats.js';
import type { BenchWorld } from './world.js';
import { waitForWorkersGone } from './workers.js';

const FRESH_TARGET: Target = { limit: 25, label: '≤ +25 ms over bare' };
const WORKER_SETTLE_MS = 120_000;
/** History sizes of the rows after the fresh one. */
export const PAST_SESSIONS = [5_000, 50_000] as const;

/** A fresh SessionStart command (a new host session id each call), with the data directory `dataDir` when given. */
function freshStart(world: BenchWorld, dataDir?: string): Command {
  const payloads = createPayloads({
    workspace: world.workspace,
    configDir: join(world.home, '.codebuddy'),
    sessionId: randomUUID(),
  });
  const command = world.hookCommand('SessionStart', JSON.stringify(payloads.sessionStart('startup')));
  return dataDir === undefined
    ? command
    : { ...command, env: { ...command.env, OPENVIKING_CODEBUDDY_DATA_DIR: dataDir } };
}

/**
 * Adds past sessions numbered `from`…`to - 1`: each the settled capture
 * state a committed session keeps (its transcript cursor and the
 * acknowledged fingerprints exactly-once needs), written directly.
 */
export function writePastSessions(dataDir: string, workspace: string, from: number, to: number): void {
  mkdirSync(join(dataDir, 'capture'), { recursive: true, mode: 0o700 });
  const at = Date.now() - 90 * 86_400_000;
  for (let n = from; n < to; n++) {
    const hostSessionId = `past-${String(n).padStart(6, '0')}-${randomUUID()}`;
    const ovSessionId = `cb-${hostSessionId}`;
    const transcriptPath = join(dataDir, '..', 'projects', 'bench', `${hostSessionId}.jsonl`);
    const state = {
      version: 1,
      ...emptyCaptureState({ ovSessionId, hostSessionId, workspace }),
      transcriptPath,
      format: 'codebuddy',
      cursor: {
        path: transcriptPath,
        fileId: `${n}:${n}`,
        size: 48_000,
        offset: 48_000,
        lastLineStart: 47_000,
        lastLineHash: 'a1b2c3d4e5f60718',
        lastRecordId: `chatcmpl-${n}-20`,
      },
      lastAckedRecordId: `chatcmpl-${n}-20`,
      acked: 'f0e1d2c3'.repeat(40),
      lastCaptureAt: at,
      lastCommitAt: at + 1_000,
      counts: { sent: 40, queued: 0, deadLettered: 0, skipped: 0, commits: 1 },
    };
    writeFileSync(captureStateFile(dataDir, ovSessionId), JSON.stringify(state), { mode: 0o600 });
  }
}

/** Bytes and files under `dir`. */
export function treeSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = treeSize(path);
      bytes += sub.bytes;
      files += sub.files;
    } else {
      bytes += statSync(path).size;
      files++;
    }
  }
  return { bytes, files };
}

function row(
  name: string,
  measured: { pathMs: number; bareMs: number; requests: number },
  target: Target,
  overMs: number,
  note: string,
): ResultRow {
  return {
    name,
    value: formatMs(measured.pathMs),
    baseline: formatMs(measured.bareMs),
    measured: overMs,
    measuredLabel: `+${overMs.toFixed(1)} ms`,
    target,
    requests: measured.requests.toFixed(1),
    note,
  };
}

interface Config {
  label: string;
  /** Undefined: the default data directory, with no past session. */
  dataDir?: string;
}

/**
 * The fresh row and one row per history size, measured interleaved in the
 * same rounds (bare, then the three in an order rotated each round) so
 * machine load hits them alike; each history size has its own data directory
 * (`OPENVIKING_CODEBUDDY_DATA_DIR`), the fresh one the default.
 */
export async function measureStartHistory(world: BenchWorld, pairs: number): Promise<ResultRow[]> {
  const configs: Config[] = [{ label: 'SessionStart, fresh session (new id each run)' }];
  for (const count of PAST_SESSIONS) {
    const dataDir = join(world.home, `history-${count}`);
    writePastSessions(dataDir, world.workspace, 0, count);
    initUncommittedIndex(dataDir); // steady state: the index exists (a data dir from before it builds it once)
    configs.push({ label: `SessionStart, fresh session, ${count.toLocaleString('en-US')} past sessions`, dataDir });
  }
  // Each data directory's first session ever: resolves and caches the user space, starts its resident.
  for (const config of configs) {
    await timedRun(freshStart(world, config.dataDir));
    await waitForWorkersGone(world.pluginRoot, WORKER_SETTLE_MS);
  }
  const before = world.server.requests().length;
  const bare: number[] = [];
  const samples = configs.map(() => [] as number[]);
  for (let round = 0; round < pairs; round++) {
    bare.push((await timedRun(world.bareNode())).ms);
    // Rotated each round, so no configuration always runs first after the bare node.
    for (let step = 0; step < configs.length; step++) {
      const index = (round + step) % configs.length;
      const run = await timedRun(freshStart(world, configs[index]?.dataDir));
      await waitForWorkersGone(world.pluginRoot, WORKER_SETTLE_MS);
      samples[index]?.push(run.ms);
    }
  }
  const requests = (world.server.requests().length - before) / (pairs * configs.length);
  const bareMs = median(bare);
  const freshOver = median(samples[0] ?? []) - bareMs;
  return configs.map((config, index) => {
    const pathMs = median(samples[index] ?? []);
    const over = pathMs - bareMs;
    if (config.dataDir === undefined)
      return row(
        config.label,
        { pathMs, bareMs, requests },
        FRESH_TARGET,
        over,
        'profile read + two listings in parallel; the user space cached by an earlier session',
      );
    const size = treeSize(config.dataDir);
    const target: Target = { limit: freshOver + 25, label: `≤ fresh + 25 ms (+${(freshOver + 25).toFixed(1)} ms)` };
    return row(
      config.label,
      { pathMs, bareMs, requests },
      target,
      over,
      `${over - freshOver >= 0 ? '+' : ''}${(over - freshOver).toFixed(1)} ms vs fresh; data dir ${(size.bytes / 1_048_576).toFixed(1)} MB in ${size.files.toLocaleString('en-US')} files`,
    );
  });
}
