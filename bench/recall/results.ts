/**
 * bench/RESULTS.md's recall section, written by `npm run bench:recall --
 * --write`: the table, the command and the machine's load. It lives after
 * the file's hand-kept section, which `npm run bench` keeps with everything
 * after it (bench/report.ts `writeResults`), so neither benchmark erases the
 * other's rows; a new recall run replaces only this section.
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tests/support/real-server/install.js';
import type { Corpus } from './corpus/corpus.js';

export const RECALL_SECTION = '## Recall quality (`npm run bench:recall`)';

export function writeRecallResults(
  table: string,
  json: unknown,
  corpusDir: string,
  corpus: Corpus,
  prompts: number,
  load: string,
): void {
  const path = join(REPO_ROOT, 'bench', 'RESULTS.md');
  const previous = readFileSync(path, 'utf8');
  const at = previous.indexOf(RECALL_SECTION);
  const before = (at === -1 ? previous : previous.slice(0, at)).trimEnd();
  const section = [
    RECALL_SECTION,
    '',
    `Written by \`npm run bench:recall -- --write\` (\`tsx bench/recall/run.ts\`) on ${new Date().toISOString()}, ` +
      `Node ${process.version}, ${cpus().length} CPUs, load average ${load} at the start. The real OpenViking ` +
      'server 0.5.2 with all-MiniLM-L6-v2 embeddings (bench/recall/embed_server.py), the corpus ' +
      `\`${corpusDir}\` (${corpus.memories.length} memories, ${prompts} prompts, ` +
      `${corpus.projects.length} projects), every prompt through each system as bench/recall/bench.ts says; ` +
      'what each number means: bench/recall/metrics.ts; the decisions it led to: docs/decisions/D43.',
    '',
    table,
    '',
    '```json',
    JSON.stringify(json),
    '```',
    '',
  ].join('\n');
  writeFileSync(path, `${before}\n\n${section}`, 'utf8');
}
