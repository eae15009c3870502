/**
 * The session start's block together with the line on what earlier sessions
 * taught (learned/atStart.ts, DESIGN D36), for the SessionStart stage and the
 * hooks module alike: the one task request runs beside the block's reads,
 * under the same deadline; the ledger is saved before the answer goes out
 * (inside the stage's start lock, so a second delivery says nothing), unless
 * the start ran late and its answer is given up: then what was learned is
 * kept but nothing counts as said.
 *
 * @module
 */
import { pastStartWait } from './startBlock.js';
import type { StageDeps } from '../protocol/stage.js';
import { checkLearned, learnedAtStart, learnedReport, type LearnedAtStart } from '../learned/atStart.js';
import type { StageContext } from '../session/stageContext.js';
import { saveOutcomes } from '../store/learned.js';
import { recordActivity } from '../store/status.js';

/** A start's block, and the learned line when there is one. */
export interface StartAnswer {
  text: string;
  learned?: string;
}

/**
 * `build()` (the block) and the learned check side by side. `start` is the
 * ledger as read before (the hooks module reads it with its other files);
 * by default it is read here.
 */
export async function answerWithLearned(
  ctx: StageContext,
  deps: StageDeps,
  build: () => Promise<string>,
  start: LearnedAtStart = learnedAtStart(ctx.dataDir, ctx.workspace),
): Promise<StartAnswer> {
  const [text, checked] = await Promise.all([build(), checkLearned(start, ctx.client, deps.now)]);
  if (pastStartWait(ctx, deps.now())) {
    if (checked.changed) saveOutcomes(ctx.dataDir, ctx.workspace, checked.ledger);
    return { text };
  }
  const report = learnedReport(checked, deps.now());
  if (report.save) saveOutcomes(ctx.dataDir, ctx.workspace, report.ledger);
  if (report.memories > 0 && ctx.ovSessionId !== '')
    deps.afterAnswer(() =>
      recordActivity(ctx.dataDir, 'learned', ctx.ovSessionId, { at: deps.now(), count: report.memories }),
    );
  return report.line === undefined ? { text } : { text, learned: report.line };
}

/** The start's lines for the user (the envelope's `notice`): memory off, then what was learned. */
export function learnedNoticeWith(notice: string | undefined, learned: string | undefined): { notice?: string } {
  const lines = [notice, learned].filter((line): line is string => line !== undefined);
  return lines.length === 0 ? {} : { notice: lines.join('\n') };
}
