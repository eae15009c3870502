/**
 * `npm run bench:recall`: the recall-quality benchmark (bench.ts) over the
 * whole corpus, for ours and both baselines. Prints a table (per system and
 * split) and one JSON line `{"recallBench": …}`; `--write` puts the table
 * and the command into bench/RESULTS.md's recall section.
 *
 *   npm run bench:recall [-- --corpus DIR] [--systems ours,baseline-a2edc5b,…] [--split tune] [--write]
 *                        [--outcomes FILE]
 *
 * `--outcomes FILE` writes one JSON line per system and prompt (the prompt's
 * id, split, type and answers, the URIs injected in order): which prompts a
 * change won or lost, not only how many.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { uptime, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import buildBeforeTest from '../../tests/support/build-before-test.js';
import { REPO_ROOT } from '../../tests/support/real-server/install.js';
import { ALL_SYSTEMS, runRecallBench, type SystemName } from './bench.js';
import { CORPUS_DIR, loadCorpus } from './corpus/corpus.js';
import { table } from './metrics.js';
import { writeRecallResults } from './results.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      systems: { type: 'string' },
      split: { type: 'string' },
      env: { type: 'string', multiple: true },
      write: { type: 'boolean', default: false },
      outcomes: { type: 'string' },
    },
  });
  const corpusDir = values.corpus ?? CORPUS_DIR;
  const corpus = loadCorpus(corpusDir);
  const systems = (values.systems?.split(',') ?? ALL_SYSTEMS) as SystemName[];
  for (const system of systems) if (!ALL_SYSTEMS.includes(system)) throw new Error(`unknown system ${system}`);
  const prompts = values.split ? corpus.prompts.filter((prompt) => prompt.split === values.split) : corpus.prompts;
  const oursEnv = Object.fromEntries(
    (values.env ?? []).map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  await buildBeforeTest();
  const load = loadavg()[0]!.toFixed(2);
  const run = await runRecallBench({
    corpus,
    systems,
    prompts,
    oursEnv,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const text = table(run.results.map(({ system, scores }) => ({ system, scores })));
  process.stdout.write(`${text}\n\n`);
  process.stdout.write(
    `corpus ${corpusDir.replace(REPO_ROOT, '')}: ${corpus.memories.length} memories, ${prompts.length} prompts, ${corpus.projects.length} projects; ` +
      `${run.stack.embedRequests} requests to the embedding model (${run.stack.queryEmbeds} of them a prompt's query); load average ${load} at the start (up ${Math.round(uptime() / 60)} min)\n`,
  );
  const json = {
    recallBench: {
      corpus: corpusDir.replace(REPO_ROOT, ''),
      server: run.stack.serverVersion,
      model: 'all-MiniLM-L6-v2',
      env: oursEnv,
      load: Number(load),
      systems: Object.fromEntries(run.results.map(({ system, scores }) => [system, scores])),
    },
  };
  process.stdout.write(`${JSON.stringify(json)}\n`);
  if (values.outcomes !== undefined) writeFileSync(values.outcomes, outcomeLines(run.results), { mode: 0o600 });
  if (values.write) writeRecallResults(text, json, corpusDir.replace(REPO_ROOT, ''), corpus, prompts.length, load);
}

/** Each system's outcome per prompt, a JSON line each (`--outcomes`). */
function outcomeLines(results: Awaited<ReturnType<typeof runRecallBench>>['results']): string {
  return results
    .flatMap(({ system, outcomes }) =>
      outcomes.map(({ prompt, injection }) =>
        JSON.stringify({
          system,
          id: prompt.id,
          split: prompt.split,
          type: prompt.type,
          answers: prompt.answers,
          injected: injection.uris,
          chars: injection.chars,
        }),
      ),
    )
    .map((line) => `${line}\n`)
    .join('');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
