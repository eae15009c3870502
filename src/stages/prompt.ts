/**
 * UserPromptSubmit: recall memories relevant to the prompt and put them in
 * front of the model.
 *
 * On CodeBuddy a UserPromptSubmit hook past its timeout DROPS the user's
 * prompt (codebuddy-host README §3), so this stage has its own deadline
 * (`promptDeadlineMs`, default 2 s) far inside the hook's: a slow or dead
 * server costs the user at most that delay and no context, never the
 * prompt. The skip rules run first with no network (recall/skip.ts); the
 * common path is then ONE round trip (the context face, no `/health`
 * pre-check); the small status write for the status line is handed to
 * `afterAnswer`, so the resident helper (DESIGN D16) replies before it.
 *
 * @module
 */
import type { StageDeps, StageResult } from '../protocol/stage.js';
import { PASS } from '../protocol/stage.js';
import { hookContextCap, hostFromEnv, toolNamesFor } from '../protocol/hostTools.js';
import type { HookInput, UserPromptSubmitInput } from '../protocol/input.js';
import { withTimeout } from '../util/withTimeout.js';
import { renderRecallBlock } from '../recall/block.js';
import { blockMark, ensureMarkKey } from '../recall/blockMark.js';
import { recallMemories } from '../recall/cascade.js';
import { decideRecall, type RecallDecision } from '../recall/skip.js';
import { recordRecall } from '../recall/status.js';
import { openStageContext, recallPeers } from '../session/stageContext.js';
import { recordInjection, type InjectedItem } from '../why/record.js';
import type { StageContext } from '../session/stageContext.js';
import { errorMessage } from '../util/errors.js';

/** Grace after the deadline for the client's cut-off to land before the stage gives up regardless. */
const SETTLE_GRACE_MS = 150;

/**
 * What a prompt gets: no recall (and why), or the context to recall for and
 * the filtered query, with the key that marks the block as ours
 * (recall/blockMark.ts) when one is there or could be made.
 */
export type RecallPlan = { ctx: StageContext; decision: RecallDecision; markKey?: string };

/** The recall block and what it holds, for the why record and the hooks module's card. */
export interface RecallAnswer {
  text: string;
  items: InjectedItem[];
}

/**
 * The stage's synchronous part: configuration, project and the skip rules,
 * no network (the hooks module runs it against its file snapshot, D30).
 */
export function planRecall(input: UserPromptSubmitInput, deps: StageDeps): RecallPlan {
  const ctx = openStageContext(input, deps, (settings) => settings.promptDeadlineMs);
  const decision = decideRecall(input, ctx.settings, ctx.workspace);
  const markKey = decision.recall && ctx.ovSessionId !== '' ? ensureMarkKey(ctx.dataDir) : undefined;
  return { ctx, decision, ...(markKey !== undefined ? { markKey } : {}) };
}

/** @param startResident - the relay's "no resident listened": start one, if the configuration wants residents and recall here. */
export async function runPrompt(input: HookInput, deps: StageDeps, startResident?: () => void): Promise<StageResult> {
  if (input.hook_event_name !== 'UserPromptSubmit') return PASS;
  try {
    const { ctx, decision, markKey } = planRecall(input, deps);
    if (startResident !== undefined && ctx.settings.resident && ctx.settings.enabled && ctx.settings.autoRecall)
      startResident();
    if (!decision.recall) {
      deps.log.debug('recall skipped', { reason: decision.reason });
      return PASS;
    }
    const answer = await withTimeout(
      recallFor(ctx, decision.query, deps, hookContextCap(hostFromEnv(deps.env)), markKey),
      Math.max(0, ctx.deadlineAt - deps.now()) + SETTLE_GRACE_MS,
      undefined,
    );
    return answer === undefined ? PASS : { kind: 'context', text: answer.text };
  } catch (error: unknown) {
    deps.log.warn('recall failed; passing the prompt through', { error: errorMessage(error) });
    return PASS;
  }
}

/**
 * One recall for `query`: the search, the status and why records (after the
 * answer), and the block within `cap` UTF-16 units (undefined: the token
 * budget alone), marked as ours with `markKey`; undefined when nothing is to
 * be injected.
 */
export async function recallFor(
  ctx: StageContext,
  query: string,
  deps: StageDeps,
  cap: number | undefined,
  markKey?: string,
): Promise<RecallAnswer | undefined> {
  const outcome = await recallMemories({
    client: ctx.client,
    settings: ctx.settings,
    credentials: ctx.config.credentials,
    dataDir: ctx.dataDir,
    ovSessionId: ctx.ovSessionId,
    query,
    now: deps.now,
    ...recallPeers(ctx, deps),
  });
  const at = deps.now();
  deps.afterAnswer(() => recordRecall(ctx.dataDir, ctx.ovSessionId, outcome, at, ctx.config.credentials.baseUrl));
  if (outcome.status === 'failed') {
    deps.log.warn('recall failed; no memories for this prompt', {
      tier: outcome.tier,
      code: outcome.failure.code,
      status: outcome.failure.status,
    });
    return undefined;
  }
  deps.log.debug('recall done', { tier: outcome.tier, hits: outcome.status === 'hits' ? outcome.items.length : 0 });
  if (outcome.status === 'empty') return undefined;
  const text = renderRecallBlock(
    outcome.items,
    ctx.settings.recallTokenBudget,
    toolNamesFor(hostFromEnv(deps.env), ctx.settings),
    cap,
    markKey === undefined ? undefined : (body) => blockMark(markKey, ctx.ovSessionId, body),
  );
  if (text === '') return undefined;
  const items = outcome.items.map(({ uri, score, category }) => ({
    uri,
    ...(score !== undefined ? { score } : {}),
    ...(category !== undefined ? { category } : {}),
  }));
  deps.afterAnswer(() =>
    recordInjection(ctx.dataDir, {
      session: ctx.ovSessionId,
      at,
      kind: 'recall',
      detail: query,
      workspace: ctx.workspace,
      ...(ctx.project.peerId ? { peer: ctx.project.peerId } : {}),
      items,
      text,
    }),
  );
  return { text, items };
}
