/**
 * What the session start's block is, shared by the SessionStart stage
 * (start.ts, which adds the housekeeping: replay, commit-stale, the resident)
 * and the hooks module (D30): the plan (configuration, project, whether
 * memory is off here, the source), the reads and the block, and what a start
 * leaves after its answer (the why record, whether the server answered).
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import type { SessionStartInput } from '../protocol/input.js';
import { hostFromEnv, toolNamesFor } from '../protocol/hostTools.js';
import { fetchArchiveOverview, fetchProfileFor } from '../profile/fetch.js';
import type { ProfileSources } from '../profile/fetch.js';
import { renderStartBlock } from '../profile/render.js';
import { openStageContext, type StageContext } from '../session/stageContext.js';
import { memoryOffReason } from '../session/switches.js';
import { recordInjection, urisIn } from '../why/record.js';
import { sessionStateFile, storeLayout } from '../store/paths.js';
import { recordServerStatus, type ServerStatus } from '../store/status.js';
import { recordUnapproved } from '../project/trustMarks.js';

/** Grace after the deadline for the client's cut-off and the file writes to land before a start is given up regardless. */
const SETTLE_GRACE_MS = 200;

/** Sources whose block adds the session's latest archive overview. */
const ARCHIVE_SOURCES = new Set(['resume', 'compact']);

export interface StartPlan {
  ctx: StageContext;
  /** `startup`, `resume`, `compact`, `clear` (the host's word; `startup` when it sent none). */
  source: string;
  /** Why memory is off for this session or folder (nothing is sent then), or undefined. */
  off?: string;
}

/** The synchronous part: configuration, project, switches; no network. */
export function planStart(input: SessionStartInput, deps: StageDeps): StartPlan {
  const ctx = openStageContext(input, deps, (settings) => settings.startDeadlineMs);
  const off = memoryOffReason({
    config: ctx.config,
    project: ctx.project,
    sessionId: ctx.hostSessionId,
    workspace: ctx.workspace,
  });
  return { ctx, source: startSource(input), ...(off !== undefined ? { off } : {}) };
}

/** The start's `source`: the host's word, `startup` when it sent none. The stage's stored answers and the hooks module's deliveries in flight are kept by it. */
export function startSource(input: Pick<SessionStartInput, 'source'>): string {
  const given = typeof input.source === 'string' ? input.source.trim() : '';
  return given === '' ? 'startup' : given;
}

/** How long a start may run from `now`: to the plan's deadline, and the grace. The stage and the hooks module wait this. */
export function startWaitMs(ctx: Pick<StageContext, 'deadlineAt'>, now: number): number {
  return Math.max(0, ctx.deadlineAt - now) + SETTLE_GRACE_MS;
}

/** Whether `now` is past the start's wait: its answer, if any, is no longer waited for. */
export function pastStartWait(ctx: Pick<StageContext, 'deadlineAt'>, now: number): boolean {
  return now > ctx.deadlineAt + SETTLE_GRACE_MS;
}

/** The session's stored start answers (profile/startState.ts), which make a repeated delivery answer the same. */
export function startStateFile(ctx: Pick<StageContext, 'dataDir' | 'ovSessionId'>): string {
  return sessionStateFile(storeLayout(ctx.dataDir), `${ctx.ovSessionId}#start`);
}

/**
 * The start block's reads (profile and listings, the archive overview on
 * resume and compact) in parallel, and the block within `cap` UTF-16 units
 * (undefined: the token budgets alone). `whileReading` runs once the reads
 * are on the wire. The hooks module calls this alone (D30): the
 * housekeeping stays with the hook command.
 */
export async function readStartBlock(
  ctx: StageContext,
  source: string,
  deps: StageDeps,
  cap: number | undefined,
  whileReading?: () => Promise<void>,
): Promise<string> {
  const fetched = Promise.all([
    ctx.settings.autoProfile ? fetchProfile(ctx, deps) : undefined,
    ARCHIVE_SOURCES.has(source)
      ? fetchArchiveOverview(ctx.client, ctx.ovSessionId, ctx.settings.resumeContextBudget)
      : undefined,
  ]);
  await whileReading?.();
  const [profile, archiveOverview] = await fetched;
  return renderStartBlock(
    {
      source,
      tools: toolNamesFor(hostFromEnv(deps.env), ctx.settings),
      ...(profile ? { profile } : {}),
      ...(archiveOverview ? { archiveOverview } : {}),
    },
    {
      profileTokens: ctx.settings.profileTokenBudget,
      archiveTokens: ctx.settings.resumeContextBudget,
      ...(cap !== undefined ? { maxUnits: cap } : {}),
    },
  );
}

/** After the answer: the why record of the block (saying which process answered), and whether the server answered (a headless run never recalls, so start says it). */
export function recordStart(
  ctx: StageContext,
  deps: StageDeps,
  source: string,
  text: string,
  seen: ServerStatus | undefined,
): void {
  if (text !== '')
    deps.afterAnswer(() =>
      recordInjection(ctx.dataDir, {
        session: ctx.ovSessionId,
        at: deps.now(),
        kind: 'start',
        detail: source,
        workspace: ctx.workspace,
        ...(ctx.project.peerId ? { peer: ctx.project.peerId } : {}),
        by: deps.runner ?? 'hook',
        items: urisIn(text),
        text,
      }),
    );
  if (seen !== undefined) deps.afterAnswer(() => recordServerStatus(ctx.dataDir, seen, ctx.config.credentials.baseUrl));
  // A workspace peer waiting for the user's approval, for the status line (D32); nothing written otherwise.
  deps.afterAnswer(() => recordUnapproved(ctx.dataDir, ctx.ovSessionId, ctx.project.unapproved, deps.now()));
}

function fetchProfile(ctx: StageContext, deps: StageDeps): Promise<ProfileSources | undefined> {
  return fetchProfileFor(ctx.client, { dataDir: ctx.dataDir, credentials: ctx.config.credentials, now: deps.now() });
}
