/**
 * The status snapshot: the few facts the status line and doctor show about
 * the plugin's recent life, written by the stages as a side effect and read
 * without any network.
 *
 * The status line runs every few hundred milliseconds and must answer from
 * cached state only, so the stages leave these facts behind:
 *
 * | file                  | written by                 | holds                                  |
 * |-----------------------|----------------------------|----------------------------------------|
 * | `status/server.json`  | every stage that met the server (start, recall, capture, replay) | up/down, when, a short reason |
 * | `status/recall.json`  | the prompt stage           | per session: when, how many memories, which process answered |
 * | `status/capture.json` | the session's capture writer (pass, replay, PreCompact, commit-stale) | per session: when, how many messages the server took |
 * | `status/learned.json` | the session start that said what earlier sessions taught (DESIGN D36) | per session: when, how many memories it spoke of |
 *
 * Sessions are keyed by their OpenViking session id (`cb-<host id>`,
 * src/session/ids.ts). One file per writer, so a recall and a capture
 * never race on one file; each write is atomic (temp + rename, 0600, dir
 * 0700). The per-session maps
 * keep the most recent sessions only. Concurrent writers of the same file
 * (two sessions' prompts at the same instant) can lose one update, which the
 * next event repairs: this is a display cache, not a ledger. Reads and
 * writes never throw.
 *
 * @module
 */
import { join } from 'node:path';
import { readJson, readJsonSync, writeFileAtomicSync } from './atomic.js';
import { isRecord } from '../util/json.js';
import { hash64Hex } from './fastHash.js';

/** Whether the server answered the last time a stage asked. */
export interface ServerStatus {
  up: boolean;
  /** ms since epoch of the observation. */
  at: number;
  /** Short reason when down (`NETWORK`, `TIMEOUT`, `HTTP 503`); never a URL or key. */
  detail?: string;
  /** Which server it was (`serverKeyOf` its URL), so doctor shows it only for the configuration in use. */
  server?: string;
}

/**
 * Which process ran a prompt's recall: the prompt hook's own node process,
 * the resident helper (DESIGN D16), or the hooks module inside Claude Code
 * (D30). The prompt stage records it with each recall (`ActivityMark.by`,
 * the why record's `by`), so `why`, doctor and the tests can tell.
 */
export type Runner = 'hook' | 'resident' | 'module';

const RUNNERS: ReadonlySet<string> = new Set<Runner>(['hook', 'resident', 'module']);

/** `value` when it names a runner, else undefined (records are read from disk). */
export function runnerOf(value: unknown): Runner | undefined {
  return typeof value === 'string' && RUNNERS.has(value) ? (value as Runner) : undefined;
}

/** How `why` and doctor name a runner. */
const RUNNER_NAMES: Readonly<Record<Runner, string>> = {
  hook: 'the prompt hook itself',
  resident: 'the resident helper',
  module: 'the hooks module',
};

/** ` by the resident helper` (`why`, doctor); '' for a record of an earlier version, which does not say. */
export function answeredByPhrase(by: Runner | undefined): string {
  return by === undefined ? '' : ` by ${RUNNER_NAMES[by]}`;
}

/** One session's last recall or capture. */
export interface ActivityMark {
  at: number;
  /** Recall: memories injected. Capture: messages sent. */
  count: number;
  /** Recall: which process answered (absent in records of earlier versions). */
  by?: Runner;
}

export type ActivityKind = 'recall' | 'capture' | 'learned';

export interface StatusSnapshot {
  server?: ServerStatus;
  /** Session id → last recall, newest sessions only. */
  recall: Record<string, ActivityMark>;
  /** Session id → last capture, newest sessions only. */
  capture: Record<string, ActivityMark>;
  /** Session id → the memories its start said earlier sessions taught; absent when none was said. */
  learned?: Record<string, ActivityMark>;
}

/** Sessions kept per activity file. */
export const MAX_STATUS_SESSIONS = 20;
const MAX_DETAIL_CHARS = 80;

/** `<dataDir>/status/<name>.json`. */
export function statusFile(dataDir: string, name: 'server' | ActivityKind): string {
  return join(dataDir, 'status', `${name}.json`);
}

/**
 * An unchanged observation of the server is rewritten at most this often:
 * the status line calls a server stale only after STALE_SERVER_MS (15 min),
 * and each write (temp + rename) is ~1 ms on the prompt hook's clock.
 */
export const SERVER_STATUS_REFRESH_MS = 60_000;

/**
 * What an answer says about the server: up when it answered below 500 (a
 * refused key is still a server that answers), down on no answer, a
 * timeout or a 5xx, with the code as the reason.
 */
