/**
 * The import of past sessions (DESIGN D35): a history of 1,000 sessions and
 * 100 MB of transcripts (half CodeBuddy, half Claude Code, ~100 KB each)
 * imported against the test server, its time and its peak RSS; the same
 * import with a tenth of the history, whose peak the large one must stay
 * near (memory follows the slices and jobs, not the history); and the
 * large import run again, which must send nothing.
 *
 * Each size has its own HOME (transcripts and data directory) and runs the
 * private plugin copy's `node scripts/hook.mjs import` under GNU `time`
 * (one run each: seconds long, so no pairs).
 *
 * @module
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claudeTurn, codebuddyTurn } from '../tests/import/support/world.js';
import { canMeasureRss, GNU_TIME, timedRun } from './process.js';
import { formatMs, formatRatio } from './report.js';
import type { ResultRow } from './report.js';
import type { BenchWorld } from './world.js';

/** Peak RSS of the 100 MB import over the 10 MB one. */
export const IMPORT_MEMORY_TARGET = { limit: 1.25, label: '≤ 1.25× of 10 MB' };

interface History {
  sessions: number;
  bytes: number;
}

interface ImportRun {
  ms: number;
  peakRssKb?: number;
  exitCode: number | null;
  stdout: string;
  writes: number;
}

const WRITES = /\/messages(\/batch)?$|\/commit$|\/config$/;

/** Writes `history` under `home`: each session a few turns padded to its share of the bytes, two hours old. */
async function writeHistory(home: string, workspace: string, history: History, tag: string): Promise<void> {
  const perSession = Math.floor(history.bytes / history.sessions);
  const old = (Date.now() - 2 * 3600_000) / 1000;
  for (let session = 0; session < history.sessions; session++) {
    const id = `${tag}-${String(session).padStart(5, '0')}-0000-4000-8000-000000000000`;
    const codebuddy = session % 2 === 0;
    const path = codebuddy
      ? join(home, '.codebuddy', 'projects', workspace.replace(/\//g, '-').replace(/^-/, ''), `${id}.jsonl`)
      : join(home, '.claude', 'projects', workspace.replace(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`);
    const turns = 4;
    const pad = 'p'.repeat(Math.max(0, Math.floor(perSession / turns) - 700));
    const records = Array.from({ length: turns }, (_, turn) =>
      (codebuddy ? codebuddyTurn : claudeTurn)(
        id,
        workspace,
        `${tag} session ${session} turn ${turn}: how do we build this`,
        `${tag} answer ${session}/${turn} ${pad}`,
      ),
    ).flat();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    utimesSync(path, old, old);
  }
}

async function runImport(world: BenchWorld, home: string): Promise<ImportRun> {
  const out = join(home, 'time.txt');
  const command = [join(world.pluginRoot, 'scripts', 'hook.mjs'), 'import'];
  const before = world.server.requests({ method: 'POST', path: WRITES }).length;
  const patches = world.server.requests({ method: 'PATCH', path: WRITES }).length;
  const measured = canMeasureRss();
  const run = await timedRun({
    file: measured ? GNU_TIME : process.execPath,
    args: measured ? ['-o', out, '-f', '%M', process.execPath, ...command] : command,
    env: { ...world.env, HOME: home },
    cwd: world.workspace,
  });
  const kb = measured ? Number.parseInt((await readFile(out, 'utf8')).trim().split('\n').pop() ?? '', 10) : NaN;
  const writes =
    world.server.requests({ method: 'POST', path: WRITES }).length -
    before +
    (world.server.requests({ method: 'PATCH', path: WRITES }).length - patches);
  return {
    ms: run.ms,
    exitCode: run.exitCode,
    stdout: run.stdout,
    writes,
    ...(Number.isFinite(kb) ? { peakRssKb: kb } : {}),
  };
}

function sessionsImported(stdout: string): string {
  return /imported (\d+) sessions?/.exec(stdout)?.[1] ?? '0';
}

export async function measureImport(world: BenchWorld, quick: boolean): Promise<ResultRow[]> {
  const sizes: Array<{ label: string; history: History }> = [
    { label: '100 sessions / 10 MB', history: { sessions: 100, bytes: 10 * 1024 * 1024 } },
    quick
      ? { label: '200 sessions / 20 MB', history: { sessions: 200, bytes: 20 * 1024 * 1024 } }
      : { label: '1,000 sessions / 100 MB', history: { sessions: 1000, bytes: 100 * 1024 * 1024 } },
  ];
  const rows: ResultRow[] = [];
  const runs: ImportRun[] = [];
  for (const [index, size] of sizes.entries()) {
    const home = join(world.home, `import-${index}`);
    await rm(home, { recursive: true, force: true });
    await mkdir(home, { recursive: true, mode: 0o700 });
    await writeHistory(home, world.workspace, size.history, `imp${index}`);
    const first = await runImport(world, home);
    runs.push(first);
    const row: ResultRow = {
      name: `import ${size.label}, first run`,
      value: formatMs(first.ms),
      requests: `${first.writes} writes`,
      note: `${sessionsImported(first.stdout)} sessions imported and committed, 4 jobs; exit ${String(first.exitCode)}`,
    };
    if (first.peakRssKb !== undefined) row.peakRssKb = first.peakRssKb;
    if (index === sizes.length - 1) {
      const ratio = (first.peakRssKb ?? NaN) / (runs[0]?.peakRssKb ?? NaN);
      row.measured = ratio;
      row.measuredLabel = `${formatRatio(ratio)} RSS of 10 MB`;
      row.target = IMPORT_MEMORY_TARGET;
      const again = await runImport(world, home);
      rows.push(row);
      const second: ResultRow = {
        name: `import ${size.label}, run again (nothing new)`,
        value: formatMs(again.ms),
        measured: again.writes,
        measuredLabel: `${again.writes} writes`,
        target: { limit: 0, label: 'sends nothing' },
        requests: `${again.writes} writes`,
        note: /nothing new to import/.test(again.stdout)
          ? 'every session skipped: imported before'
          : again.stdout.slice(0, 120),
      };
      if (again.peakRssKb !== undefined) second.peakRssKb = again.peakRssKb;
      rows.push(second);
    } else rows.push(row);
    await rm(home, { recursive: true, force: true });
  }
  return rows;
}
