/**
 * The hooks module on the real Claude Code CLI (D30, issue 23 item 7): a
 * scripted stream-json session of PROMPTS prompts (each recalls, reads a
 * local file, answers), run with the module on and with it off
 * (`OPENVIKING_MODULE=off`: the hook commands do everything), alternately.
 * Per event, from the CLI's debug log: the module's `settled in N ms` (the
 * worker hop and `next()` included) and our hook commands' `finished with
 * status 0 (N ms)` as the host logs them; the search's round trip as the
 * host's fetch logs it; and the session's wall time, spawn to exit.
 *
 * The recall's cost beside its round trip: the module's UserPromptSubmit
 * settle minus the longer of the search's round trip and our hook command
 * (which the host runs either way, stepping aside in its `sh`): the module
 * runs `next(e)`, and with it that command, beside the search, so the two
 * overlap and only the longer of them is the wait the module cannot shed.
 * Goal: ≤ 3 ms. The older formula (settle minus both: right while they
 * ran one after the other) is kept as a row without a goal, to compare
 * with runs of that time; with the two overlapped it subtracts their
 * overlap twice and flatters. A
 * guard allow: our PreToolUse command runs its prefilter with the module on
 * as with it off (no hand-off for the guard, D31), and the allowed call's
 * whole `tool.call`; nothing measurable is the goal.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAnthropicModel } from '../tests/e2e/support/anthropic-model.js';
import type { ModelCall } from '../tests/e2e/support/chat-types.js';
import { lastUserQuery, toolResults } from '../tests/e2e/support/chat-types.js';
import {
  claudeBinaryProblem,
  createClaudeSandbox,
  startClaudeStreamSession,
  type ClaudeCodeVersion,
} from '../tests/e2e/support/claude-cli.js';
import { copyShippedPlugin } from '../tests/e2e/support/marketplace.js';
import type { AnthropicModel } from '../tests/e2e/support/anthropic-model.js';
import { REPO_ROOT } from '../tests/support/spawn-hook.js';
import type { ResultRow } from './report.js';
import { formatMs } from './report.js';
import { median } from './stats.js';
import type { BenchWorld } from './world.js';

const VERSION: ClaudeCodeVersion = '2.1.332';
const PROMPTS = [
  'Which editor do I use for Rust?',
  'How do I like my tests written?',
  'What did we release after the editor migration?',
  'What is OpenViking to this plugin?',
];
type Mode = 'module' | 'off';

interface SessionTimes {
  wallMs: number;
  /** Per event: the module's settle times, our hook commands' times, the searches' round trips. */
  settled: Record<string, number[]>;
  hooks: Record<string, number[]>;
  searchMs: number[];
}

/** The numbers a debug log holds (see the header). */
export function timesOf(log: string, wallMs: number): SessionTimes {
  const times: SessionTimes = { wallMs, settled: {}, hooks: {}, searchMs: [] };
  const push = (into: Record<string, number[]>, key: string, value: number) => (into[key] ??= []).push(value);
  let searching = false;
  for (const line of log.split('\n')) {
    const settled = /hooks module openviking@inline (\S+) settled in ([\d.]+)ms/.exec(line);
    if (settled) push(times.settled, settled[1] as string, Number(settled[2]));
    const hook = /Hooks: (\w+)(?::\w+)? \[.*\] \(plugin openviking@inline\) finished with status 0 \((\d+)ms\)/.exec(
      line,
    );
    if (hook) push(times.hooks, hook[1] as string, Number(hook[2]));
    if (/\$\.http\.fetch \(openviking\): POST \S+\/api\/v1\/search\/search/.test(line)) searching = true;
    const answered = /\$\.http\.fetch \(openviking\): \d+ in (\d+)ms/.exec(line);
    if (answered && searching) {
      times.searchMs.push(Number(answered[1]));
      searching = false;
    }
  }
  return times;
}

/** The model's side: each prompt reads notes.txt, then answers. */
function script(workspace: string) {
  return (call: ModelCall) => {
    if (call.purpose !== 'conversation') return undefined;
    if (!PROMPTS.some((prompt) => lastUserQuery(call).includes(prompt))) return undefined;
    return toolResults(call).length === 0
      ? { toolCalls: [{ name: 'Read', args: { file_path: join(workspace, 'notes.txt') } }] }
      : { text: 'BENCH-ANSWER' };
  };
}

async function oneSession(world: BenchWorld, plugin: string, mode: Mode, model: AnthropicModel): Promise<SessionTimes> {
  const sandbox = createClaudeSandbox({ modelBaseUrl: model.baseUrl, version: VERSION, label: `bench-${mode}` });
  model.setScript(script(sandbox.workspace));
  try {
    writeFileSync(join(sandbox.workspace, 'notes.txt'), 'bench notes\n');
    const log = join(sandbox.root, 'debug.txt');
    const started = performance.now();
    const session = startClaudeStreamSession(sandbox, {
      pluginDirs: [plugin],
      env: {
        OPENVIKING_URL: world.server.url,
        OPENVIKING_RESIDENT: 'off',
        MCP_TIMEOUT: '5000',
        ...(mode === 'off' ? { OPENVIKING_MODULE: 'off' } : {}),
      },
      allowedTools: ['Read'],
      args: ['--debug-file', log],
    });
    for (const prompt of PROMPTS) await session.send(prompt);
    await session.close();
    return timesOf(readFileSync(log, 'utf8'), performance.now() - started);
  } finally {
    sandbox.dispose();
  }
}

