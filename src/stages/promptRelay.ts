/**
 * UserPromptSubmit as the hook process runs it: hand the event to the
 * resident of this configuration (DESIGN D16) and answer with its result;
 * when none listens, start one and run the prompt stage here.
 *
 * This file is part of the hook entry, so a prompt answered by the resident
 * loads no stage code, no socket module and no config file. The resident
 * runs the same `runPrompt` (stages/prompt.ts) with this hook's per-session
 * variables and cwd, so both ways give the same answer; tests run the
 * prompt suite both ways.
 *
 * The wait for the resident ends well inside the route's budget (routes.ts,
 * 8 s): a resident that took the request but answers late costs this prompt
 * its memories, never the prompt itself, and is retired (resident/client.ts).
 *
 * @module
 */
import type { StageDeps, StageResult } from '../protocol/stage.js';
import { PASS } from '../protocol/stage.js';
import type { HookInput } from '../protocol/input.js';
import { askResident } from '../resident/client.js';
import { requestEnvironment, residentKey, residentPaths } from '../resident/identity.js';
import { launchResident, residentWanted } from '../resident/launch.js';
import { resolveDataDir } from '../store/paths.js';

/**
 * Longest wait for the resident's reply (the resident caps a request at
 * REQUEST_CAP_MS, less than this). Under the route's 8 s budget, and under
 * the 10 s hook timeout even after the slowest stdin read (2.5 s): checked
 * in tests/hook/contract.test.ts.
 */
export const RESIDENT_WAIT_MS = 6_000;

/**
 * Synchronous when the resident answers (or is late), so the dispatcher
 * arms no timer; a promise only when the stage runs here.
 */
export function runPromptRelay(input: HookInput, deps: StageDeps): StageResult | Promise<StageResult> {
  if (input.hook_event_name !== 'UserPromptSubmit') return PASS;
  let startResident: (() => void) | undefined;
  if (residentWanted(deps)) {
    const dataDir = resolveDataDir(deps.env, deps.homeDir);
    const key = residentKey(deps.env, deps.pluginRoot);
    const answer = askResident({
      dataDir,
      key,
      request: { input, cwd: deps.cwd, env: requestEnvironment(deps.env) },
      waitMs: RESIDENT_WAIT_MS,
      monotonicMs: deps.monotonicMs ?? deps.now,
      pid: deps.pid,
      pipeAtomicBytes: deps.pipeAtomicBytes,
    });
    if (answer.kind === 'answered') return answer.result;
    if (answer.kind === 'late') {
      deps.log.warn('resident answered late; the prompt goes on without memories', { waitedMs: RESIDENT_WAIT_MS });
      return PASS;
    }
    if (answer.kind === 'failed') {
      deps.log.warn('resident could not write its answer (disk full?); recall runs in the hook');
    } else {
      deps.log.debug('no resident listening; recall runs in the hook', { reason: answer.reason });
      // Started by the stage once it read the configuration: the `resident` knob may be off in ovcli.conf.
      startResident = () => launchResident(deps, residentPaths(dataDir, key));
    }
  }
  return import('./prompt.js').then(({ runPrompt }) => runPrompt(input, deps, startResident));
}
