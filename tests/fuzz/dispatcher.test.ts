/**
 * Fuzzes the hook dispatcher with generated stdin payloads (seeded; the seed
 * is printed, `FUZZ_SEED=<n>` replays a run):
 * - 10,000 cases in-process through `dispatchHook`, the function main.ts
 *   runs (parse → route → stage → encode), with the real stages, the real
 *   node:http transport and a real test server on 127.0.0.1, decoded from
 *   bytes exactly like main.ts's stdin reader (size bound included);
 * - 150 cases through the real bundle process (a private copy of the built plugin).
 * Every case: no exception escapes and no stage throws or overruns (the
 * dispatcher logs both), output empty or the event's own envelope, time
 * within the route's budget (in-process) or the event's hooks.json timeout
 * (the process, as the host would kill it); the process exits 0.
 *
 * @module
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchHook } from '../../src/hook/dispatch.js';
import { routeFor } from '../../src/hook/routes.js';
import { MAX_STDIN_BYTES } from '../../src/protocol/stdin.js';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { socketHttpTransport } from '../../src/openviking/socketHttp.js';
import { parseHookInput } from '../../src/protocol/parse.js';
import { hookTimeoutMs } from '../support/host-sim/protocol/runner.js';
import { loadHooksConfig } from '../support/host-sim/index.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';
import { copyBuiltPlugin } from '../faults/support/plugin.js';
import type { PrivatePlugin } from '../faults/support/plugin.js';
import { killWorkers, waitForWorkersGone } from '../faults/support/procfs.js';
import { createRng, fuzzSeed } from './support/rng.js';
import { generateCase } from './support/stdinCases.js';
import type { StdinCase } from './support/stdinCases.js';
import { outputProblem } from './support/verdict.js';
import { createFuzzWorld } from './support/world.js';
import type { FuzzWorld } from './support/world.js';

const IN_PROCESS_CASES = 10_000;
const BUNDLE_CASES = 150;
const CONCURRENCY = 4;
const BUNDLE_CONCURRENCY = 3;
const SEED = fuzzSeed(process.env, new Date());

let world: FuzzWorld;
let plugin: PrivatePlugin;

beforeAll(async () => {
  console.log(
    `[fuzz] dispatcher seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run tests/fuzz/dispatcher.test.ts)`,
  );
  [world, plugin] = await Promise.all([createFuzzWorld(), copyBuiltPlugin()]);
});

afterAll(async () => {
  if (plugin !== undefined) {
    await waitForWorkersGone(plugin.root, 5_000);
    await killWorkers(plugin.root);
    await plugin.dispose();
  }
  await world?.dispose();
});

const HOOKS = loadHooksConfig(REPO_ROOT);

/** The event's hooks.json timeout (what the host kills at); the smallest one when the event is unknown. */
function hostTimeoutMs(event: string | undefined): number {
  const all = Object.values(HOOKS).flatMap((groups) =>
    groups.flatMap((group) => group.hooks.map((hook) => hookTimeoutMs(hook))),
  );
  const own =
    event === undefined ? [] : (HOOKS[event] ?? []).flatMap((group) => group.hooks.map((hook) => hookTimeoutMs(hook)));
  return Math.min(...(own.length > 0 ? own : all));
}