export function serverStatusOf(result: { ok: boolean; status?: number; code?: string }, at: number): ServerStatus {
  if (result.ok) return { up: true, at };
  const status = result.status ?? 0;
  if (status > 0 && status < 500) return { up: true, at };
  return { up: false, at, detail: status >= 500 ? `HTTP ${status}` : (result.code ?? 'NETWORK') };
}

/** A server's name in the status file: a hash of its URL (the file holds no URL). */
export function serverKeyOf(baseUrl: string): string {
  return hash64Hex(baseUrl);
}

/** Records the reachability of the server at `baseUrl` (skipping a same-state rewrite within SERVER_STATUS_REFRESH_MS); never throws. */
export async function recordServerStatus(dataDir: string, status: ServerStatus, baseUrl: string): Promise<void> {
  const detail = status.detail?.slice(0, MAX_DETAIL_CHARS);
  const server = serverKeyOf(baseUrl);
  const value: ServerStatus = { up: status.up, at: status.at, ...(detail ? { detail } : {}), server };
  const file = statusFile(dataDir, 'server');
  const current = readServer(readJsonSync(file));
  const unchanged =
    current !== undefined && current.up === value.up && current.detail === value.detail && current.server === server;
  if (unchanged && value.at >= current.at && value.at - current.at < SERVER_STATUS_REFRESH_MS) return;
  await writeQuietly(file, value);
}

/**
 * Records a session's recall (`count` = memories injected, `by` = who answered), capture
 * (`count` = messages sent) or learned report (`count` = memories earlier
 * sessions taught); keeps the newest `MAX_STATUS_SESSIONS`. Never throws.
 */
export async function recordActivity(
  dataDir: string,
  kind: ActivityKind,
  sessionId: string,
  mark: ActivityMark,
): Promise<void> {
  if (!sessionId) return;
  const file = statusFile(dataDir, kind);
  const current = readMarks(readJsonSync(file));
  delete current[sessionId];
  const newest = Object.entries(current)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_STATUS_SESSIONS - 1);
  const written: ActivityMark = { at: mark.at, count: mark.count, ...(mark.by !== undefined ? { by: mark.by } : {}) };
  await writeQuietly(file, Object.fromEntries([[sessionId, written], ...newest]));
}

/** Everything recorded so far; missing or corrupt files read as empty. */
export async function readStatus(dataDir: string): Promise<StatusSnapshot> {
  const [server, recall, capture, learned] = await Promise.all([
    readJson(statusFile(dataDir, 'server')),
    readJson(statusFile(dataDir, 'recall')),
    readJson(statusFile(dataDir, 'capture')),
    readJson(statusFile(dataDir, 'learned')),
  ]);
  const snapshot: StatusSnapshot = { recall: readMarks(recall), capture: readMarks(capture) };
  const learnedMarks = readMarks(learned);
  if (Object.keys(learnedMarks).length > 0) snapshot.learned = learnedMarks;
  const parsedServer = readServer(server);
  if (parsedServer) snapshot.server = parsedServer;
  return snapshot;
}

/** The most recent mark of a map, with its session id. */
export function latestMark(
  marks: Readonly<Record<string, ActivityMark>>,
): { sessionId: string; mark: ActivityMark } | undefined {
  let best: { sessionId: string; mark: ActivityMark } | undefined;
  for (const [sessionId, mark] of Object.entries(marks))
    if (!best || mark.at > best.mark.at) best = { sessionId, mark };
  return best;
}

function readServer(value: unknown): ServerStatus | undefined {
  if (!isRecord(value) || typeof value['up'] !== 'boolean' || !isTime(value['at'])) return undefined;
  const detail = typeof value['detail'] === 'string' ? value['detail'] : undefined;
  const server = typeof value['server'] === 'string' ? value['server'] : undefined;
  return { up: value['up'], at: value['at'], ...(detail ? { detail } : {}), ...(server ? { server } : {}) };
}

function readMarks(value: unknown): Record<string, ActivityMark> {
  const marks: Record<string, ActivityMark> = {};
  if (!isRecord(value)) return marks;
  for (const [sessionId, mark] of Object.entries(value)) {
    if (sessionId === '__proto__' || !isRecord(mark) || !isTime(mark['at'])) continue;
    const count = mark['count'];
    const by = runnerOf(mark['by']);
    marks[sessionId] = {
      at: mark['at'],
      count: typeof count === 'number' && Number.isFinite(count) ? count : 0,
      ...(by !== undefined ? { by } : {}),
    };
  }
  return marks;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Synchronous on purpose: see writeFileAtomicSync. */
async function writeQuietly(file: string, value: unknown): Promise<void> {
  try {
    writeFileAtomicSync(file, JSON.stringify(value));
  } catch {
    // A status file that cannot be written only makes the status line stale.
  }
}
