/**
 * Fuzzes the transcript path with 1,000 generated transcript files (seeded;
 * the seed is printed, `FUZZ_SEED=<n>` replays a run): truncated lines,
 * binary junk, unknown record types, 1 MB lines, reused ids, both host
 * formats.
 * - Every file goes through the reader in two incremental reads (cut at a
 *   random byte, as a host mid-write leaves it), the decoder and the privacy
 *   filter: no exception, well-formed messages, bounded time.
 * - Every 4th file goes through the capture path in-process (a PreCompact
 *   through `dispatchHook`: the synchronous capture reads, decodes, filters
 *   and sends to the test server): no stage failure, empty stdout, and what
 *   the server stored is well-formed and free of `<private>` text.
 * - 12 files go through a real worker process (`hook.cjs worker capture`):
 *   exit 0.
 *
 * @module
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchHook } from '../../src/hook/dispatch.js';
import { routeFor } from '../../src/hook/routes.js';
import { socketHttpTransport } from '../../src/openviking/socketHttp.js';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { ovSessionId } from '../../src/session/ids.js';
import {
  cursorAfterRecords,
  decodeTranscriptRecords,
  readTranscriptTail,
  sanitizeMessages,
} from '../../src/transcript/index.js';
import type { DecodedMessage } from '../../src/transcript/index.js';
import { createPayloads } from '../support/host-sim/payloads.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';
import { runProcess } from '../support/spawn-hook.js';
import { messageText } from '../faults/support/ledger.js';
import { copyBuiltPlugin } from '../faults/support/plugin.js';
import type { PrivatePlugin } from '../faults/support/plugin.js';
import { createRng, fuzzSeed } from './support/rng.js';
import { generateTranscript } from './support/transcriptCases.js';
import { createFuzzWorld } from './support/world.js';
import type { FuzzWorld } from './support/world.js';

const CASES = 1_000;
const CAPTURE_EVERY = 4;
const WORKER_CASES = 12;
/** Per-file bound of the in-process read + decode + filter (a 1 MB line included). */
const DECODE_BOUND_MS = 3_000;
const SEED = fuzzSeed(process.env, new Date());

let world: FuzzWorld;
let plugin: PrivatePlugin;

beforeAll(async () => {
  console.log(
    `[fuzz] transcripts seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run tests/fuzz/transcripts.test.ts)`,
  );
  [world, plugin] = await Promise.all([createFuzzWorld(), copyBuiltPlugin()]);
});

afterAll(async () => {
  await plugin?.dispose();
  await world?.dispose();
});

function wellFormed(message: DecodedMessage): boolean {
  return (
    (message.role === 'user' || message.role === 'assistant') &&
    Array.isArray(message.parts) &&
    message.parts.length > 0 &&
    typeof message.recordId === 'string'
  );
}

/** Two incremental reads, decode and filter; returns the messages or throws what the code threw. */
async function decodeInTwoReads(path: string, bytes: Buffer, splitAt: number): Promise<DecodedMessage[]> {
  writeFileSync(path, bytes.subarray(0, splitAt));
  const first = await readTranscriptTail(path, undefined);
  const firstDecoded = decodeTranscriptRecords(first.records);
  appendFileSync(path, bytes.subarray(splitAt));
  const second = await readTranscriptTail(path, cursorAfterRecords(first, firstDecoded.consumed));
  const secondDecoded = decodeTranscriptRecords(
    second.records,
    firstDecoded.format === undefined ? {} : { format: firstDecoded.format },
  );
  return [...sanitizeMessages(firstDecoded.messages), ...sanitizeMessages(secondDecoded.messages)];
}

function sessionFor(index: number): string {
  return `tfuzz-${SEED}-${index}`;
}

