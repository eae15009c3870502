/**
 * The benchmark's output: one row per measurement, printed as a table and
 * written to bench/RESULTS.md with the machine it ran on, so a reader can
 * judge the numbers (a 2-core shared CI box is not a laptop).
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';

/** `max` means the measured value must not exceed `limit`. */
export interface Target {
  limit: number;
  /** How the limit reads in the table, e.g. `≤ 1.10×`. */
  label: string;
}

export interface ResultRow {
  name: string;
  /** Median of the path (ms), or the measured quantity's value. */
  value: string;
  /** Median of the baseline beside it (ms), when there is one. */
  baseline?: string;
  /** The number compared with the target (a ratio, or ms). */
  measured?: number;
  measuredLabel?: string;
  target?: Target;
  requests?: string;
  peakRssKb?: number;
  note?: string;
}

export interface RunInfo {
  nodeVersion: string;
  cpuCount: number;
  cpuModel: string;
  date: string;
  pairs: number;
}

export function runInfo(now: Date, pairs: number): RunInfo {
  const cpuList = cpus();
  return {
    nodeVersion: process.version,
    cpuCount: cpuList.length,
    cpuModel: cpuList[0]?.model ?? 'unknown',
    date: now.toISOString(),
    pairs,
  };
}

/** `met`, `NOT met`, or '' when the row has no target. */
export function verdict(row: ResultRow): string {
  if (row.target === undefined || row.measured === undefined || !Number.isFinite(row.measured))
    return row.target === undefined ? '' : 'n/a';
  return row.measured <= row.target.limit ? 'met' : 'NOT met';
}

const HEADERS = [
  'measurement',
  'median',
  'bare node',
  'ratio / value',
  'target',
  'verdict',
  'requests/run',
  'peak RSS',
  'note',
];

function cells(row: ResultRow): string[] {
  return [
    row.name,
    row.value,
    row.baseline ?? '',
    row.measuredLabel ?? '',
    row.target?.label ?? '',
    verdict(row),
    row.requests ?? '',
    row.peakRssKb === undefined ? '' : `${(row.peakRssKb / 1024).toFixed(1)} MB`,
    row.note ?? '',
  ];
}

/** A Markdown table (also readable on a terminal). */
export function renderTable(rows: readonly ResultRow[]): string {
  const lines = [`| ${HEADERS.join(' | ')} |`, `|${HEADERS.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${cells(row).join(' | ')} |`);
  return lines.join('\n');
}

export function renderResults(info: RunInfo, rows: readonly ResultRow[], method: readonly string[]): string {
  return [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (`tsx bench/run.ts`); do not edit by hand.',
    '',
    `- Node: ${info.nodeVersion}`,
    `- CPUs: ${info.cpuCount} × ${info.cpuModel}`,
    `- Date: ${info.date}`,
    `- Interleaved pairs per hook path: ${info.pairs}`,
    '',
    renderTable(rows),
    '',
    '## Method',
    '',
    ...method.map((line) => `- ${line}`),
    '',
  ].join('\n');
}

/**
 * RESULTS.md after a partial run (`--only … --write`): the measured rows in
 * place of the rows of the same name (new ones after the others), the rest
 * of the table and its header as they were, and one line saying which rows
 * were measured when.
 */
export function mergeResults(
  existing: string,
  rows: readonly ResultRow[],
  only: string,
  now: Date,
  method: readonly string[],
): string {
  const lines = existing.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| measurement |'));
  if (start === -1) throw new Error('bench/RESULTS.md has no results table to merge into');
  let end = start + 2;
  while (end < lines.length && (lines[end] ?? '').startsWith('| ')) end++;
  const byName = new Map(rows.map((row) => [row.name, `| ${cells(row).join(' | ')} |`]));
  const kept = lines.slice(start + 2, end).map((line) => {
    const name = line.slice(2, line.indexOf(' | ', 2));
    const fresh = byName.get(name);
    byName.delete(name);
    return fresh ?? line;
  });
  const note = `- Rows measured again by \`npm run bench -- --only ${only} --write\`: ${now.toISOString()}`;
  const head = lines
    .slice(0, start)
    .filter((line) => !line.startsWith(`- Rows measured again by \`npm run bench -- --only ${only} `));
  const blank = head.lastIndexOf('');
  head.splice(blank === -1 ? head.length : blank, 0, note);
  const merged = [...head, ...lines.slice(start, start + 2), ...kept, ...byName.values(), ...lines.slice(end)];
  // A measurement new to the file brings its method line (the list ends the file).
  const missing = method.filter((line) => !merged.includes(`- ${line}`)).map((line) => `- ${line}`);
  while (merged.length > 0 && merged[merged.length - 1] === '') merged.pop();
  return [...merged, ...missing, ''].join('\n');
}

/** The heading of RESULTS.md's hand-kept section (before/after measurements against targets): a run keeps it. */
export const KEPT_SECTION = '## Before and after, against the targets';

/** Writes a run's results; the previous file's {@link KEPT_SECTION} and everything after it are kept at the end. */
export async function writeResults(path: string, text: string): Promise<void> {
  const previous = await readFile(path, 'utf8').catch(() => '');
  const at = previous.indexOf(KEPT_SECTION);
  // A partial run's text (mergeResults) already holds the section.
  const keep = at !== -1 && !text.includes(KEPT_SECTION);
  await writeFile(path, keep ? `${text.trimEnd()}\n\n${previous.slice(at)}` : text, 'utf8');
}

export function formatMs(ms: number): string {
  return Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a';
}

export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a';
}
