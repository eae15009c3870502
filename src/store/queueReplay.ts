/**
 * Replays the pending-write queue, oldest first, within a budget.
 *
 * One replayer at a time (a non-blocking `replay.lock`; a second caller
 * returns `busy` at once), and each entry is also claimed by renaming it to
 * `.processing`, so a replayer that dies mid-send (a start hook that exits
 * at its deadline while a slow request is out) leaves a visible claim.
 * Claims are only made under the replay lock, so whoever holds it next
 * returns every claim it finds to the queue at once (waiting for the claim
 * to age stalled the session's whole backlog for minutes); the exactly-once
 * checks of capture (inflight records) make the resend safe. A replayer
 * that finds its lock reclaimed (stopped past the stale time) leaves the
 * entry it was on to the new one. Per-session FIFO: once
 * an entry of session S is deferred or fails retryably, later entries of S
 * wait for the next run while other sessions continue. Nothing is ever
 * dropped: success deletes, everything else is either kept or moved to
 * `dead/` with its reason.
 *
 * Only a refusal counts as an attempt (`retry`: attempts+1, dead at
 * `maxAttempts`). A write the server never answered (down, timeout, 5xx,
 * 429, a busy lock: `wait`) is kept as it was, however often that happens,
 * so an outage across many session starts gives nothing up; the TTL still
 * bounds how long an entry waits (counted from `requeuedAt` when a dead
 * letter was put back by hand).
 *
 * @module
 */
import { readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_SUFFIX, writeJsonAtomic } from './atomic.js';
import { mtimeOf, setMtime } from './fsUtil.js';
import { errorCode, errorMessage } from '../util/errors.js';
import { tryLock } from './lock.js';
import type { LockHandle } from './lock.js';
import {
  CLAIMED_SUFFIX,
  deadLetterName,
  listDir,
  parseEntryName,
  PENDING_SUFFIX,
  queuePaths,
  redactError,
  toQueueEntry,
} from './queueFiles.js';
import type { DeadLetter, QueueEntry, QueuePaths } from './queueFiles.js';
import { parseJson } from '../util/json.js';

/**
 * What `execute` decided about one entry. `retry` keeps it (attempts+1: the
 * server refused it); `wait` keeps it without counting (nobody refused it:
 * no answer, a transient status, a busy writer); `fatal` dead-letters it
 * now. `haltRun` ends this run after the entry (e.g. the server is
 * unreachable, so every further send would fail as well).
 */
export type ReplayVerdict =
  'done' | 'retry' | 'wait' | 'fatal' | { verdict: 'retry' | 'wait' | 'fatal'; error?: string; haltRun?: boolean };

export interface ReplayOptions {
  /** Re-sends one entry. A rejection counts as a retryable failure. */
  execute(entry: QueueEntry): Promise<ReplayVerdict>;
  now(): number;
  /** No new entry is started after this much time has passed. */
  budgetMs: number;
  /** At most this many entries are executed per run. */
  limit: number;
  /** An entry that has failed this many times is dead-lettered. */
  maxAttempts: number;
  /** An entry older than this (by `createdAt`) is dead-lettered unsent. */
  ttlMs: number;
  /** The replay lock's stale time and the age of a dead writer's temp file. Default 5 min. */
  claimTtlMs?: number;
}

export interface ReplaySummary {
  /** Sent successfully and deleted. */
  replayed: number;
  /** Refused and kept with attempts+1. */
  retried: number;
  /** Not answered (down, slow, transient status, busy writer): kept, no attempt counted. */
  waiting: number;
  /** Moved to `dead/` (expired, too many attempts, fatal, unreadable). */
  deadLettered: number;
  /** Not attempted this run: budget, limit, halted run, or an earlier entry of the same session waits. */
  deferred: number;
  /** Entries left in the queue (pending + claimed) after the run. */
  remaining: number;
  /** Abandoned claims returned to the queue. */
  reclaimed: number;
  /** Another replayer was running; nothing was done. */
  busy: boolean;
  /** File-system problems met and survived, for the debug log. */
  problems: string[];
}

export const DEFAULT_CLAIM_TTL_MS = 5 * 60_000;

