/**
 * The import's options (DESIGN D35), from the flags the command line parsed
 * (hook/commands.ts: `--all`, `--dry-run`, `--since`, `--background`,
 * `--status`, in either `--since DATE` or `--since=DATE` form): the date
 * read, and the combinations the import cannot run refused. Usage and
 * `--help` are the command line's.
 *
 * @module
 */

/** The flags as given. */
export interface ImportFlags {
  all: boolean;
  dryRun: boolean;
  /** `YYYY-MM-DD`, as typed. */
  since?: string | undefined;
  background: boolean;
  status: boolean;
}

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

/** The options, or the problem with the flags (the command line prints it with the usage). */
export function importOptions(flags: ImportFlags): ImportOptions | { problem: string } {
  const { all, dryRun, background, status } = flags;
  const options: ImportOptions = { all, dryRun, background, status };
  if (flags.since !== undefined) {
    const since = localMidnight(flags.since);
    if (since === undefined) return { problem: `--since takes a date as YYYY-MM-DD (got ${flags.since})` };
    options.since = since;
  }
  if (status && (all || dryRun || background || options.since !== undefined))
    return { problem: '--status takes no other option' };
  if (dryRun && background) return { problem: '--dry-run runs at once; it takes no --background' };
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
