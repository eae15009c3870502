/**
 * `node scripts/hook.mjs learned` and `/openviking:learned` (DESIGN D36):
 * what recent sessions of this folder taught, as this folder's prompt and
 * start see the server (configuration, project, switches). Memory off or
 * the session bypassed here: nothing is asked. The listing itself is
 * learned/list.ts; what it learned is kept in the folder's ledger.
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import { listLearned } from '../learned/list.js';
import { openStageContext } from '../session/stageContext.js';
import { memoryOffReason } from '../session/switches.js';
import { readLearned, saveOutcomes } from '../store/learned.js';

/** The whole listing's budget: a few rounds of requests. */
const LEARNED_TIMEOUT_MS = 20_000;

/** The listing; it takes no arguments (the command line refuses any: hook/commands.ts). */
export async function learnedCommand(deps: StageDeps): Promise<{ text: string; code: number }> {
  const ctx = openStageContext({ hook_event_name: 'SessionStart' }, deps, () => LEARNED_TIMEOUT_MS);
  const { config, project, workspace } = ctx;
  const off = memoryOffReason({ config, project, workspace });
  if (off !== undefined) return { text: `OpenViking memory is off here (${off}), so nothing was asked.\n`, code: 0 };
  const listed = await listLearned(readLearned(ctx.dataDir, workspace), ctx.client, deps.now, workspace);
  saveOutcomes(ctx.dataDir, workspace, listed.ledger);
  return { text: listed.text, code: 0 };
}
