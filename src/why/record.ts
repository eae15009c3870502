/**
 * The per-session record of what the plugin injected (issue 17.2,
 * `/openviking:why`): the start block and each recall, with the time, the
 * URIs (and scores), the text as the model got it and, for a recall, which
 * process answered (the prompt hook, the resident helper or the hooks module).
 *
 * `<dataDir>/sessions/<key of "<cb-id>#why">.jsonl`, next to the session's
 * other state, so whatever removes a session's files removes this one too.
 * Private (0600 in a 0700 directory): it holds memory text.
 *
 * Bounded, whatever the entries hold (issue 20): the file never exceeds
 * `MAX_FILE_BYTES`. Each entry is cut before it is written: the block at
 * `MAX_TEXT_CHARS`, the recall query at `MAX_DETAIL_CHARS`, each URI at
 * `MAX_URI_CHARS`, and the item list at `MAX_ITEMS` (recall injects at most
 * `OPENVIKING_RECALL_LIMIT`, whose bound is 100; a start block's listing
 * keeps its first 100 URIs and counts the rest in `moreItems`); a line still
 * over `MAX_LINE_BYTES` (escaped control characters can grow JSON sixfold)
 * keeps only its head. An append that would pass `MAX_FILE_BYTES` first
 * rewrites the file with the newest entries that fit in half of it. (The
 * first version halved the line count after the append: two 200 KB entries
 * made a 291 KB file, and one stayed over the bound.) One line is appended
 * per injection, with one `stat` and no read on the hot path; the prompt
 * stage hands the append to `afterAnswer`, so the resident replies first.
 *
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord, parseJson } from '../util/json.js';
import { utf8Length } from '../util/utf8.js';
import { writeFileAtomicSync } from '../store/atomic.js';
import { appendPrivateFileSync, statQuietly } from '../store/fsUtil.js';
import { safeFileKey, storeLayout } from '../store/paths.js';
import { readSmallFile } from '../store/smallFile.js';
import { runnerOf, type Runner } from '../store/status.js';

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
  /** A recall: which process answered (absent in records of earlier versions). */
  by?: Runner;
  items: InjectedItem[];
  /** Items left out of `items` beyond MAX_ITEMS. */
  moreItems?: number;
  /** The block as injected, cut at MAX_TEXT_CHARS. */
  text: string;
}

export const MAX_TEXT_CHARS = 8_000;
export const MAX_DETAIL_CHARS = 1_000;
export const MAX_URI_CHARS = 300;
/** A folder path (PATH_MAX on Linux); `why` matches it whole, so it is kept whole up to that. */
export const MAX_WORKSPACE_CHARS = 4_096;
export const MAX_ITEMS = 100;
/** One entry's line at most: a quarter of the file, so a rewrite always keeps the newest entries. */
export const MAX_LINE_BYTES = 64 * 1024;
export const MAX_FILE_BYTES = 256 * 1024;
const SUFFIX = '.why.jsonl';
/** A record from an earlier version may be somewhat over the bound: still read (and rewritten by the next append). */
const MAX_READ_BYTES = 4 * MAX_FILE_BYTES;

export function whyFile(dataDir: string, ovSessionId: string): string {
  return join(storeLayout(dataDir).sessionsDir, `${safeFileKey(`${ovSessionId}#why`)}${SUFFIX}`);
}

/** Appends one entry; never throws (a lost entry only makes `why` incomplete). */
export function recordInjection(dataDir: string, entry: WhyEntry): void {
  if (entry.session === '') return;
  try {
    const file = whyFile(dataDir, entry.session);
    const line = entryLine(entry);
    const size = statQuietly(file)?.size ?? 0;
    if (size + utf8Length(line) > MAX_FILE_BYTES) return rewriteWithNewest(file, line);
    appendPrivateFileSync(file, line); // the first record of this data dir also makes sessions/
  } catch {
    // The record is a convenience; the injection already happened.
  }
}

/** `viking://…` URIs named in a block (the start block lists its sources by URI). */
export function urisIn(text: string): InjectedItem[] {
  return [...new Set(text.match(/viking:\/\/[^\s"'`<>)\]]+/g) ?? [])].map((uri) => ({ uri }));
}

/** The entry as one JSON line of at most MAX_LINE_BYTES, every field cut to its bound. */
function entryLine(entry: WhyEntry): string {
  const items = entry.items.slice(0, MAX_ITEMS).map((item) => ({
    ...item,
    uri: item.uri.slice(0, MAX_URI_CHARS),
    ...(item.category !== undefined ? { category: item.category.slice(0, 64) } : {}),
  }));
  const more = entry.items.length - items.length + (entry.moreItems ?? 0);
  const bounded: WhyEntry = {
    session: entry.session.slice(0, 200),
    at: entry.at,
    kind: entry.kind,
    detail: entry.detail.slice(0, MAX_DETAIL_CHARS),
    ...(entry.peer !== undefined ? { peer: entry.peer.slice(0, 200) } : {}),
    ...(entry.workspace !== undefined ? { workspace: entry.workspace.slice(0, MAX_WORKSPACE_CHARS) } : {}),
    ...(entry.by !== undefined ? { by: entry.by } : {}),
    items,
    ...(more > 0 ? { moreItems: more } : {}),
    text: entry.text.slice(0, MAX_TEXT_CHARS),
  };
  const line = `${JSON.stringify(bounded)}\n`;
  if (utf8Length(line) <= MAX_LINE_BYTES) return line;
  // Only text made mostly of escaped characters gets here: keep the head of everything.
  const head: WhyEntry = {
    ...bounded,
    detail: bounded.detail.slice(0, 100),
    items: items.slice(0, 10),
    moreItems: entry.items.length - Math.min(items.length, 10) + (entry.moreItems ?? 0),
    text: bounded.text.slice(0, 1_000),
  };
  return `${JSON.stringify(head)}\n`;
}

/** Rewrites `file` with the newest entries that fit in half of MAX_FILE_BYTES, then `line`. */
function rewriteWithNewest(file: string, line: string): void {
  const old = readSmallFile(file, MAX_READ_BYTES).text ?? '';
  const kept: string[] = [];
  let bytes = utf8Length(line);
  const lines = old.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const candidate = lines[index] as string;
    if (candidate === '') continue;
    const size = utf8Length(candidate) + 1;
    if (bytes + size > MAX_FILE_BYTES / 2) break;
    kept.push(`${candidate}\n`);
    bytes += size;
  }
  writeFileAtomicSync(file, kept.reverse().join('') + line);
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
  const text = readSmallFile(file, MAX_READ_BYTES).text;
  if (text === undefined) return [];
  const entries: WhyEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const value = parseJson(line); // a torn last line: skipped
    if (
      isRecord(value) &&
      typeof value.session === 'string' &&
      typeof value.at === 'number' &&
      Array.isArray(value.items)
    ) {
      const { by, ...rest } = value;
      const runner = runnerOf(by);
      entries.push({ ...(rest as unknown as WhyEntry), ...(runner !== undefined ? { by: runner } : {}) });
    }
  }
  return entries;
}