/** Runs one replay pass; never throws. */
export async function replay(queueDir: string, options: ReplayOptions): Promise<ReplaySummary> {
  const paths = queuePaths(queueDir);
  const claimTtlMs = options.claimTtlMs ?? DEFAULT_CLAIM_TTL_MS;
  const summary: ReplaySummary = {
    replayed: 0,
    retried: 0,
    waiting: 0,
    deadLettered: 0,
    deferred: 0,
    remaining: 0,
    reclaimed: 0,
    busy: false,
    problems: [],
  };
  const lock = await tryLock(paths.replayLock, { now: options.now, staleMs: claimTtlMs });
  if (lock.ok) {
    try {
      await runPass(paths, { ...options, claimTtlMs }, summary, lock.handle);
    } catch (error) {
      summary.problems.push(errorMessage(error));
    } finally {
      await lock.handle.release();
    }
  } else if (lock.reason === 'busy') {
    summary.busy = true;
  } else {
    summary.problems.push(`replay lock: ${lock.message}`);
  }
  try {
    summary.remaining = (await listDir(paths.pendingDir)).filter((name) => parseEntryName(name) !== undefined).length;
  } catch (error) {
    summary.problems.push(errorMessage(error));
  }
  return summary;
}

type PassOptions = ReplayOptions & { claimTtlMs: number };

interface PassState {
  paths: QueuePaths;
  lock: LockHandle;
  options: PassOptions;
  summary: ReplaySummary;
  /** Sessions whose next entry must wait for a later run. */
  blocked: Set<string>;
}

async function runPass(
  paths: QueuePaths,
  options: PassOptions,
  summary: ReplaySummary,
  lock: LockHandle,
): Promise<void> {
  const started = options.now();
  const pass: PassState = { paths, lock, options, summary, blocked: new Set() };
  await returnAbandonedClaims(pass);
  await sweepTempFiles(paths.pendingDir, pass);
  await sweepTempFiles(paths.deadDir, pass);
  const names = (await listDir(paths.pendingDir)).filter((name) => parseEntryName(name)?.claimed === false).sort();
  let executed = 0;
  let halted = false;
  for (const name of names) {
    if (halted || executed >= options.limit || options.now() - started >= options.budgetMs) {
      summary.deferred++;
      continue;
    }
    const step = await replayEntry(pass, name.slice(0, -PENDING_SUFFIX.length));
    if (step !== 'skipped') executed++;
    halted = step === 'halt';
  }
}

/** Every claim found under the replay lock was left by a replayer that is gone: back to the queue. */
async function returnAbandonedClaims(pass: PassState): Promise<void> {
  const { pendingDir } = pass.paths;
  for (const name of await listDir(pendingDir)) {
    const parsed = parseEntryName(name);
    if (!parsed?.claimed) continue;
    const claimedPath = join(pendingDir, name);
    if ((await mtimeOf(claimedPath)) === undefined) continue; // gone meanwhile
    const pendingPath = join(pendingDir, `${parsed.base}${PENDING_SUFFIX}`);
    // A pending copy beside the claim is the newer one (a retry rewrote it before dying).
    if ((await mtimeOf(pendingPath)) !== undefined)
      await unlink(claimedPath).catch(() => undefined); // gone already: fine
    else await rename(claimedPath, pendingPath);
    pass.summary.reclaimed++;
  }
}

type Step = 'skipped' | 'executed' | 'halt';

async function replayEntry(pass: PassState, base: string): Promise<Step> {
  const { paths, options, summary } = pass;
  const pendingPath = join(paths.pendingDir, `${base}${PENDING_SUFFIX}`);
  const claimedPath = join(paths.pendingDir, `${base}${CLAIMED_SUFFIX}`);
  try {
    await rename(pendingPath, claimedPath);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'skipped'; // taken or removed meanwhile
    throw error;
  }
  await setMtime(claimedPath, options.now()); // the claim's age starts now (rename keeps the old mtime)
  const claim: Claim = { pass, base, pendingPath, claimedPath };
  const raw = await readFile(claimedPath, 'utf8');
  const entry = toQueueEntry(parseJson(raw));
  if (!entry) return deadLetter(claim, { reason: 'corrupt', raw }).then(() => 'skipped');
  if (pass.blocked.has(entry.sessionId)) {
    await rename(claimedPath, pendingPath);
    summary.deferred++;
    return 'skipped';
  }
  if (options.now() - (entry.requeuedAt ?? entry.createdAt) > options.ttlMs)
    return deadLetter(claim, { reason: 'expired', entry }).then(() => 'skipped');
  if (entry.attempts >= options.maxAttempts)
    return deadLetter(claim, { reason: 'max-attempts', entry }).then(() => 'skipped');
  const outcome = await runExecute(options, entry);
  // Reclaimed while we were stopped: the new replayer owns the entry now (capture's inflight record says what landed).
  if (!(await pass.lock.refresh())) return 'halt';
  if (outcome.verdict === 'done') {
    await unlink(claimedPath);
    summary.replayed++;
  } else if (outcome.verdict === 'fatal') {
    await deadLetter(claim, { reason: 'fatal', entry, error: outcome.error });
  } else {
    pass.blocked.add(entry.sessionId);
    await keepForRetry(claim, entry, outcome.verdict === 'retry', outcome.error);
  }
  return outcome.haltRun ? 'halt' : 'executed';
}