/** The module rows: `pairs` sessions a side, alternating. */
export async function measureModule(world: BenchWorld, pairs: number): Promise<ResultRow[]> {
  const problem = claudeBinaryProblem(VERSION, (bin) =>
    spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 }),
  );
  if (problem !== '')
    return [{ name: `Claude Code ${VERSION}: hooks module`, value: 'n/a', note: problem.split('\n')[0] ?? '' }];
  // The shipped plugin's manifests and files, with the bench's private copy of the built bundles.
  const plugin = mkdtempSync(join(tmpdir(), 'ov-bench-plugin-'));
  copyShippedPlugin(REPO_ROOT, plugin);
  for (const dir of ['scripts', 'servers', 'hooks'])
    cpSync(join(world.pluginRoot, dir), join(plugin, dir), { recursive: true });
  const model = await startAnthropicModel({});
  const sides: Record<Mode, SessionTimes[]> = { module: [], off: [] };
  try {
    for (let pair = 0; pair < pairs; pair++) {
      for (const mode of ['module', 'off'] as const) sides[mode].push(await oneSession(world, plugin, mode, model));
    }
  } finally {
    await model.close();
    rmSync(plugin, { recursive: true, force: true });
  }
  return moduleRows(sides);
}

function all(
  sessions: readonly SessionTimes[],
  pick: (times: SessionTimes) => readonly number[] | undefined,
): number[] {
  return sessions.flatMap((times) => [...(pick(times) ?? [])]);
}

/** The rows of both sides, each measurement beside its shell counterpart. */
export function moduleRows(sides: Record<Mode, SessionTimes[]>): ResultRow[] {
  const on = sides.module;
  const off = sides.off;
  const row = (
    name: string,
    value: number,
    baseline: number,
    note: string,
    target?: ResultRow['target'],
    measured?: number,
    measuredLabel?: string,
  ): ResultRow => ({
    name: `Claude Code ${VERSION}: ${name}`,
    value: formatMs(value),
    baseline: `${formatMs(baseline)} off`,
    ...(measured !== undefined
      ? { measured, measuredLabel: measuredLabel ?? formatMs(measured) }
      : { measuredLabel: `${value - baseline >= 0 ? '+' : ''}${(value - baseline).toFixed(1)} ms` }),
    ...(target !== undefined ? { target } : {}),
    note,
  });
  // Per prompt (prompts, our commands and searches pair in order within a session): settle − the longer of our
  // step-aside command and the search's round trip (they run side by side); and the sum formula, for comparison.
  const perPrompt = (rest: (stepAside: number, search: number) => number) =>
    on.flatMap((times) =>
      (times.settled['classic.UserPromptSubmit'] ?? []).map(
        (ms, n) => ms - rest(times.hooks['UserPromptSubmit']?.[n] ?? 0, times.searchMs[n] ?? 0),
      ),
    );
  const beside = perPrompt((stepAside, search) => Math.max(stepAside, search));
  const besideSum = perPrompt((stepAside, search) => stepAside + search);
  const ups = (times: SessionTimes) => times.settled['classic.UserPromptSubmit'];
  return [
    row(
      'UserPromptSubmit, recall (module settle vs module off)',
      median(all(on, ups)),
      median(all(off, ups)),
      `${PROMPTS.length} prompts × ${on.length} sessions a side; off = our node hook inside the settle`,
    ),
    row(
      'recall beside its round trip (settle − max(step-aside, search))',
      median(beside),
      median(all(on, (times) => times.searchMs)),
      'baseline column: the search round trip as the host fetch logs it; the two run side by side',
      { limit: 3, label: '≤ +3 ms' },
      median(beside),
    ),
    row(
      'recall, sum formula (settle − step-aside − search)',
      median(besideSum),
      median(all(on, (times) => times.searchMs)),
      'for comparison with runs before the two overlapped; flatters once they do',
      undefined,
      median(besideSum),
    ),
    row(
      'our UserPromptSubmit command (step-aside sh vs node)',
      median(all(on, (times) => times.hooks['UserPromptSubmit'])),
      median(all(off, (times) => times.hooks['UserPromptSubmit'])),
      'as the host logs it',
    ),
    row(
      'SessionStart (module settle vs module off)',
      median(all(on, (times) => times.settled['classic.SessionStart'])),
      median(all(off, (times) => times.settled['classic.SessionStart'])),
      'module: plan, then reads beside our command, which hands its housekeeping to the detacher',
    ),
    row(
      'our PreToolUse:Read, an allowed Read (its prefilter, module on vs off)',
      median(all(on, (times) => times.hooks['PreToolUse'])),
      median(all(off, (times) => times.hooks['PreToolUse'])),
      'as the host logs it; no hand-off for the guard (D31)',
    ),
    row(
      'tool.call Read, allowed (settle, hooks and the Read included)',
      median(all(on, (times) => times.settled['tool.call'])),
      median(all(off, (times) => times.settled['tool.call'])),
      '',
    ),
    row(
      'our Stop command (sh detach.sh)',
      median(all(on, (times) => times.hooks['Stop'])),
      median(all(off, (times) => times.hooks['Stop'])),
      'capture stays detached (D30)',
    ),
    row(
      'a scripted session, spawn to exit',
      median(on.map((times) => times.wallMs)),
      median(off.map((times) => times.wallMs)),
      `${PROMPTS.length} prompts, one Read each`,
    ),
  ];
}
