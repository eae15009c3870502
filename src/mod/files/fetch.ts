/**
 * The hooks module's side of its file snapshot (snapshot.ts): `$.fs` calls,
 * all of a round in parallel (each `$` call is a hop to the host: ~1 ms
 * alone, ~0.15 ms more for each one beside it, measured on 2.1.332).
 *
 * - `settle` runs a synchronous rule until it misses nothing, fetching what
 *   each run missed (at most MAX_ROUNDS runs: a workspace walk needs three
 *   or four on a fresh session, none once the snapshot holds it).
 * - `revalidate` looks again at the paths a complete run of a purpose
 *   looked at (one parallel round of stats): a changed file it held the
 *   text of is read again at once, beside the other stats, not in a round
 *   of its own once the rule misses it (after the answer, the files this
 *   module wrote, which after.ts writes first).
 *   Before a decision only the files that hold switches (switchFiles.ts),
 *   so a switch turned off in ovcli.conf or a workspace file holds from the
 *   next prompt on, as in the hook commands, which read every time; every
 *   other path after the answer (a repository's remote, a moved folder, the
 *   caches: one prompt late at worst).
 * - `flushWrites` writes the queued files, in order, after the answer.
 *
 * A `$.fs` failure is an answer here (refused, missing), never a throw;
 * only a rule still missing after MAX_ROUNDS throws (the caller gives the
 * event to the hook commands).
 *
 * @module
 */
import { clearProjectCache } from '../../project/identity.js';
import type { Engine } from '../host.js';
import { setWorkingDirectory } from './posixPath.js';
import { sessionFiles, type Need, type Purpose, type Seen } from './snapshot.js';

/** Runs of one rule before the module gives up on it. */
export const MAX_ROUNDS = 6;
/** `$.fs.read` answers at most 4 MiB. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

/** `rule`'s value once a run of it missed nothing. */
export async function settle<T>($: Engine, purpose: Purpose, rule: () => T): Promise<T> {
  const files = sessionFiles();
  const late = files.takeLate();
  if (late.length > 0) await fetchNeeds($, late);
  for (let round = 1; ; round++) {
    const run = files.attempt(purpose, rule);
    if (run.complete) return run.value;
    if (round >= MAX_ROUNDS)
      throw new Error(
        `the file snapshot still misses ${run.needs.length} paths after ${MAX_ROUNDS} runs (${run.needs[0]?.path ?? ''})`,
      );
    await fetchNeeds($, run.needs);
  }
}

/**
 * A decision's rule for a session folder `cwd`. What `fresh` accepts of what
 * the last decision looked at is looked at again first (every path when
 * `fresh` is left out); the rest waits for `revalidate` after the answer.
 * The project cache (project/identity.ts) is emptied before each run: the
 * snapshot is the module's cache, and a run that missed must leave no
 * project scan behind that was made on a file not read yet.
 */
export async function decide<T>($: Engine, cwd: string, rule: () => T, fresh?: (path: string) => boolean): Promise<T> {
  await revalidate($, 'decide', fresh);
  return settle($, 'decide', () => {
    clearProjectCache();
    setWorkingDirectory(cwd);
    return rule();
  });
}

/** Looks again at what a complete run of `purpose` looked at (what `only` accepts of it). */
export async function revalidate(
  $: Engine,
  purpose: Purpose,
  only: (path: string) => boolean = () => true,
): Promise<void> {
  const files = sessionFiles();
  await Promise.all(
    files
      .pathsOf(purpose)
      .filter(only)
      .map(async (path) => {
        const seen = await statOf($, path);
        const dropped = files.learnStat(path, seen);
        // A changed file read before is read again now, not in a round of its own once the rule misses it.
        // (A file this module wrote was held whole, without a bound: read back what `$.fs.read` answers.)
        if (dropped?.op === 'read')
          await readText($, { ...dropped, maxBytes: Math.min(dropped.maxBytes, MAX_READ_BYTES - 1) }, seen);
      }),
  );
}

/** Writes the queued files, oldest first; a failed write is reported and the rest still written. */
export async function flushWrites($: Engine): Promise<string[]> {
  const failed: string[] = [];
  for (const [path, text] of sessionFiles().takeWrites()) {
    try {
      await $.fs.write(path, text);
    } catch (error) {
      failed.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return failed;
}

async function fetchNeeds($: Engine, needs: readonly Need[]): Promise<void> {
  const files = sessionFiles();
  await Promise.all(
    needs.map(async (need) => {
      if (need.op === 'list') {
        const [seen, names] = await Promise.all([
          statOf($, need.path),
          $.fs.list(need.path).then(
            (entries) => entries.map((entry) => entry.name),
            () => [],
          ),
        ]);
        files.learnStat(need.path, seen);
        files.learnNames(need.path, names);
        return;
      }
      const seen = await statOf($, need.path);
      files.learnStat(need.path, seen);
      if (need.op === 'read') await readText($, need, seen);
    }),
  );
}

/** Reads `need`'s text into the snapshot when `seen` (its stat just now) is a regular file small enough. */
async function readText($: Engine, need: Extract<Need, { op: 'read' }>, seen: Seen): Promise<void> {
  if (seen.state !== 'found' || seen.facts.kind !== 'file' || seen.facts.size > need.maxBytes) return;
  try {
    // One byte past the most wanted, so a file grown since its stat reads as too large.
    sessionFiles().learnText(
      need.path,
      await $.fs.read(need.path, { offset: 0, length: Math.min(need.maxBytes + 1, MAX_READ_BYTES) }),
      need.maxBytes,
    );
  } catch (error) {
    // Gone since its stat, or a read refused where the stat was not (permissions, a host's guard).
    sessionFiles().learnStat(need.path, failedLook(error));
  }
}

async function statOf($: Engine, path: string): Promise<Seen> {
  try {
    const stat = await $.fs.stat(path, { resolve: true });
    // A link that leads nowhere: node's stat says ENOENT, and so does the file seam (store/fileSeam.ts).
    if (stat.isLink && stat.kind === 'other' && stat.realPath === undefined) return { state: 'missing' };
    return {
      state: 'found',
      facts: {
        kind: stat.kind,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        ...(stat.realPath !== undefined ? { realPath: stat.realPath } : {}),
      },
    };
  } catch (error) {
    return failedLook(error);
  }
}

function failedLook(error: unknown): Seen {
  const message = error instanceof Error ? error.message : String(error);
  return /failed: (?:ENOENT|ENOTDIR)\b/.test(message)
    ? { state: 'missing' }
    : { state: 'refused', why: message.slice(0, 200) };
}
