/**
 * Recall quality cannot silently fall (issue 38 item 5, D43): the recall
 * benchmark's own code (bench/recall/bench.ts) on a subset of its corpus
 * (`suiteSubset`, every third prompt), through the BUILT hook as the host
 * runs it, against the real OpenViking 0.5.2 with the real embedding model
 * (all-MiniLM-L6-v2, bench/recall/embed_server.py) — the shared servers of
 * this suite embed hashed words, so this file starts a stack of its own.
 * Floors: hit@3 over the prompts with an answer, no injection on most
 * prompts that have none, and never another project's memory.
 *
 * The embedding venv comes from `scripts/dev/recall-embed.sh install`
 * (.ci/run installs it beside the server); without it the file is skipped
 * on a developer's machine and FAILS under CI=true, where a missing install
 * is a broken run, not a reason to measure nothing.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRecallBench, suiteSubset, type SystemResult } from '../../bench/recall/bench.js';
import { loadCorpus } from '../../bench/recall/corpus/corpus.js';
import { EMBED_INSTALL_COMMAND, EMBED_PYTHON } from '../../bench/recall/embedEndpoint.js';

/**
 * The floors, just under what the benchmark's code measured on this subset
 * (D43): of its 89 prompts, 68 have an answer and 54 of those (79.4%) got
 * one among the first three memories; 11 of the 21 that none answers
 * (52.4%) got a block (the unanchored gate and the live-value skip; 100%
 * before the gates of D43). The full benchmark: bench/RESULTS.md.
 */
export const FLOORS = { hit3: 0.75, maxNoneInjection: 0.6, maxCrossProject: 0 };

/**
 * The whole run: the server and the model start, 172 memories are written and
 * indexed, 89 prompts go through the hook. About 80 s alone on 2 cores; `npm
 * test` runs this suite beside the unit suite (scripts/dev/unit-and-real.sh),
 * where clean-clone runs took 124-196 s. A bound for a hung stack, not a
 * speed test: the benchmark measures time per prompt.
 */
const RUN_MS = 480_000;

const installed = existsSync(EMBED_PYTHON);
const inCi = process.env.CI === 'true';

describe.skipIf(!installed && !inCi)('recall quality on the real server with real embeddings', () => {
  let ours: SystemResult;

  beforeAll(async () => {
    if (!installed) throw new Error(`CI=true and the embedding model is not installed: ${EMBED_INSTALL_COMMAND}`);
    const corpus = loadCorpus();
    const run = await runRecallBench({
      corpus,
      systems: ['ours'],
      prompts: suiteSubset(corpus),
      // What is measured here is what recall finds, not how fast it finds it beside the unit suite
      // on 2 cores: past the default 2 s deadline a prompt gets nothing and would count as a miss.
      // The deadline itself is proven by tests/stages/prompt; time per prompt by the benchmark.
      oursEnv: { OPENVIKING_PROMPT_DEADLINE_MS: '10000' },
    });
    ours = run.results[0]!;
    // The prompts' queries really went through the model (not the fake's hashed words); a prompt
    // skipped before any search (small talk, a live value: no memory answers those) sends none.
    const answered = suiteSubset(corpus).filter((prompt) => prompt.answers.length > 0);
    expect(run.stack.queryEmbeds).toBeGreaterThanOrEqual(answered.length);
  }, RUN_MS);

  it('puts an answer among the first three memories often enough', () => {
    expect(ours.scores.all.withAnswers).toBeGreaterThan(0);
    expect(ours.scores.all.hit3, summary(ours)).toBeGreaterThanOrEqual(FLOORS.hit3);
  });

  it('injects nothing for most prompts that no memory answers', () => {
    expect(ours.scores.all.noneInjection, summary(ours)).toBeLessThanOrEqual(FLOORS.maxNoneInjection);
  });

  it("never injects another project's memory", () => {
    expect(ours.scores.all.crossProject, summary(ours)).toBeLessThanOrEqual(FLOORS.maxCrossProject);
  });
});

function summary(result: SystemResult): string {
  return JSON.stringify(result.scores.all);
}