describe('transcript fuzz', () => {
  it(`${CASES} generated transcripts through the reader, decoder, privacy filter and (every ${CAPTURE_EVERY}th) capture`, async () => {
    const rng = createRng(SEED);
    const problems: string[] = [];
    let slowest = 0;
    let captured = 0;
    for (let index = 0; index < CASES; index++) {
      const testCase = generateTranscript(rng.fork(index));
      const label = `case ${index} (${testCase.bytes.length} B${testCase.hasHugeLine ? ', 1 MB line' : ''}, seed ${SEED})`;
      const path = join(world.root, 'transcripts', `fuzz-${index}.jsonl`);
      const started = performance.now();
      try {
        const messages = await decodeInTwoReads(path, testCase.bytes, testCase.splitAt);
        const bad = messages.find((message) => !wellFormed(message));
        if (bad !== undefined) problems.push(`${label}: malformed message ${JSON.stringify(bad).slice(0, 200)}`);
      } catch (error) {
        problems.push(`${label}: decoder threw ${error instanceof Error ? error.stack : String(error)}`);
        continue;
      }
      const ms = performance.now() - started;
      slowest = Math.max(slowest, ms);
      if (ms > DECODE_BOUND_MS) problems.push(`${label}: read+decode took ${ms.toFixed(0)} ms`);
      if (index % CAPTURE_EVERY !== 0) continue;
      const p = createPayloads({
        workspace: world.workspace,
        configDir: world.configDir,
        sessionId: sessionFor(index),
      });
      const deps = createTestDeps({
        http: socketHttpTransport,
        env: world.env,
        homeDir: world.home,
        cwd: world.workspace,
        now: Date.now,
      });
      const stdout = await dispatchHook(JSON.stringify(p.preCompact('auto', { transcript_path: path })), {
        routeFor,
        createDeps: () => deps,
        elapsedMs: () => 0,
      });
      captured += 1;
      if (stdout !== '') problems.push(`${label}: PreCompact printed ${stdout.slice(0, 100)}`);
      for (const line of deps.logged)
        if (line.message.startsWith('stage')) problems.push(`${label}: ${line.message} ${JSON.stringify(line.fields)}`);
    }
    const stored = world.server
      .sessions()
      .filter((session) => session.sessionId.startsWith(ovSessionId(`tfuzz-${SEED}-`)));
    const storedMessages = stored.flatMap((session) => session.allMessages);
    for (const message of storedMessages) {
      const text = messageText(message);
      if (/secret \d/.test(text) || /hunter\d/.test(text))
        problems.push(`private or secret text reached the server: ${text.slice(0, 120)}`);
      if (message.role !== 'user' && message.role !== 'assistant')
        problems.push(`stored message with role ${message.role}`);
    }
    console.log(
      `[fuzz] transcripts: ${CASES} files, slowest read+decode ${slowest.toFixed(0)} ms, ${captured} captured into ${stored.length} sessions (${storedMessages.length} messages)`,
    );
    expect(problems.slice(0, 20), `seed ${SEED}: ${problems.length} problem(s)`).toEqual([]);
    expect(storedMessages.length, 'some generated turns were captured').toBeGreaterThan(0);
  }, 240_000);

  it(`${WORKER_CASES} generated transcripts through a real capture worker process: exit 0`, async () => {
    const rng = createRng(SEED ^ 0x2545f491);
    const problems: string[] = [];
    const env = { ...world.env, CODEBUDDY_PLUGIN_ROOT: plugin.root };
    for (let index = 0; index < WORKER_CASES; index++) {
      const testCase = generateTranscript(rng.fork(index));
      const path = join(world.root, 'transcripts', `worker-${index}.jsonl`);
      writeFileSync(path, testCase.bytes);
      const p = createPayloads({
        workspace: world.workspace,
        configDir: world.configDir,
        sessionId: `tworker-${SEED}-${index}`,
      });
      const stop = JSON.stringify(p.stop('done', { transcript_path: path }));
      // The hook half (posts the request; the spawn is recorded), then the worker half as its own process.
      const deps = createTestDeps({
        http: socketHttpTransport,
        env,
        homeDir: world.home,
        cwd: world.workspace,
        now: Date.now,
      });
      await dispatchHook(stop, { routeFor, createDeps: () => deps, elapsedMs: () => 0 });
      const spawned = deps.spawned[0];
      if (spawned === undefined) {
        problems.push(`case ${index}: Stop spawned no worker`);
        continue;
      }
      const run = await runProcess(process.execPath, [join(plugin.root, HOOK_ENTRY), ...spawned.args], {
        stdin: spawned.stdin,
        env,
        cwd: world.workspace,
        timeoutMs: 60_000,
      });
      if (run.exitCode !== 0)
        problems.push(
          `case ${index} (seed ${SEED}): worker exit ${String(run.exitCode)} ${String(run.signal)} ${run.stderr.slice(0, 300)}`,
        );
    }
    expect(problems, `seed ${SEED}`).toEqual([]);
  }, 120_000);
});
