/**
 * The Stop hook's wall time does not depend on the transcript: it posts a
 * request and spawns the worker, and the worker reads only what was appended
 * since its cursor. Checked on a 50 MB transcript (loosely: far inside the
 * hook's timeout; timing on a shared 2-core machine is noisy).
 *
 * `CAPTURE_MEASURE=1` also prints the measurements of the report: Stop wall
 * time vs a bare `node -e 0` (interleaved), and time-to-server of one new
 * turn on a 50 KB vs a 50 MB transcript.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPayloads } from '../support/host-sim/index.js';
import type { Payloads } from '../support/host-sim/index.js';
import { runProcess } from '../support/spawn-hook.js';
import { ovSessionId } from '../../src/session/ids.js';
import { createWorld, turnRecords, until, workersIdle } from './support/world.js';
import type { CaptureWorld } from './support/world.js';

let world: CaptureWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const MB = 1024 * 1024;

/** A transcript of about `bytes`: big snapshot records (ignored by the decoder) and one turn. */
function writeTranscript(p: Payloads, workspace: string, bytes: number): void {
  mkdirSync(dirname(p.transcriptPath), { recursive: true });
  writeFileSync(p.transcriptPath, '');
  const filler =
    JSON.stringify({
      id: 'snap',
      type: 'file-history-snapshot',
      snapshot: { blob: 'x'.repeat(Math.min(bytes, 256 * 1024) - 80) },
    }) + '\n';
  const chunk = filler.repeat(Math.max(1, Math.floor(Math.min(bytes, 8 * MB) / filler.length)));
  for (let written = 0; written < bytes; written += chunk.length) appendFileSync(p.transcriptPath, chunk);
  appendFileSync(
    p.transcriptPath,
    turnRecords(p.sessionId, workspace, 'first question', 'first answer')
      .map((r) => `${JSON.stringify(r)}\n`)
      .join(''),
  );
}

async function timeNewTurn(w: CaptureWorld, p: Payloads, turn: number): Promise<{ stopMs: number; landedMs: number }> {
  const id = ovSessionId(p.sessionId);
  const before = w.storedTexts(id).length;
  appendFileSync(
    p.transcriptPath,
    turnRecords(p.sessionId, w.workspace, `question ${turn}`, `answer ${turn}`)
      .map((r) => `${JSON.stringify(r)}\n`)
      .join(''),
  );
  const started = performance.now();
  const stop = await w.sim.fire('Stop', p.stop());
  expect(stop.timedOut).toBe(false);
  await until(() => w.storedTexts(id).length >= before + 2, 60_000, `turn ${turn}`);
  const landedMs = performance.now() - started;
  await workersIdle(w, id);
  return { stopMs: stop.durationMs, landedMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

describe('Stop latency', () => {
  it('a 50 MB transcript: Stop stays far inside its timeout and the next turn lands alone', async () => {
    world = await createWorld();
    const w = world;
    writeTranscript(w.p, w.workspace, 50 * MB);
    const first = await w.sim.fire('Stop', w.p.stop());
    expect(first.timedOut).toBe(false);
    expect(first.durationMs).toBeLessThan(5_000); // the hook timeout is 10 s
    await until(() => w.storedTexts().length === 2, 60_000, 'the first capture of 50 MB');
    await workersIdle(w);
    const { stopMs } = await timeNewTurn(w, w.p, 2);
    expect(stopMs).toBeLessThan(5_000);
    expect(w.storedTexts()).toEqual(['first question', 'first answer', 'question 2', 'answer 2']);
  }, 120_000);

  it.runIf(process.env.CAPTURE_MEASURE === '1')(
    'measurements for the report',
    async () => {
      world = await createWorld();
      const w = world;
      const small = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
      const large = createPayloads({ workspace: w.workspace, configDir: join(w.home, '.codebuddy') });
      writeTranscript(small, w.workspace, 50 * 1024);
      writeTranscript(large, w.workspace, 50 * MB);
      for (const p of [small, large]) {
        await w.sim.fire('Stop', p.stop());
        await until(() => w.storedTexts(ovSessionId(p.sessionId)).length === 2, 60_000);
        await workersIdle(w, ovSessionId(p.sessionId));
      }
      const bare: number[] = [];
      const stops: Record<'small' | 'large', number[]> = { small: [], large: [] };
      const landed: Record<'small' | 'large', number[]> = { small: [], large: [] };
      for (let round = 0; round < 7; round++) {
        const node = await runProcess('/bin/bash', ['-c', 'node -e 0'], {
          env: w.sim.env,
          cwd: w.workspace,
          timeoutMs: 10_000,
        });
        bare.push(node.durationMs);
        for (const [name, p] of [
          ['small', small],
          ['large', large],
        ] as const) {
          const timing = await timeNewTurn(w, p, 100 + round);
          stops[name].push(timing.stopMs);
          landed[name].push(timing.landedMs);
        }
      }
      const report = {
        bareNodeMs: median(bare),
        stopSmallMs: median(stops.small),
        stopLargeMs: median(stops.large),
        stopVsBare: median(stops.large) / median(bare),
        landed50KBMs: median(landed.small),
        landed50MBMs: median(landed.large),
        landedRatio: median(landed.large) / median(landed.small),
      };
      process.stdout.write(`CAPTURE-MEASURE ${JSON.stringify(report)}\n`);
    },
    600_000,
  );
});
