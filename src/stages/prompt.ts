/**
 * UserPromptSubmit: recall memories relevant to the prompt and put them in
 * front of the model.
 *
 * On CodeBuddy a UserPromptSubmit hook past its timeout DROPS the user's
 * prompt (codebuddy-host README §3), so this stage has its own deadline
 * (`promptDeadlineMs`, default 2 s) far inside the hook's: a slow or dead
 * server costs the user at most that delay and no context, never the
 * prompt. The skip rules run first with no network (recall/skip.ts), and
 * what recall knows of the server is read then (recall/known.ts); the
 * common path is then ONE round trip (the context face, no `/health`
 * pre-check; a short prompt's query carries the exchange before it, D43);
 * what it learned and the small status write for the status
 * line are handed to `afterAnswer`, so the resident helper (DESIGN D16)
 * replies before them.
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
import { readRecallKnown, rememberRecall, type RecallKnown } from '../recall/known.js';
import { followUpQuery } from '../recall/followUp.js';
import { decideRecall, MAX_QUERY_CHARS, type RecallSkipReason } from '../recall/skip.js';
import { recordRecall } from '../recall/status.js';
import { openStageContext, recallPeers } from '../session/stageContext.js';
import { recordInjection, type InjectedItem } from '../why/record.js';
import type { StageContext } from '../session/stageContext.js';
import { errorMessage } from '../util/errors.js';

/** Grace after the deadline for the client's cut-off to land before a recall is given up regardless. */
const SETTLE_GRACE_MS = 150;

/** How long a recall may run from `now`: to the plan's deadline, and the grace. The stage and the hooks module wait this. */
export function recallWaitMs(ctx: Pick<StageContext, 'deadlineAt'>, now: number): number {
  return Math.max(0, ctx.deadlineAt - now) + SETTLE_GRACE_MS;
}

/**
 * What a prompt gets: no recall (and why), or the context to recall for, the
 * filtered query, what is known, and the key that marks the block as ours
 * (recall/blockMark.ts) when one is there or could be made.
 */
export type RecallPlan =
  | { ctx: StageContext; recall: false; reason: RecallSkipReason }
  | { ctx: StageContext; recall: true; query: string; known: RecallKnown; markKey?: string };

/** A plan that recalls. */
export type Recalling = Extract<RecallPlan, { recall: true }>;

/** The recall block and what it holds, for the why record and the hooks module's card. */
export interface RecallAnswer {
  text: string;
  items: InjectedItem[];
}

/**
 * The stage's synchronous part: configuration, project, the skip rules and
 * what recall knows, no network (the hooks module runs it against its file
 * snapshot, D30).
 */
export function planRecall(input: UserPromptSubmitInput, deps: StageDeps): RecallPlan {
  const ctx = openStageContext(input, deps, (settings) => settings.promptDeadlineMs);
  const decision = decideRecall(input, ctx.settings, ctx.workspace);
  if (!decision.recall) return { ctx, ...decision };
  const markKey = ctx.ovSessionId !== '' ? ensureMarkKey(ctx.dataDir) : undefined;
  return {
    ctx,
    ...decision,
    known: readRecallKnown(ctx.dataDir, ctx.config.credentials, deps.now()),
    ...(markKey !== undefined ? { markKey } : {}),
  };
}

/** @param startResident - the relay's "no resident listened": start one, if the configuration wants residents and recall here. */
export async function runPrompt(input: HookInput, deps: StageDeps, startResident?: () => void): Promise<StageResult> {
  if (input.hook_event_name !== 'UserPromptSubmit') return PASS;
  try {
    const plan = planRecall(input, deps);
    const { ctx } = plan;
    if (startResident !== undefined && ctx.settings.resident && ctx.settings.enabled && ctx.settings.autoRecall)
      startResident();
    if (!plan.recall) {
      deps.log.debug('recall skipped', { reason: plan.reason });
      return PASS;
    }
    const answer = await withTimeout(
      withRecentTurn(plan, input.transcript_path, deps).then((planned) =>
        recallFor(planned, deps, hookContextCap(hostFromEnv(deps.env))),
      ),
      recallWaitMs(ctx, deps.now()),
      undefined,
    );
    return answer === undefined ? PASS : { kind: 'context', text: answer.text };
  } catch (error: unknown) {
    deps.log.warn('recall failed; passing the prompt through', { error: errorMessage(error) });
    return PASS;
  }
}

/**
 * The plan with its query formed from the prompt and, for a short prompt, the
 * exchange before it in the session's transcript (recall/followUp.ts, D43).
 * The hooks module recalls for the prompt alone (its deps read no files).
 */
export async function withRecentTurn(
  plan: Recalling,
  transcriptPath: string | undefined,
  deps: Pick<StageDeps, 'readLastExchange'>,
): Promise<Recalling> {
  if (transcriptPath === undefined || transcriptPath === '' || deps.readLastExchange === undefined) return plan;
  const query = followUpQuery(plan.query, await deps.readLastExchange(transcriptPath), MAX_QUERY_CHARS);
  return query === plan.query ? plan : { ...plan, query };
}

/**
 * One recall for the plan's query: the search, what it learned and the
 * status and why records (after the answer; both say which process
 * answered, `deps.runner`), and the block within `cap`
 * UTF-16 units (undefined: the token budget alone), marked as ours with the
 * plan's `markKey`; undefined when nothing is to be injected.
 */
export async function recallFor(
  plan: Recalling,
  deps: StageDeps,
  cap: number | undefined,
): Promise<RecallAnswer | undefined> {
  const { ctx, query, markKey } = plan;
  const { outcome, learned } = await recallMemories({
    client: ctx.client,
    settings: ctx.settings,
    credentials: ctx.config.credentials,
    known: plan.known,
    ovSessionId: ctx.ovSessionId,
    query,
    ...recallPeers(ctx, deps),
  });
  const at = deps.now();
  const by = deps.runner ?? 'hook';
  deps.afterAnswer(() => rememberRecall(ctx.dataDir, ctx.config.credentials, learned, at));
  deps.afterAnswer(() => recordRecall(ctx.dataDir, ctx.ovSessionId, outcome, at, ctx.config.credentials.baseUrl, by));
  if (outcome.status === 'failed') {
    deps.log.warn('recall failed; no memories for this prompt', {
      tier: outcome.tier,
      code: outcome.failure.code,
      status: outcome.failure.status,
    });
    return undefined;
  }
  deps.log.debug('recall done', {
    tier: outcome.tier,
    hits: outcome.status === 'hits' ? outcome.items.length : 0,
    by,
  });
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
      by,
      items,
      text,
    }),
  );
  return { text, items };
}
