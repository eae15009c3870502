/**
 * One run of the recall benchmark: the stack up (stack.ts), then every
 * system over the same prompts, one prompt at a time (the machine has two
 * cores; a system's time per prompt is measured alone), then the scores
 * (metrics.ts). `npm run bench:recall` (run.ts) runs all of it; the suite's
 * small version (tests/real/recall-quality.real.test.ts) runs a subset of
 * the prompts through the plugin alone, with the same code.
 *
 * The systems: `ours` (this checkout's built hook), `baseline-a2edc5b` (the
 * plugin's recall when issue 38 began: that commit's bundle, checked out and
 * built under bench/.work/) and `openviking-claude-code-0.4.4` (the peer's
 * strategy, peerBaseline.ts).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tests/support/real-server/install.js';
import type { Corpus, Prompt } from './corpus/corpus.js';
import { bySplit, type Outcome, type Scores, type Split } from './metrics.js';
import { peerPluginSystem } from './peerBaseline.js';
import { pluginHookSystem, type RecallSystem } from './pluginHook.js';
import { startRecallStack, type RecallStack } from './stack.js';

/** The commit whose recall is baseline (a): main when issue 38 began. */
export const BASELINE_COMMIT = 'a2edc5b';

export type SystemName = 'ours' | 'baseline-a2edc5b' | 'openviking-claude-code-0.4.4';
export const ALL_SYSTEMS: readonly SystemName[] = ['ours', 'baseline-a2edc5b', 'openviking-claude-code-0.4.4'];

export interface SystemResult {
  system: string;
  outcomes: Outcome[];
  scores: Record<Split, Scores>;
}

export interface BenchRun {
  results: SystemResult[];
  stack: { loadMs: number; memories: number; embedRequests: number; queryEmbeds: number; serverVersion: string };
}

export interface BenchOptions {
  corpus: Corpus;
  systems: readonly SystemName[];
  /** The prompts to run (default: all). */
  prompts?: readonly Prompt[];
  /** Environment for our hook (to measure a knob). */
  oursEnv?: Record<string, string>;
  log?: (line: string) => void;
}

export const WORK_ROOT = join(REPO_ROOT, 'bench', '.work');

/** The baseline commit's plugin, checked out into bench/.work/ and built there (reused while it is there). */
export function baselinePluginRoot(log: (line: string) => void = () => undefined): string {
  const root = join(WORK_ROOT, `plugin-${BASELINE_COMMIT}`);
  if (!existsSync(join(root, 'scripts', 'hook.cjs'))) {
    mkdirSync(WORK_ROOT, { recursive: true });
    if (existsSync(root)) execFileSync('git', ['-C', REPO_ROOT, 'worktree', 'remove', '--force', root]);
    log(`checking out ${BASELINE_COMMIT} into ${root} and building it`);
    execFileSync('git', ['-C', REPO_ROOT, 'worktree', 'add', '--detach', root, BASELINE_COMMIT], { stdio: 'ignore' });
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }
  return root;
}

function makeSystem(
  name: SystemName,
  stack: RecallStack,
  corpus: Corpus,
  runDir: string,
  options: BenchOptions,
): RecallSystem {
  const common = {
    workDir: join(runDir, name),
    serverUrl: stack.server.url,
    user: stack.user,
    projects: corpus.projects,
  };
  switch (name) {
    case 'ours':
      return pluginHookSystem({ ...common, name, pluginRoot: REPO_ROOT, env: options.oursEnv ?? {} });
    case 'baseline-a2edc5b':
      return pluginHookSystem({ ...common, name, pluginRoot: baselinePluginRoot(options.log) });
    case 'openviking-claude-code-0.4.4':
      return peerPluginSystem(stack.server.url, stack.user, corpus.projects);
  }
}

export async function runRecallBench(options: BenchOptions): Promise<BenchRun> {
  const log = options.log ?? (() => undefined);
  const { corpus } = options;
  const prompts = options.prompts ?? corpus.prompts;
  const runDir = join(WORK_ROOT, `recall-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const stack = await startRecallStack(corpus, join(runDir, 'stack'));
  log(
    `openviking-server ${stack.server.version} at ${stack.server.url}, embeddings ${stack.embed.endpoint.apiBase}; ${corpus.memories.length} memories loaded in ${stack.loadMs} ms`,
  );
  const lookup = {
    idByUri: stack.idByUri,
    peerOf: new Map(corpus.projects.map((project) => [project.name, project.peer])),
  };
  try {
    const results: SystemResult[] = [];
    for (const name of options.systems) {
      const system = makeSystem(name, stack, corpus, runDir, options);
      try {
        await system.warmUp(prompts[0]?.project ?? corpus.projects[0]!.name);
        const outcomes: Outcome[] = [];
        for (const prompt of prompts) outcomes.push({ prompt, injection: await system.recall(prompt) });
        const problems = outcomes.filter((outcome) => outcome.injection.problem !== undefined);
        for (const outcome of problems.slice(0, 3)) log(`${name} ${outcome.prompt.id}: ${outcome.injection.problem}`);
        results.push({ system: name, outcomes, scores: bySplit(outcomes, lookup) });
        log(`${name}: ${prompts.length} prompts`);
      } finally {
        await system.dispose();
      }
    }
    const embeds = stack.embed.requests();
    // What the endpoint logged of each input is its start: a prompt's own words, or (a follow-up's query, D43) its recent user turn's.
    const starts = prompts.flatMap((prompt) => [prompt.prompt, ...(prompt.recent ?? []).map((turn) => turn.text)]);
    const queryEmbeds = embeds.filter((entry) =>
      starts.some((start) => entry.first !== '' && start.trim().startsWith(entry.first.trim().slice(0, 60))),
    ).length;
    return {
      results,
      stack: {
        loadMs: stack.loadMs,
        memories: corpus.memories.length,
        embedRequests: embeds.length,
        queryEmbeds,
        serverVersion: stack.server.version,
      },
    };
  } finally {
    await stack.stop();
    if (process.env.OPENVIKING_KEEP_WORKSPACE !== '1') rmSync(runDir, { recursive: true, force: true });
  }
}

/** The prompts the suite's small version runs (tests/real/recall-quality): every third of the corpus, so every type, the ones no memory answers too. */
export function suiteSubset(corpus: Corpus): Prompt[] {
  return corpus.prompts.filter((_, index) => index % 3 === 0);
}
