/**
 * Hook-path benchmarks: for each event the plugin answers, the median wall
 * time of the exact hooks.json command (through `$SHELL -c`, like the host)
 * interleaved with a bare `node -e 0` through the same shell, the ratio, the
 * requests the path made (test server log) and its peak RSS.
 *
 * @module
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { vmHwmKb } from '../tests/faults/support/procfs.js';
import { turnMarker, writeTranscriptOfSize } from '../tests/faults/support/turns.js';
import { residentPids, stopResidents } from '../tests/support/detached.js';
import { residentsListening } from '../tests/support/resident.js';
import { peakRssKb, timedRun } from './process.js';
import type { Command } from './process.js';
import { formatMs, formatRatio } from './report.js';
import type { ResultRow, Target } from './report.js';
import { interleave, median, ratioOf } from './stats.js';
import { resolveDataDir } from '../src/store/paths.js';
import type { BenchWorld } from './world.js';
import { markerStored, waitForWorkersGone } from './workers.js';

export interface HookPath {
  name: string;
  event: string;
  toolName?: string;
  /** The payload; a function gives each run its own (a prompt in a fresh session, so the server's dedup never empties the recall). */
  stdin: string | (() => string);
  target?: Target;
  note?: string;
  /** Runs once before measuring (e.g. the capture that brings the cursor to the end). */
  prepare?: () => Promise<void>;
  /** A reference row: this command through the host's shell instead of the event's hooks.json command. */
  shellCommand?: string;
  /** Extra environment for this row's hook runs only. */
  env?: Record<string, string>;
  /** Runs before each measured run, untimed (e.g. stopping the resident so each run starts one). */
  beforeEachRun?: () => Promise<void>;
}

const RSS_RUNS = 3;
const WORKER_SETTLE_MS = 120_000;

export const TARGETS = {
  guardAllow: { limit: 0.15, label: '≤ 0.15×' },
  guardDeny: { limit: 1.1, label: '≤ 1.10×' },
  noop: { limit: 1.1, label: '≤ 1.10×' },
  prompt: { limit: 1.25, label: '≤ 1.25×' },
  start: { limit: 1.35, label: '≤ 1.35×' },
  stop: { limit: 1.2, label: '≤ 1.20×' },
} satisfies Record<string, Target>;

/** Transcript sizes of the Stop rows (and of the capture-cost rows). */
export const TRANSCRIPT_SIZES = [
  { label: '50 KB', bytes: 50 * 1024 },
  { label: '5 MB', bytes: 5 * 1024 * 1024 },
  { label: '50 MB', bytes: 50 * 1024 * 1024 },
] as const;

/** Each user text is padded so a 50 MB transcript stays a few thousand turns. */
export const TURN_PAD_CHARS = 4_000;

/**
 * Reference rows, no target: what any hook path here costs at least. An
 * empty CommonJS file is the floor of `node scripts/hook.cjs` (D38: an ES
 * entry would add node's ESM loader, ~0.1×), and `exec /bin/true` the
 * floor of any prefilter that is a program (the host's shell plus one exec).
 */
export function floorPaths(world: BenchWorld): HookPath[] {
  const emptyModule = join(world.home, 'empty.cjs');
  const json = (value: unknown): string => JSON.stringify(value);
  return [
    {
      name: 'floor: an empty .cjs file',
      event: 'Notification',
      stdin: json({ ...world.payloads.stop('done'), hook_event_name: 'Notification', message: 'idle' }),
      shellCommand: `node "${emptyModule}"`,
      prepare: () => writeFile(emptyModule, ''),
      note: 'what the CommonJS hook entry costs before any of its code runs',
    },
    {
      name: 'floor: $SHELL -c "exec /bin/true"',
      event: 'PreToolUse',
      stdin: json(world.payloads.preToolUse('Read', { file_path: join(world.workspace, 'src', 'index.ts') })),
      shellCommand: 'exec /bin/true',
      note: 'what any prefilter program costs before it reads a byte',
    },
  ];
}

