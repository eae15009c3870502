/**
 * Recall before a prompt, inside the host (`classic.UserPromptSubmit`, D30):
 * the prompt stage's own rules (stages/prompt.ts `planRecall`, `recallFor`:
 * the privacy filter, the skips, prefix mode, thresholds, budgets, the
 * project's peer and earlier ids, dedup by session, exclusions, the why and
 * status records, switches and bypass, under which no byte leaves), run
 * with the module's deps (deps.ts): the file rules against the `$.fs`
 * snapshot, the one search through the host's fetch.
 *
 * Its own deadline as in the hook (`OPENVIKING_PROMPT_DEADLINE_MS`): a slow
 * or dead server is an answer there, no memories for this prompt (the
 * client's cut at the deadline, a transport timeout). Anything else that
 * fails or outlasts the deadline by its grace throws, and the caller gives
 * the prompt to the hook commands for the rest of the session: a throw in
 * the preparation (before `next(e)`) this prompt included; a throw in the
 * search (beside `next(e)`, the hook command has stepped aside) from the
 * next prompt on, this one going without recall. Only the search, the
 * network's part, runs beside the hook commands: the preparation is local
 * and short (~5 ms), and its failures are the module's own.
 *
 * A block from the module reaches the model whole (the host caps hook
 * commands' context, not a module's, FC6), so the recall block keeps the
 * token budget alone, as on CodeBuddy (D28).
 *
 * @module
 */
import { hookInputFromJson } from '../protocol/parse.js';
import type { UserPromptSubmitInput } from '../protocol/input.js';
import { readMarkKey } from '../recall/blockMark.js';
import { recallCacheFiles } from '../recall/known.js';
import { planRecall, recallFor, recallWaitMs } from '../stages/prompt.js';
import { readJsonSync } from '../store/atomic.js';
import type { InjectedItem } from '../why/record.js';
import { bounded, LATE, PREPARE_MS, within } from './deadline.js';
import { moduleDeps } from './deps.js';
import { sessionEnv } from './env/sessionEnv.js';
import { decide } from './files/fetch.js';
import { isAbsolute } from './files/posixPath.js';
import { switchFiles } from './files/switchFiles.js';
import type { ClassicInput, Engine } from './host.js';

export interface ModuleRecall {
  /** The block ('' when there is none: nothing recalled, or the prompt is skipped). */
  text: string;
  items: InjectedItem[];
  /** The status and why records, for after the answer (after.ts). */
  afterAnswer: Array<() => unknown>;
}

/** The payload, when it is a prompt the module can recall for: a session folder the POSIX port can walk (posixPath.ts). */
export function promptOf(e: ClassicInput): UserPromptSubmitInput | undefined {
  const input = hookInputFromJson(e);
  if (input?.hook_event_name !== 'UserPromptSubmit' || typeof input.cwd !== 'string' || !isAbsolute(input.cwd))
    return undefined;
  return input;
}

/**
 * Recall for `input` in two steps: the preparation (local: the environment,
 * the switch files looked at again, the plan; bounded), whose throw leaves
 * the prompt to the hook command; then the search, which the caller runs
 * beside `next(e)` (classic.ts), whose throw costs this prompt its recall.
 */
export async function prepareRecall($: Engine, input: UserPromptSubmitInput): Promise<() => Promise<ModuleRecall>> {
  const cwd = input.cwd as string;
  const { plan, deps, afterAnswer } = await bounded($, prepare($, input, cwd), PREPARE_MS, 'preparing recall');
  if (!plan.recall) {
    deps.log.debug('recall skipped', { reason: plan.reason });
    return async () => ({ text: '', items: [], afterAnswer: [] });
  }
  return async () => {
    const answer = await within($, recallFor(plan, deps, undefined), recallWaitMs(plan.ctx, deps.now()));
    if (answer === LATE) throw new Error('recall ran past its deadline');
    return { text: answer?.text ?? '', items: answer?.items ?? [], afterAnswer };
  };
}

/** The environment, the deps and the plan (what recall knows of the server included), from the file snapshot (local work, bounded by the caller). */
async function prepare($: Engine, input: UserPromptSubmitInput, cwd: string) {
  const view = await sessionEnv($);
  const { deps, afterAnswer } = moduleDeps($, view, cwd);
  const plan = await decide($, cwd, () => planRecall(input, deps), switchFiles(view));
  return { view, plan, deps, afterAnswer };
}

/** Reads the caches a recall's plan reads (recall/known.ts) and the key that marks its block (recall/blockMark.ts), inside a run: the start reads them ahead for the first prompt. */
export function readRecallCaches(dataDir: string): void {
  for (const file of recallCacheFiles(dataDir)) readJsonSync(file);
  readMarkKey(dataDir);
}