/** Runs `work` over 0..count-1 with at most `limit` in flight. */
async function pool(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** The event as the dispatcher will read it (after the same UTF-8 decoding and size bound as main.ts). */
function decode(testCase: StdinCase): { text: string; event: string | undefined } {
  if (testCase.bytes.length > MAX_STDIN_BYTES) return { text: '', event: undefined };
  const text = testCase.bytes.toString('utf8');
  return { text, event: parseHookInput(text)?.hook_event_name };
}

function describeCase(index: number, testCase: StdinCase): string {
  return `case ${index} (${testCase.kind}, ${testCase.bytes.length} B, seed ${SEED})`;
}

describe('dispatcher fuzz', () => {
  it(`${IN_PROCESS_CASES} generated payloads in-process: no throw, valid output, within budget`, async () => {
    const rng = createRng(SEED);
    const problems: string[] = [];
    const kinds = new Map<string, number>();
    let slowest = { ms: 0, label: '' };
    const started = performance.now();
    await pool(IN_PROCESS_CASES, CONCURRENCY, async (index) => {
      const testCase = generateCase(rng.fork(index), world);
      kinds.set(testCase.kind, (kinds.get(testCase.kind) ?? 0) + 1);
      const { text, event } = decode(testCase);
      const deps = createTestDeps({
        http: socketHttpTransport,
        env: world.env,
        homeDir: world.home,
        cwd: world.workspace,
        now: Date.now,
      });
      const budgetMs = (event === undefined ? undefined : routeFor(event)?.safetyMs) ?? 1_000;
      const caseStart = performance.now();
      let stdout: string;
      try {
        stdout = await dispatchHook(text, {
          routeFor,
          createDeps: () => deps,
          elapsedMs: () => performance.now() - caseStart,
        });
      } catch (error) {
        problems.push(`${describeCase(index, testCase)}: dispatchHook threw ${String(error)}`);
        return;
      }
      const ms = performance.now() - caseStart;
      if (ms > slowest.ms) slowest = { ms, label: describeCase(index, testCase) };
      const problem = outputProblem(stdout, event);
      if (problem !== undefined) problems.push(`${describeCase(index, testCase)}: ${problem}`);
      if (ms > budgetMs)
        problems.push(`${describeCase(index, testCase)}: took ${ms.toFixed(0)} ms, budget ${budgetMs} ms`);
      for (const line of deps.logged) {
        if (line.message.startsWith('stage failed') || line.message.startsWith('stage exceeded')) {
          problems.push(`${describeCase(index, testCase)}: ${line.message} ${JSON.stringify(line.fields)}`);
        }
      }
    });
    console.log(
      `[fuzz] in-process: ${IN_PROCESS_CASES} cases in ${((performance.now() - started) / 1000).toFixed(1)} s; slowest ${slowest.ms.toFixed(0)} ms (${slowest.label}); kinds ${JSON.stringify(Object.fromEntries(kinds))}; server saw ${world.server.requests().length} requests`,
    );
    expect(problems.slice(0, 20), `seed ${SEED}: ${problems.length} problem(s)`).toEqual([]);
    expect(world.server.requests().length, 'the valid cases reached the server').toBeGreaterThan(0);
  }, 240_000);

  it(`${BUNDLE_CASES} generated payloads through the real bundle: exit 0, valid output, inside the hook timeout`, async () => {
    const rng = createRng(SEED ^ 0x5bd1e995);
    const problems: string[] = [];
    const env = { ...world.env, CODEBUDDY_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_ROOT: plugin.root };
    await pool(BUNDLE_CASES, BUNDLE_CONCURRENCY, async (index) => {
      const testCase = generateCase(rng.fork(index), world);
      const { event } = decode(testCase);
      const run = await runProcess(process.execPath, [join(plugin.root, HOOK_ENTRY)], {
        stdin: testCase.bytes,
        env,
        cwd: world.workspace,
        timeoutMs: 20_000,
      });
      const label = describeCase(index, testCase);
      if (run.exitCode !== 0)
        problems.push(`${label}: exit ${String(run.exitCode)} ${String(run.signal)} ${run.stderr.slice(0, 200)}`);
      const problem = outputProblem(run.stdout, event);
      if (problem !== undefined) problems.push(`${label}: ${problem}`);
      const limitMs = hostTimeoutMs(event);
      if (run.durationMs > limitMs)
        problems.push(`${label}: took ${run.durationMs.toFixed(0)} ms (limit ${limitMs} ms)`);
    });
    expect(problems.slice(0, 20), `seed ${SEED}: ${problems.length} problem(s)`).toEqual([]);
  }, 240_000);
});
