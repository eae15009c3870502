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

/** The heading of RESULTS.md's hand-kept section (before/after measurements against targets): a run keeps it. */
export const KEPT_SECTION = '## Before and after, against the targets';

/** Writes a run's results; the previous file's {@link KEPT_SECTION} and everything after it are kept at the end. */
export async function writeResults(path: string, text: string): Promise<void> {
  const previous = await readFile(path, 'utf8').catch(() => '');
  const at = previous.indexOf(KEPT_SECTION);
  await writeFile(path, at === -1 ? text : `${text.trimEnd()}\n\n${previous.slice(at)}`, 'utf8');
}

export function formatMs(ms: number): string {
  return Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : 'n/a';
}

export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a';
}
