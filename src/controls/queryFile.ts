/**
 * How `/openviking:recall` hands the user's query to `recall-preview`
 * without putting it in any shell (issue 20 items 3-4, DESIGN D27).
 *
 * Quoting the query for the model's Bash call cannot be made safe for every
 * shell the host may run (fish reads `\'` inside single quotes as an escape,
 * so the old recipe's `'\''` ran a `touch` there). So the command's own
 * inline step (`!`…``, fixed text the host runs) asks for a query file:
 * a fresh, unguessable name in a private directory of the data dir; the
 * model writes the query there with its Write tool (a JSON argument, no
 * shell), then runs `recall-preview --query-id <16 hex>`: fixed text and a
 * hex id, the same under bash, dash, zsh and fish. The file is read with
 * the small-file reader (a regular file, at most MAX_QUERY_FILE_BYTES) and
 * removed; ones left behind are swept after an hour.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ensurePrivateDirSync } from '../store/atomic.js';
import { namesInDir, removeFileQuietly } from '../store/fsUtil.js';
import { readSmallFile } from '../store/smallFile.js';
import { statSync } from 'node:fs';

/** A query longer than this is refused (recall searches with at most 4,000 characters anyway). */
export const MAX_QUERY_FILE_BYTES = 64 * 1024;
const QUERY_ID = /^[0-9a-f]{16}$/;
const LEFTOVER_MS = 60 * 60_000;

function queryDir(dataDir: string): string {
  return join(dataDir, 'queries');
}

function queryPath(dataDir: string, id: string): string {
  return join(queryDir(dataDir), `recall-query-${id}.txt`);
}

/** A new query file's id and path (the file itself is the model's to create); sweeps leftovers. */
export function newQueryFile(dataDir: string, now: number): { id: string; path: string } {
  const dir = queryDir(dataDir);
  ensurePrivateDirSync(dir);
  for (const name of namesInDir(dir)) {
    const path = join(dir, name);
    const mtime = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (mtime !== undefined && now - mtime > LEFTOVER_MS) removeFileQuietly(path);
  }
  const id = randomBytes(8).toString('hex');
  return { id, path: queryPath(dataDir, id) };
}

/**
 * The query written for `id`, and the file removed; a reason when there is
 * none (`badId`: the id is no id at all, a usage error the command line
 * prints with the usage).
 */
export function takeQueryFile(dataDir: string, id: string): { query: string } | { problem: string; badId?: true } {
  if (!QUERY_ID.test(id))
    return {
      problem: `--query-id takes the 16 hex digits printed by --new-query-file, not "${id.slice(0, 40)}"`,
      badId: true,
    };
  const path = queryPath(dataDir, id);
  const file = readSmallFile(path, MAX_QUERY_FILE_BYTES);
  removeFileQuietly(path);
  if (file.text === undefined)
    return { problem: `the query file ${path} ${file.why}; write the query there with the Write tool first` };
  return { query: file.text };
}
