/**
 * Capture cost of one new turn at growing transcript sizes: the time from
 * the Stop hook's spawn until the server holds the new turn, and the
 * detached worker's peak RSS (main.ts writes the process's `maxRSS` into the
 * debug log when it ends; the debug log is on for these runs only). A cursor makes the work depend on what was
 * appended, not on the file, so the 50 MB cost should stay near the 50 KB
 * cost (target: ≤ 1.5×).
 *
 * Each size gets its own host session: the transcript is written, one Stop
 * brings capture to its end (not timed), then one turn is appended and
 * timed `rounds` times; the median is reported.
 *
 * @module
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { turnLines, turnMarker, writeTranscriptOfSize } from '../tests/faults/support/turns.js';
import { createPayloads } from '../tests/support/host-sim/index.js';
import { catchUp, TRANSCRIPT_SIZES, TURN_PAD_CHARS } from './hookPaths.js';
import { timedRun } from './process.js';
import { formatMs, formatRatio } from './report.js';
import type { ResultRow } from './report.js';
import { median } from './stats.js';
import { msUntil, markerStored, waitForWorkersGone } from './workers.js';
import type { BenchWorld } from './world.js';

const ARRIVAL_TIMEOUT_MS = 60_000;
export const CAPTURE_TARGET = { limit: 1.5, label: '≤ 1.5× of 50 KB' };

interface SizeResult {
  label: string;
  medianMs: number;
  peakRssKb?: number;
  missed: number;
}

async function measureSize(world: BenchWorld, label: string, bytes: number, rounds: number): Promise<SizeResult> {
  const p = createPayloads({ workspace: world.workspace, configDir: join(world.home, '.codebuddy') });
  const tag = `cap${bytes}`;
  const options = { sessionId: p.sessionId, cwd: world.workspace, padChars: TURN_PAD_CHARS };
  let turn = writeTranscriptOfSize(p.transcriptPath, tag, bytes, options);
  const stdin = JSON.stringify(p.stop('done'));
  await catchUp(world, stdin, () => markerStored(world.server, turnMarker(tag, turn, 'assistant')));
  const debugLog = join(world.home, `worker-${bytes}.log`);
  const debugEnv = { ...world.env, OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: debugLog };
  const times: number[] = [];
  let missed = 0;
  for (let round = 0; round < rounds; round++) {
    turn += 1;
    appendFileSync(p.transcriptPath, turnLines(tag, turn, options));
    const marker = turnMarker(tag, turn, 'assistant');
    world.server.clearRequests();
    const started = performance.now();
    void timedRun({ ...world.hookCommand('Stop', stdin), env: debugEnv });
    const ms = await msUntil(() => markerStored(world.server, marker), ARRIVAL_TIMEOUT_MS, started);
    await waitForWorkersGone(world.pluginRoot, ARRIVAL_TIMEOUT_MS);
    if (ms === undefined) missed += 1;
    else times.push(ms);
  }
  const result: SizeResult = { label, medianMs: median(times), missed };
  const peak = workerPeakRssKb(debugLog);
  if (peak !== undefined) result.peakRssKb = peak;
  return result;
}

/** Largest `maxRssKb` of the `process done` lines (main.ts, at the end of a background job) in a debug log. */
function workerPeakRssKb(logPath: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch {
    return undefined;
  }
  const values = [...text.matchAll(/"message":"process done".*?"maxRssKb":(\d+)/g)].map((match) => Number(match[1]));
  return values.length === 0 ? undefined : Math.max(...values);
}

/** One row per size; the 50 MB row carries the ratio to 50 KB and its target. */
export async function measureCapture(world: BenchWorld, rounds: number): Promise<ResultRow[]> {
  const results: SizeResult[] = [];
  for (const size of TRANSCRIPT_SIZES) results.push(await measureSize(world, size.label, size.bytes, rounds));
  const smallest = results[0]?.medianMs ?? Number.NaN;
  return results.map((result, index) => {
    const ratio = result.medianMs / smallest;
    const row: ResultRow = {
      name: `capture one new turn (${result.label} transcript)`,
      value: formatMs(result.medianMs),
      measured: ratio,
      measuredLabel: `${formatRatio(ratio)} of 50 KB`,
      note: `Stop spawn → turn on the server, median of ${rounds}${result.missed > 0 ? `; ${result.missed} never arrived` : ''}; RSS = worker`,
    };
    if (index === results.length - 1) row.target = CAPTURE_TARGET;
    if (result.peakRssKb !== undefined) row.peakRssKb = result.peakRssKb;
    return row;
  });
}