interface Claim {
  pass: PassState;
  base: string;
  pendingPath: string;
  claimedPath: string;
}

interface Outcome {
  verdict: 'done' | 'retry' | 'wait' | 'fatal';
  error?: string;
  haltRun: boolean;
}

async function runExecute(options: PassOptions, entry: QueueEntry): Promise<Outcome> {
  let verdict: ReplayVerdict;
  try {
    verdict = await options.execute(entry);
  } catch (error) {
    return { verdict: 'retry', error: redactError(errorMessage(error)), haltRun: false };
  }
  if (verdict === 'done' || verdict === 'retry' || verdict === 'wait' || verdict === 'fatal')
    return { verdict, haltRun: false };
  if (
    typeof verdict === 'object' &&
    verdict !== null &&
    (verdict.verdict === 'retry' || verdict.verdict === 'wait' || verdict.verdict === 'fatal')
  ) {
    return {
      verdict: verdict.verdict,
      haltRun: verdict.haltRun === true,
      ...(verdict.error ? { error: redactError(verdict.error) } : {}),
    };
  }
  return { verdict: 'retry', error: `execute returned ${JSON.stringify(verdict)}`, haltRun: false };
}

/** Back to the queue; `counted` (a refusal) adds an attempt and may dead-letter it. */
async function keepForRetry(
  claim: Claim,
  entry: QueueEntry,
  counted: boolean,
  error: string | undefined,
): Promise<void> {
  const updated: QueueEntry = {
    ...entry,
    attempts: entry.attempts + (counted ? 1 : 0),
    ...(error ? { lastError: error } : {}),
  };
  if (counted && updated.attempts >= claim.pass.options.maxAttempts) {
    await deadLetter(claim, { reason: 'max-attempts', entry: updated, ...(error ? { error } : {}) });
    return;
  }
  await writeJsonAtomic(claim.pendingPath, updated);
  await unlink(claim.claimedPath);
  claim.pass.summary[counted ? 'retried' : 'waiting']++;
}

/** Moves the claimed entry to `dead/`; if that write fails it goes back to the queue instead. */
async function deadLetter(claim: Claim, letter: Pick<DeadLetter, 'reason' | 'entry' | 'raw' | 'error'>): Promise<void> {
  const { paths, options, summary } = claim.pass;
  const deadAt = options.now();
  const record: DeadLetter = { reason: letter.reason, deadAt, file: `${claim.base}${PENDING_SUFFIX}` };
  if (letter.error !== undefined) record.error = letter.error;
  if (letter.entry !== undefined) record.entry = letter.entry;
  if (letter.raw !== undefined) record.raw = letter.raw;
  try {
    await writeJsonAtomic(join(paths.deadDir, deadLetterName(deadAt, claim.base)), record);
  } catch (error) {
    summary.problems.push(`dead letter for ${claim.base}: ${errorMessage(error)}`);
    await rename(claim.claimedPath, claim.pendingPath);
    return;
  }
  await unlink(claim.claimedPath);
  summary.deadLettered++;
}

/** Removes temp files left by writers that died (older than the claim TTL). */
async function sweepTempFiles(dir: string, pass: PassState): Promise<void> {
  for (const name of await listDir(dir)) {
    if (!name.endsWith(TEMP_SUFFIX)) continue;
    const path = join(dir, name);
    const modifiedAt = await mtimeOf(path);
    if (modifiedAt !== undefined && pass.options.now() - modifiedAt > pass.options.claimTtlMs) {
      await unlink(path).catch(() => undefined); // another sweeper was first
    }
  }
}
