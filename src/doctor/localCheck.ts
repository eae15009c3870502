/**
 * Doctor checks `data-dir` and `queue`: where the plugin keeps its state,
 * whether that state is private (dirs 0700, files 0600: it holds session
 * ids, queued conversation text and cursors), and what is waiting in the
 * pending-write queue or has given up in the dead-letter folder.
 *
 * @module
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, errorMessage } from '../util/errors.js';
import { describeDataDir, storeLayout } from '../store/paths.js';
import { queuePaths, queueStats } from '../store/queue.js';
import { formatAge } from '../statusline/format.js';
import type { Check } from './types.js';
import { counted } from '../util/plural.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Entries inspected at most; the data dir holds a few hundred files in practice. */
const MAX_ENTRIES = 5_000;
/** Offending paths named in the report. */
const MAX_NAMED = 5;

export async function checkDataDir(env: Env, homeDir: string): Promise<Check> {
  const { dir, source } = describeDataDir(env, homeDir);
  const base = { id: 'data-dir', title: 'Local state' };
  const where = `${dir}  (${source})`;
  let mode: number;
  try {
    const stats = await lstat(dir);
    if (!stats.isDirectory())
      return {
        ...base,
        status: 'fail',
        lines: [`${where} is not a directory`],
        fix: `Remove ${dir} or point OPENVIKING_CODEBUDDY_DATA_DIR elsewhere.`,
        data: { dir, source },
      };
    mode = stats.mode & 0o777;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return {
        ...base,
        status: 'info',
        lines: [`${where}: not created yet (the first hook event creates it)`],
        data: { dir, source, exists: false },
      };
    }
    return {
      ...base,
      status: 'fail',
      lines: [`${where} cannot be read: ${errorMessage(error)}`],
      fix: `Make ${dir} readable by you (chmod 700).`,
      data: { dir, source },
    };
  }
  const loose = await looseEntries(dir);
  if (mode !== 0o700) loose.unshift({ path: dir, mode, want: 0o700 });
  const lines = [
    where,
    `mode ${octal(mode)}; ${loose.length === 0 ? 'every file 0600 and directory 0700' : `${counted(loose.length, 'entry', 'entries')} too open`}`,
  ];
  lines.push(
    ...loose
      .slice(0, MAX_NAMED)
      .map((entry) => `  ${entry.path} is ${octal(entry.mode)}, should be ${octal(entry.want)}`),
  );
  const data = { dir, source, exists: true, mode: octal(mode), looseEntries: loose.length };
  if (loose.length === 0) return { ...base, status: 'pass', lines, data };
  return {
    ...base,
    status: 'warn',
    lines,
    fix: `Other users may read queued conversation text: run  find "${dir}" -type d -exec chmod 700 {} + -o -type f -exec chmod 600 {} +`,
    data,
  };
}

interface LooseEntry {
  path: string;
  mode: number;
  want: number;
}

/** Entries below `root` whose mode lets anyone but the owner in. */
async function looseEntries(root: string): Promise<LooseEntry[]> {
  const loose: LooseEntry[] = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0 && seen < MAX_ENTRIES) {
    const dir = pending.pop() as string;
    const names = await readdir(dir).catch((): string[] => []);
    for (const name of names) {
      seen += 1;
      const path = join(dir, name);
      const stats = await lstat(path).catch(() => undefined);
      if (!stats || stats.isSymbolicLink()) continue;
      const mode = stats.mode & 0o777;
      if (stats.isDirectory()) pending.push(path);
      if ((mode & 0o077) !== 0) loose.push({ path, mode, want: stats.isDirectory() ? 0o700 : 0o600 });
    }
  }
  return loose;
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}

export async function checkQueue(env: Env, homeDir: string, now: number, serverUp: boolean): Promise<Check> {
  const base = { id: 'queue', title: 'Pending writes' };
  const queueDir = storeLayout(describeDataDir(env, homeDir).dir).queueDir;
  let stats;
  try {
    stats = await queueStats(queueDir, now);
  } catch (error) {
    return {
      ...base,
      status: 'fail',
      lines: [`${queueDir} cannot be read: ${errorMessage(error)}`],
      fix: `Make ${queueDir} readable by you (chmod 700).`,
    };
  }
  const age = (oldest: number | undefined) => (oldest === undefined ? '' : `, oldest ${formatAge(oldest)}`);
  const lines = [
    `pending: ${stats.pending.count}${age(stats.pending.oldestAgeMs)}`,
    `being replayed: ${stats.claimed.count}${age(stats.claimed.oldestAgeMs)}`,
    `dead letters: ${stats.dead.count}${age(stats.dead.oldestAgeMs)}`,
  ];
  const data = { pending: stats.pending, claimed: stats.claimed, dead: stats.dead, queueDir };
  if (stats.dead.count > 0) {
    return {
      ...base,
      status: 'warn',
      lines,
      fix: `${counted(stats.dead.count, 'write')} ${stats.dead.count === 1 ? 'was' : 'were'} given up (expired, rejected or retried too often); each file in ${queuePaths(queueDir).deadDir} says why and holds the original request. Once the cause is fixed, \`node scripts/hook.mjs requeue-dead\` puts them back in the queue and replays them; delete the ones you do not want sent.`,
      data,
    };
  }
  if (stats.pending.count > 0) {
    const when = serverUp
      ? 'the next session start replays them'
      : 'they are replayed once the server is reachable again';
    return {
      ...base,
      status: 'warn',
      lines,
      fix: `${counted(stats.pending.count, 'write')} ${stats.pending.count === 1 ? 'waits' : 'wait'} for the server: ${when}.`,
      data,
    };
  }
  return { ...base, status: 'pass', lines, data };
}
