/**
 * The per-session record of what the plugin injected (issue 17.2,
 * `/openviking:why`): the start block and each recall, with the time, the
 * URIs (and scores) and the text as the model got it.
 *
 * `<dataDir>/sessions/<key of "<cb-id>#why">.jsonl`, next to the session's
 * other state, so whatever removes a session's files removes this one too.
 * Private (0600 in a 0700 directory): it holds memory text. Bounded: a
 * record keeps at most `MAX_TEXT_CHARS` of a block, and once the file passes
 * `MAX_FILE_BYTES` it is rewritten with its newest half. One line is
 * appended per injection (no read on the hot path); the prompt stage hands
 * the append to `afterAnswer`, so the resident replies first.
 *
 * @module
 */
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../openviking/narrow.js';
import { ensurePrivateDirSync, PRIVATE_FILE_MODE, writeFileAtomicSync } from '../store/atomic.js';
import { errorCode } from '../store/fsUtil.js';
import { safeFileKey, storeLayout } from '../store/paths.js';

export interface InjectedItem {
  uri: string;
  score?: number;
  category?: string;
}

export interface WhyEntry {
  /** `cb-…` */
  session: string;
  at: number;
  kind: 'start' | 'recall';
  /** SessionStart source (`startup`, `resume`, …) or the recall query. */
  detail: string;
  /** The project's peer id the reads spoke as, when there was one. */
  peer?: string;
  /** The session's folder (`why` without `--session` on CodeBuddy picks this folder's newest session). */
  workspace?: string;
  items: InjectedItem[];
  /** The block as injected, cut at MAX_TEXT_CHARS. */
  text: string;
}

export const MAX_TEXT_CHARS = 8_000;
export const MAX_FILE_BYTES = 256 * 1024;
const SUFFIX = '.why.jsonl';

export function whyFile(dataDir: string, ovSessionId: string): string {
  return join(storeLayout(dataDir).sessionsDir, `${safeFileKey(`${ovSessionId}#why`)}${SUFFIX}`);
}

/** Appends one entry; never throws (a lost entry only makes `why` incomplete). */
export function recordInjection(dataDir: string, entry: WhyEntry): void {
  if (entry.session === '') return;
  try {
    const file = whyFile(dataDir, entry.session);
    const line = `${JSON.stringify({ ...entry, text: entry.text.slice(0, MAX_TEXT_CHARS) })}\n`;
    try {
      appendFileSync(file, line, { mode: PRIVATE_FILE_MODE });
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      ensurePrivateDirSync(storeLayout(dataDir).sessionsDir); // the first record of this data dir
      appendFileSync(file, line, { mode: PRIVATE_FILE_MODE });
    }
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_FILE_BYTES) keepNewestHalf(file);
  } catch {
    // The record is a convenience; the injection already happened.
  }
}

/** `viking://…` URIs named in a block (the start block lists its sources by URI). */
export function urisIn(text: string): InjectedItem[] {
  return [...new Set(text.match(/viking:\/\/[^\s"'`<>)\]]+/g) ?? [])].map((uri) => ({ uri }));
}

function keepNewestHalf(file: string): void {
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  const kept = lines.slice(Math.floor(lines.length / 2));
  writeFileAtomicSync(file, kept.map((line) => `${line}\n`).join(''));
}

/** The entries of one session, oldest first (unreadable lines skipped). */
export function readWhy(dataDir: string, ovSessionId: string): WhyEntry[] {
  return readEntries(whyFile(dataDir, ovSessionId));
}

/** The session whose record changed last (of `workspace`, when given), or undefined when there is none. */
export function newestWhySession(dataDir: string, workspace?: string): string | undefined {
  const dir = storeLayout(dataDir).sessionsDir;
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(SUFFIX));
  } catch {
    return undefined;
  }
  const newestFirst = names
    .map((name) => ({ name, mtime: statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of newestFirst) {
    const last = readEntries(join(dir, name)).at(-1);
    if (last !== undefined && (workspace === undefined || last.workspace === workspace)) return last.session;
  }
  return undefined;
}

function readEntries(file: string): WhyEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: WhyEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value) && typeof value.session === 'string' && typeof value.at === 'number' && Array.isArray(value.items)) entries.push(value as unknown as WhyEntry);
    } catch {
      // a torn last line: skipped
    }
  }
  return entries;
}