/** The paths that need no transcript. */
export function basicPaths(world: BenchWorld): HookPath[] {
  const p = world.payloads;
  const json = (value: unknown): string => JSON.stringify(value);
  const recallPrompt = () => json(world.freshSession().userPromptSubmit(RECALL_PROMPT, 2));
  const dataDir = resolveDataDir(world.env, world.home);
  return [
    {
      name: 'guard allow (prefilter, no node)',
      event: 'PreToolUse',
      toolName: 'Read',
      stdin: json(p.preToolUse('Read', { file_path: join(world.workspace, 'src', 'index.ts') })),
      target: TARGETS.guardAllow,
    },
    {
      name: 'guard deny (prefilter → node)',
      event: 'PreToolUse',
      toolName: 'Read',
      stdin: json(p.preToolUse('Read', { file_path: 'viking://user/default/memories/preferences/bench/editor.md' })),
      target: TARGETS.guardDeny,
    },
    {
      name: 'dispatcher no-op (unrouted event)',
      // PreCompact's command is the plain `node hook.cjs` line (the prompt's is relay.sh since D45).
      event: 'PreCompact',
      stdin: json({ ...p.stop('done'), hook_event_name: 'Notification', message: 'idle' }),
      target: TARGETS.noop,
      note: 'Notification payload through the `node hook.cjs` command line: parse, no route, exit',
    },
    {
      name: 'SessionStart (startup)',
      event: 'SessionStart',
      stdin: json(p.sessionStart('startup')),
      target: TARGETS.start,
    },
    {
      name: 'UserPromptSubmit (recall hit)',
      event: 'UserPromptSubmit',
      stdin: recallPrompt,
      target: TARGETS.prompt,
      // As in a session: SessionStart (or the first prompt) has started the resident by now.
      prepare: async () => {
        await timedRun(world.hookCommand('SessionStart', json(p.sessionStart('startup'))));
        await residentsListening(dataDir);
        await expectRecallBlock(world, recallPrompt());
      },
      note: 'answered by the resident helper (DESIGN D16) through its door (D45: no node), started by a session start before the row; a fresh session each run, so each is a hit',
    },
    {
      name: 'UserPromptSubmit, resident without a door yet (node relays, opens one)',
      event: 'UserPromptSubmit',
      stdin: recallPrompt,
      beforeEachRun: async () => {
        const residentDir = join(dataDir, 'resident');
        for (const name of await readdir(residentDir))
          if (name.startsWith('door-')) await rm(join(residentDir, name), { force: true });
      },
      note: 'reference: the first hook of an environment (relay.sh, then `node hook.cjs door`, the FIFO relay of D16)',
    },
    {
      name: 'UserPromptSubmit, no resident yet (recall in the hook, starts one)',
      event: 'UserPromptSubmit',
      stdin: recallPrompt,
      beforeEachRun: async () => {
        await stopResidents(world.home);
        await rm(join(dataDir, 'resident'), { recursive: true, force: true });
      },
      note: 'reference: the first prompt after 15 idle minutes when no session start came before it',
    },
    {
      name: 'UserPromptSubmit, resident off (recall in the hook)',
      event: 'UserPromptSubmit',
      stdin: recallPrompt,
      env: { OPENVIKING_RESIDENT: 'off' },
      note: 'reference: OPENVIKING_RESIDENT=off, and every prompt on Windows',
    },
    {
      name: 'SubagentStart',
      event: 'SubagentStart',
      stdin: json(p.subagentStart('agent-bench')),
      note: 'bookkeeping only; no target',
    },
  ];
}

/**
 * The resident helpers the rows above left running: how many, and the
 * largest peak RSS among them (they serve prompts while the bench runs).
 */
export async function residentRow(world: BenchWorld): Promise<ResultRow> {
  const pids = residentPids(world.home);
  const peaks = (await Promise.all(pids.map((pid) => vmHwmKb(pid)))).filter((kb): kb is number => kb !== undefined);
  const row: ResultRow = {
    name: 'resident helper (after the rows above)',
    value: `${pids.length} running`,
    note: 'one per configuration; leaves after 15 idle minutes',
  };
  if (peaks.length > 0) row.peakRssKb = Math.max(...peaks);
  return row;
}

