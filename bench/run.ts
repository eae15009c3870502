/**
 * `npm run bench`: every benchmark of the plugin in one command. Prints the
 * table and writes bench/RESULTS.md (Node version, CPU count, date). Not
 * part of `npm test`: it takes minutes and its numbers are for people.
 *
 * Needs a fresh build (`npm run build`); it measures a private copy of the
 * built scripts/, servers/ and hooks/ (`--plugin-root <dir>` takes them from
 * another build). Options: `--pairs N` (default 20),
 * `--quick` (5 pairs, for a smoke run), `--only <text>` (measurements whose
 * name contains it), `--help` (this list); RESULTS.md is written by a full
 * run, and by `--only <text> --write`, which replaces only the rows it
 * measured (a full run keeps its hand-kept before/after section).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../tests/support/spawn-hook.js';
import { measureCapture } from './capture.js';
import { basicPaths, capturePaths, floorPaths, measurePath, residentRow } from './hookPaths.js';
import { measureMcp } from './mcp.js';
import { measureModule } from './module.js';
import { measureStartHistory } from './startHistory.js';
import { measureImport } from './import.js';
import { mergeResults, renderResults, renderTable, runInfo, writeResults } from './report.js';
import type { ResultRow } from './report.js';
import { createBenchWorld } from './world.js';

const METHOD = [
  'The plugin is a private copy of the built scripts/, servers/ and hooks/ (`npm run build`), so its detached workers can be told apart by path.',
  'Hook paths run the exact hooks.json command through `/bin/bash -c` (what CodeBuddy does), timed from spawn until exit and closed pipes; the baseline is `/bin/bash -c "node -e 0"` with the same environment, run alternately (bare, path, bare, path, …). Ratio = median(path) / median(bare).',
  'Detached capture workers are waited for after each Stop-like sample, outside the timed window, so one sample’s background work does not slow the next.',
  'Requests/run comes from the OpenViking test server’s request log over all samples of the path (background workers included).',
  'Peak RSS: the largest of 3 extra runs under GNU `time -f %M` (the hook and every process it waited for; detached workers excluded); for capture rows it is the worker’s own `process.resourceUsage().maxRSS`, from its debug-log line (debug log on for those runs only).',
  'Capture cost: a fresh session per size; the transcript is written and caught up once (not timed), then one turn is appended and the time from the Stop spawn until the server stores the new turn is measured.',
  'MCP: `servers/mcp-proxy.mjs` against the test server’s `/mcp` (SSE replies); per-call overhead = median through the proxy − median direct POST, interleaved.',
  'Import: a history of past sessions (half CodeBuddy, half Claude Code, 4 turns each, two hours old) written under a HOME of its own per size, imported by the private copy’s `node scripts/hook.mjs import` under GNU `time` (one run: wall time and peak RSS); run again on the same history, which must send nothing. Writes = POSTs to messages, batch and commit and PATCHes of the session config, from the server’s log.',
  'Hooks module: the real Claude Code 2.1.332 CLI, stream-json sessions of 4 prompts (each recalls, reads a file, answers) with the module on and off (`OPENVIKING_MODULE=off`), alternately; times from the CLI’s debug log (`settled in N ms`, `finished with status 0 (N ms)`, the fetch’s `200 in N ms`), medians over every event of the sessions; the baseline column is the module-off session.',
  'The machine is shared with other jobs; medians of interleaved pairs absorb drift but absolute times vary between runs.',
];

function numberArg(argv: readonly string[], name: string, fallback: number): number {
  const index = argv.indexOf(name);
  const value = index === -1 ? Number.NaN : Number(argv[index + 1]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const USAGE = `npm run bench -- [options]   (every benchmark; a full run writes bench/RESULTS.md)
  --pairs N            interleaved pairs per hook path (default 20)
  --quick              5 pairs, fewer capture and MCP samples: a smoke run
  --only <text>        only the measurements whose name contains <text> (e.g. "guard deny", dispatcher, fresh)
  --plugin-root <dir>  measure the built scripts/, servers/ and hooks/ of another tree (A/B runs)
--quick and --only print the table and write nothing.`;

async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const quick = argv.includes('--quick');
  const pairs = numberArg(argv, '--pairs', quick ? 5 : 20);
  const builtRoot = argv.includes('--plugin-root') ? argv[argv.indexOf('--plugin-root') + 1] : undefined;
  const world = await createBenchWorld({}, builtRoot);
  const rows: ResultRow[] = [];
  const only = argv.includes('--only') ? (argv[argv.indexOf('--only') + 1] ?? '') : '';
  const measure = async (label: string, work: () => Promise<ResultRow[]>): Promise<void> => {
    if (only !== '' && !label.toLowerCase().includes(only.toLowerCase())) return;
    process.stderr.write(`bench: ${label}…\n`);
    rows.push(...(await work()));
  };
  try {
    for (const path of [...floorPaths(world), ...basicPaths(world)])
      await measure(path.name, async () => [await measurePath(world, path, pairs)]);
    await measure('SessionStart, fresh session (and with 5,000 / 50,000 past sessions)', () =>
      measureStartHistory(world, pairs),
    );
    await measure('resident helper', async () => [await residentRow(world)]);
    for (const path of capturePaths(world))
      await measure(path.name, async () => [await measurePath(world, path, pairs)]);
    await measure('capture cost', () => measureCapture(world, quick ? 2 : 5));
    await measure('MCP proxy', () => measureMcp(world, pairs, quick ? 50 : 300));
    // Whole CLI sessions (seconds each): a few pairs are enough for medians over every event of them.
    await measure('Claude Code hooks module', () => measureModule(world, quick ? 1 : 3));
    await measure('import of past sessions', () => measureImport(world, quick));
  } finally {
    await world.dispose();
  }
  console.log(renderTable(rows));
  const path = join(REPO_ROOT, 'bench', 'RESULTS.md');
  if (only !== '' && !quick && argv.includes('--write')) {
    await writeResults(path, mergeResults(await readFile(path, 'utf8'), rows, only, new Date(), METHOD));
    console.log(`\nmerged into: ${path}`);
    return;
  }
  if (quick || only !== '') return;
  await writeResults(path, renderResults(runInfo(new Date(), pairs), rows, METHOD));
  console.log(`\nwritten: ${path}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
