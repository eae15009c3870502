/**
 * `node scripts/hook.mjs import` and `/openviking:import` (DESIGN D35): past
 * CodeBuddy and Claude Code sessions of this folder's workspace (or, with
 * `--all`, of every workspace) into OpenViking, each into the session id
 * live capture would have used, exactly once, then committed so the server
 * extracts memories. A lazy module of its own (scripts/lazy/import.cjs).
 *
 * 1. The global switches (memory, capture) first: off, nothing is read.
 * 2. One import at a time per data directory (its lock; a second one says
 *    who runs and stops); the server must answer before anything starts.
 * 3. Every transcript judged (judge.ts: skipped and why, or a candidate),
 *    then the candidates imported, IMPORT_JOBS at a time (session.ts).
 *    A session the server refuses for now (429, 503, no answer) pauses
 *    every job (backoff.ts) and is tried again; a server that keeps
 *    refusing ends the import with what is left unstarted.
 * 4. Progress on the terminal and in the status file (progress.ts); the
 *    summary (summary.ts) printed, and kept for `--status`.
 *
 * `--dry-run` judges without asking the server and counts what would be
 * sent (dryRun.ts); `--background` starts the same command detached and
 * returns; `--status` reads the status file.
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import { captureEnvFor } from '../capture/env.js';
import { loadStageConfig } from '../session/stageContext.js';
import { resolveWorkspace } from '../session/workspace.js';
import { importRunning, readImportStatus } from '../store/importStatus.js';
import { tryLock } from '../store/lock.js';
import { resolveDataDir, sessionLockFile, storeLayout } from '../store/paths.js';
import { settingText } from '../session/switches.js';
import { importArgv, importOptions, type ImportFlags, type ImportOptions } from './args.js';
import { Backoff } from './backoff.js';
import { wouldSend } from './dryRun.js';
import { judge, type Candidate, type JudgeContext } from './judge.js';
import { writeImportRecord } from './ledger.js';
import { formatBytes, Progress, type Terminal } from './progress.js';
import { listTranscripts } from './scan.js';
import { importSession, type SessionImport } from './session.js';
import { dryRunText, emptyTally, summaryText, tallySession, tallySkip, type ImportTally } from './summary.js';

export type { Terminal } from './progress.js';

/** Sessions imported side by side. */
export const IMPORT_JOBS = 4;
/** An import's whole budget: no batch starts after it. */
const IMPORT_DEADLINE_MS = 12 * 60 * 60_000;
/** How long a second import waits for the first one's lock: not at all. */
const LOCK_STALE_MS = 10 * 60_000;

export interface ImportResult {
  text: string;
  code: number;
  /** A problem with the flags: the command line prints it with the usage (hook/cli.ts). */
  usage?: string;
}

/** What one run of the command works with. */
interface ImportContext {
  options: ImportOptions;
  deps: StageDeps;
  config: PluginConfig;
  dataDir: string;
  /** The workspace asked for; undefined with `--all`. */
  workspace?: string;
  /** How the summary names what was covered. */
  scope: string;
}

export async function runImport(
  flags: ImportFlags,
  deps: StageDeps,
  terminal: Terminal | undefined,
): Promise<ImportResult> {
  const options = importOptions(flags);
  if ('problem' in options) return { text: '', code: 2, usage: options.problem };
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  if (options.status) return statusReport(dataDir, deps.now());
  const config = loadStageConfig(deps);
  const off = globallyOff(config);
  if (off !== undefined) return { text: `Nothing imported: ${off}.\n`, code: 0 };
  const workspace = options.all ? undefined : resolveWorkspace({}, deps.env, deps.cwd);
  const ctx: ImportContext = {
    options,
    deps,
    config,
    dataDir,
    scope: workspace ?? 'every workspace',
    ...(workspace !== undefined ? { workspace } : {}),
  };
  if (options.dryRun) return dryRun(ctx);
  if (options.background) return startInBackground(ctx);
  const lock = await tryLock(sessionLockFile(storeLayout(dataDir), 'import', 'import'), {
    now: deps.now,
    staleMs: LOCK_STALE_MS,
  });
  if (!lock.ok)
    return {
      text:
        lock.reason === 'busy'
          ? `Another import is running here${lock.holder?.pid === undefined ? '' : ` (pid ${lock.holder.pid})`}; nothing started. \`node scripts/hook.mjs import --status\` shows how it is doing.\n`
          : `Nothing imported: the import lock could not be taken (${lock.message}).\n`,
      code: 1,
    };
  try {
    return await importLocked(ctx, terminal);
  } finally {
    await lock.handle.release();
  }
}