/** Stop at each transcript size, then SubagentStop and PreCompact on the 50 KB transcript. */
export function capturePaths(world: BenchWorld): HookPath[] {
  const p = world.payloads;
  const paths: HookPath[] = [];
  for (const size of TRANSCRIPT_SIZES) {
    const prepare = async (): Promise<void> => {
      const turns = writeTranscriptOfSize(p.transcriptPath, 'bench', size.bytes, {
        sessionId: p.sessionId,
        cwd: world.workspace,
        padChars: TURN_PAD_CHARS,
      });
      await catchUp(world, JSON.stringify(p.stop('done')), () =>
        markerStored(world.server, turnMarker('bench', turns, 'assistant')),
      );
    };
    paths.push({
      name: `Stop (${size.label} transcript)`,
      event: 'Stop',
      stdin: JSON.stringify(p.stop('done')),
      target: TARGETS.stop,
      prepare,
    });
  }
  const agentPath = p.subagentTranscriptPath('agent-bench');
  paths.push({
    name: 'SubagentStop (50 KB transcript)',
    event: 'SubagentStop',
    stdin: JSON.stringify(p.subagentStop('agent-bench', { agent_transcript_path: agentPath })),
    target: TARGETS.stop,
    prepare: async () => {
      writeTranscriptOfSize(agentPath, 'bench-agent', 50 * 1024, {
        sessionId: p.sessionId,
        cwd: world.workspace,
        padChars: TURN_PAD_CHARS,
      });
      await catchUp(world, JSON.stringify(p.subagentStop('agent-bench', { agent_transcript_path: agentPath })));
    },
  });
  paths.push({
    name: 'PreCompact (50 MB transcript, nothing new)',
    event: 'PreCompact',
    stdin: JSON.stringify(p.preCompact('auto')),
    note: 'synchronous capture; no target',
  });
  return paths;
}

/** The prompt of the recall rows: the bench world's seeded memories answer it (world.ts). */
const RECALL_PROMPT = 'which editor and keymap do I use for Rust work?';

/** A "recall hit" row measures a hit: one run first, which must inject a block. */
async function expectRecallBlock(world: BenchWorld, stdin: string): Promise<void> {
  const run = await timedRun(world.hookCommand('UserPromptSubmit', stdin));
  if (!run.stdout.includes('<openviking-context'))
    throw new Error(`the recall row's prompt injected no block: ${run.stdout.slice(0, 200) || '(no output)'}`);
}

/** Stops (each waited for) until `done()` says capture reached the end (a worker stops at its own deadline); one when no check is given. */
export async function catchUp(
  world: BenchWorld,
  stdin: string,
  done: () => boolean = () => true,
  maxStops = 20,
): Promise<void> {
  for (let stop = 0; stop < maxStops; stop++) {
    await timedRun(world.hookCommand('Stop', stdin));
    await waitForWorkersGone(world.pluginRoot, WORKER_SETTLE_MS);
    if (done()) return;
  }
}

/** Peak RSS over RSS_RUNS runs, each after the path's own preparation and with its own command. */
async function peakRssOf(next: () => Command, beforeEachRun?: () => Promise<void>): Promise<number | undefined> {
  let peak: number | undefined;
  for (let run = 0; run < RSS_RUNS; run++) {
    await beforeEachRun?.();
    const kb = await peakRssKb(next(), 1);
    if (kb !== undefined) peak = Math.max(peak ?? 0, kb);
  }
  return peak;
}

/** The command of one run of `path` (its own payload when `path.stdin` is a function). */
function commandOf(world: BenchWorld, path: HookPath): Command {
  const stdin = typeof path.stdin === 'string' ? path.stdin : path.stdin();
  const base: Command =
    path.shellCommand === undefined
      ? world.hookCommand(path.event, stdin, path.toolName)
      : { ...world.bareNode(), args: ['-c', path.shellCommand], stdin };
  return path.env === undefined ? base : { ...base, env: { ...base.env, ...path.env } };
}

/** Measures one path: interleaved timing, requests per run, peak RSS. */
export async function measurePath(world: BenchWorld, path: HookPath, pairs: number): Promise<ResultRow> {
  await path.prepare?.();
  const bare = world.bareNode();
  const requestsBefore = world.server.requests().length;
  const runPath = async (): Promise<number> => {
    await path.beforeEachRun?.();
    const run = await timedRun(commandOf(world, path));
    // Background workers must not slow the next sample; waiting is not timed.
    await waitForWorkersGone(world.pluginRoot, WORKER_SETTLE_MS);
    return run.ms;
  };
  const samples = await interleave(pairs, async () => (await timedRun(bare)).ms, runPath);
  const requests = (world.server.requests().length - requestsBefore) / pairs;
  const rss = await peakRssOf(() => commandOf(world, path), path.beforeEachRun);
  await waitForWorkersGone(world.pluginRoot, WORKER_SETTLE_MS);
  const ratio = ratioOf(samples);
  const row: ResultRow = {
    name: path.name,
    value: formatMs(median(samples.pathMs)),
    baseline: formatMs(median(samples.bareMs)),
    measured: ratio,
    measuredLabel: formatRatio(ratio),
    requests: requests.toFixed(1),
  };
  if (path.target !== undefined) row.target = path.target;
  if (rss !== undefined) row.peakRssKb = rss;
  if (path.note !== undefined) row.note = path.note;
  return row;
}
