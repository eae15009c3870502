/**
 * Test helpers for the resident helper (DESIGN D16): wait until one
 * listens, tell which process answered a prompt's recall (the record a
 * user sees in `why` and doctor, not a log line's wording), and count the
 * events it answered through a door (D45: the one trace of a hook that
 * started no node).
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { residentPaths } from '../../src/resident/identity.js';
import { residentListening } from '../../src/resident/housekeeping.js';
import { latestMark, readStatus, type Runner } from '../../src/store/status.js';
import { waitFor } from './wait.js';

/** FIFOs under `<dataDir>/resident` that a process has open for reading now. */
export function listeningFifos(dataDir: string): string[] {
  const dir = join(dataDir, 'resident');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.fifo'));
  } catch {
    return [];
  }
  return names.filter((name) => residentListening(residentPaths(dataDir, name.slice(0, -'.fifo'.length))));
}

/** Resolves once `count` residents listen under `dataDir`; rejects after `timeoutMs`. */
export async function residentsListening(dataDir: string, count = 1, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (listeningFifos(dataDir).length < count) {
    if (Date.now() > deadline) throw new Error(`no resident listening under ${dataDir} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The debug-log lines (JSON) of `path`, or [] when there is no log yet. */
export function debugLines(path: string): Array<{ pid: number; message: string } & Record<string, unknown>> {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { pid: number; message: string });
  } catch {
    return [];
  }
}

/** How many `event`s the debug log's `lines` say a resident answered through a door (resident/server.ts). */
export function doorAnswers(
  lines: ReadonlyArray<{ message: string } & Record<string, unknown>>,
  event: string,
): number {
  return lines.filter((line) => line.message === 'resident: answered through a door' && line.event === event).length;
}

/**
 * Which process answered the newest recall recorded under `dataDir` at or
 * after `since` (ms since epoch; of `session`, a `cb-…` id, when given): the
 * prompt hook itself, the resident helper or the hooks module, as the
 * recall's status mark says (store/status.ts; `why` and doctor print it).
 * A resident writes the mark just after its reply, so this waits for it;
 * it throws when no such recall was recorded. Undefined: a mark that does
 * not say (an earlier version's).
 */
export async function recallAnsweredBy(dataDir: string, since: number, session?: string): Promise<Runner | undefined> {
  const mark = await waitFor(
    async () => {
      const { recall } = await readStatus(dataDir);
      const found = session === undefined ? latestMark(recall)?.mark : recall[session];
      return found !== undefined && found.at >= since ? found : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 25, what: `a recall recorded under ${dataDir} since ${since}` },
  );
  return mark.by;
}
