/**
 * The import's own flags (DESIGN D35). The command line's general rules
 * (usage, `--help`, the nearest valid name) are the dispatcher's; these are
 * the flags of `node scripts/hook.mjs import` alone.
 *
 * @module
 */

export interface ImportOptions {
  /** Every workspace's sessions, not only this one's. */
  all: boolean;
  /** Count what would be sent, send nothing. */
  dryRun: boolean;
  /** Only sessions written on or after this instant (epoch ms, local midnight of the date given). */
  since?: number;
  /** Start the import as a detached process and return at once (the slash command). */
  background: boolean;
  /** Say how a running (or the last) import is doing, and nothing else. */
  status: boolean;
}

export const IMPORT_USAGE = [
  'usage: node scripts/hook.mjs import [--all] [--dry-run] [--since YYYY-MM-DD] [--background]',
  '       node scripts/hook.mjs import --status',
  '',
  "  Brings past CodeBuddy and Claude Code sessions of this folder's workspace into OpenViking memory,",
  '  each exactly once, and commits them so the server extracts memories.',
  '  --all         every workspace, not only this one',
  '  --dry-run     list what would be sent (sessions, turns, bytes per workspace); send nothing',
  '  --since DATE  only sessions written on or after DATE (local midnight)',
  '  --background  run on its own and return at once (progress: --status, or the status line)',
  '  --status      how the running import is doing, or what the last one did',
].join('\n');

/** The options, or the problem with the arguments (the caller prints it with the usage). */
export function parseImportArgs(argv: readonly string[]): ImportOptions | { problem: string } {
  const options: ImportOptions = { all: false, dryRun: false, background: false, status: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--all') options.all = true;
    else if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--background') options.background = true;
    else if (arg === '--status') options.status = true;
    else if (arg === '--since' || arg.startsWith('--since=')) {
      const value = arg === '--since' ? argv[++index] : arg.slice('--since='.length);
      const since = localMidnight(value ?? '');
      if (since === undefined) return { problem: `--since takes a date as YYYY-MM-DD (got ${value ?? 'nothing'})` };
      options.since = since;
    } else return { problem: `unknown argument ${arg}` };
  }
  if (options.status && (options.all || options.dryRun || options.background || options.since !== undefined))
    return { problem: '--status takes no other option' };
  if (options.dryRun && options.background) return { problem: '--dry-run runs at once; it takes no --background' };
  return options;
}

/** The flags that make `options` again (for the detached process of `--background`). */
export function importArgv(options: ImportOptions): string[] {
  return [
    ...(options.all ? ['--all'] : []),
    ...(options.dryRun ? ['--dry-run'] : []),
    ...(options.since !== undefined ? ['--since', isoDate(options.since)] : []),
  ];
}

function localMidnight(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day
    ? date.getTime()
    : undefined;
}

function isoDate(at: number): string {
  const date = new Date(at);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