async function importLocked(ctx: ImportContext, terminal: Terminal | undefined): Promise<ImportResult> {
  const { deps, config, dataDir } = ctx;
  const started = deps.now();
  const env = captureEnvFor(deps, config, IMPORT_DEADLINE_MS);
  const probe = await env.client.systemStatus();
  if (!probe.ok && (probe.status === 0 || probe.status >= 500))
    return { text: `Nothing imported: the server does not answer (${probe.code}: ${probe.message}).\n`, code: 1 };
  const tally = emptyTally(ctx.scope);
  const candidates = await judgeAll(ctx, tally, env.client);
  const progress = new Progress(
    terminal,
    dataDir,
    deps.now,
    deps.pid,
    candidates.length,
    candidates.reduce((sum, candidate) => sum + candidate.transcript.size, 0),
  );
  const ticker = setInterval(() => progress.tick(), 1_000);
  try {
    const backoff = new Backoff(deps.now);
    const queue = [...candidates];
    const work = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        if (backoff.gaveUp) {
          tally.notStarted += 1;
          continue;
        }
        const tries: SessionImport[] = [];
        const last = await backoff.retry(
          async () => {
            const outcome = await importSession(env, next);
            tries.push(outcome);
            return outcome;
          },
          (outcome) => outcome.status === 'queued',
        );
        const result = sumOf(tries, last);
        record(tally, next, result, dataDir, deps.now());
        progress.sessionDone(next.transcript.size, result.turns);
      }
    };
    await Promise.all(Array.from({ length: Math.min(IMPORT_JOBS, Math.max(1, candidates.length)) }, work));
  } finally {
    clearInterval(ticker);
  }
  const text = summaryText(tally, deps.now() - started);
  progress.finish(text);
  return { text, code: tally.failed.length > 0 || tally.notStarted > 0 ? 1 : 0 };
}

/** Every transcript of the scope judged: skips counted in `tally`, candidates returned (oldest first). */
async function judgeAll(ctx: ImportContext, tally: ImportTally, client: JudgeContext['client']): Promise<Candidate[]> {
  const { deps, workspace, options } = ctx;
  const judging: JudgeContext = {
    config: ctx.config,
    homeDir: deps.homeDir,
    dataDir: ctx.dataDir,
    now: deps.now(),
    liveSessionIds: liveSessions(deps.env),
    ...(workspace !== undefined ? { workspace } : {}),
    ...(options.since !== undefined ? { since: options.since } : {}),
    ...(client !== undefined ? { client } : {}),
  };
  const candidates: Candidate[] = [];
  const transcripts = listTranscripts(deps.env, deps.homeDir, workspace);
  for (let from = 0; from < transcripts.length; from += IMPORT_JOBS) {
    const judged = await Promise.all(transcripts.slice(from, from + IMPORT_JOBS).map((found) => judge(found, judging)));
    for (const judgement of judged) {
      if ('candidate' in judgement) candidates.push(judgement.candidate);
      else if ('skip' in judgement) tallySkip(tally, judgement.skip, judgement.detail);
    }
  }
  return candidates;
}

async function dryRun(ctx: ImportContext): Promise<ImportResult> {
  const tally = emptyTally(ctx.scope);
  for (const candidate of await judgeAll(ctx, tally, undefined)) {
    const counts = await wouldSend(candidate, ctx.config.settings);
    tally.skippedLines += counts.skippedLines;
    tallySession(tally, candidate.cwd, candidate.transcript.host, counts);
  }
  return { text: dryRunText(tally), code: 0 };
}

/** A session's outcome into the tally, and into the ledger once it came in whole. */
function record(tally: ImportTally, candidate: Candidate, result: SessionImport, dataDir: string, now: number): void {
  const { transcript } = candidate;
  tally.skippedLines += result.skippedLines;
  tally.deadLettered += result.deadLettered;
  const session = transcript.ovSessionId;
  switch (result.status) {
    case 'busy':
      tallySkip(tally, 'live');
      return;
    case 'failed':
      tally.failed.push({ session, error: result.lastError ?? 'stopped before its end' });
      return;
    case 'queued':
      tally.queued.push({ session, ...(result.lastError !== undefined ? { error: result.lastError } : {}) });
      return;
    case 'done':
      tallySession(tally, candidate.cwd, transcript.host, {
        turns: result.turns,
        messages: result.sent + result.queued + result.deadLettered,
        bytes: transcript.size,
      });
      writeImportRecord(dataDir, session, {
        fileId: transcript.fileId,
        size: transcript.size,
        mtimeMs: transcript.mtimeMs,
        cwd: candidate.cwd,
        at: now,
      });
  }
}

/** The counts of every try of a session (a refused try's queued writes went out on the next), with the last one's status. */
function sumOf(tries: readonly SessionImport[], last: SessionImport): SessionImport {
  const total = { ...last, sent: 0, queued: 0, deadLettered: 0, turns: 0, bytes: 0, skippedLines: 0 };
  for (const one of tries)
    for (const key of ['sent', 'queued', 'deadLettered', 'turns', 'bytes', 'skippedLines'] as const)
      total[key] += one[key];
  return total;
}

/** `--background`: the same import, detached; this returns at once. */
function startInBackground({ options, deps, dataDir, scope }: ImportContext): ImportResult {
  if (importRunning(readImportStatus(dataDir), deps.now()))
    return { text: `An import is already running here.\n${statusReport(dataDir, deps.now()).text}`, code: 1 };
  const started = deps.spawnDetached(['import', ...importArgv(options)], '');
  return started
    ? {
        text: `The import of ${scope} runs in the background now. \`node scripts/hook.mjs import --status\` (or the status line) shows how far it is; \`/openviking:learned\` later shows what the sessions taught.\n`,
        code: 0,
      }
    : {
        text: 'The import could not be started in the background; run `node scripts/hook.mjs import` instead.\n',
        code: 1,
      };
}

/** `--status`: the running import's progress, else the last one's summary. */
function statusReport(dataDir: string, now: number): ImportResult {
  const status = readImportStatus(dataDir);
  if (status === undefined) return { text: 'No import has run here yet.\n', code: 0 };
  if (importRunning(status, now))
    return {
      text: `An import is running (pid ${status.pid}, since ${new Date(status.startedAt).toISOString()}): ${status.sessionsDone}/${status.sessionsTotal} sessions, ${formatBytes(status.bytesDone)} of ${formatBytes(status.bytesTotal)}.\n`,
      code: 0,
    };
  if (status.state === 'running')
    return {
      text: `The last import (pid ${status.pid}) stopped without finishing, at ${status.sessionsDone}/${status.sessionsTotal} sessions; run it again: what it sent is not sent twice.\n`,
      code: 0,
    };
  return { text: `The last import finished ${new Date(status.at).toISOString()}:\n${status.summary ?? ''}`, code: 0 };
}

/** Memory or capture off for every folder: the import reads nothing. */
function globallyOff(config: PluginConfig): string | undefined {
  if (!config.settings.enabled) return `OpenViking memory is off (${settingText(config, 'enabled', 'false')})`;
  if (!config.settings.autoCapture) return `capture is off (${settingText(config, 'autoCapture', 'false')})`;
  return undefined;
}

/** The host session(s) this command runs in: their transcripts are live (a shell the host started knows its id). */
function liveSessions(env: Readonly<Record<string, string | undefined>>): Set<string> {
  return new Set(
    [env.CODEBUDDY_SESSION_ID, env.CLAUDE_CODE_SESSION_ID]
      .map((id) => id?.trim() ?? '')
      .filter((id) => id !== '' && !id.includes('${')),
  );
}
