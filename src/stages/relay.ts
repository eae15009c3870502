/**
 * UserPromptSubmit and SessionStart as the hook process runs them: hand the
 * event to the resident of this configuration (DESIGN D16, D44) and answer
 * with its result; when none listens, run the stage here (and have one
 * started: the prompt stage starts it once it read the configuration, the
 * start stage always makes sure one runs).
 *
 * Why both: the two events the user waits on. Answered by the warm
 * resident, a hook loads no stage code, no socket module and no config
 * file, and the stage's round trips reuse the resident's open connection;
 * what is left is node's start, this entry and the server's own time. The
 * resident runs the same `runPrompt` (stages/prompt.ts) and `runStart`
 * (stages/start.ts) with this hook's per-session variables and cwd, so both
 * ways give the same answer: the prompt and start suites run both ways.
 *
 * A start whose answer nobody reads (`hook.cjs detached`, the hand-off to
 * the hooks module: `deps.offHostClock`) is not relayed: it is housekeeping
 * off the host's clock, run here.
 *
 * The wait for the resident ends well inside each route's budget (routes.ts):
 * a resident that took the request but answers late costs this prompt its
 * memories (this start its block), never the prompt itself, and is retired
 * (resident/client.ts).
 *
 * This file is part of the hook entry.
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
 * REQUEST_CAP_MS, less than this). Under the prompt route's 8 s budget and
 * the start route's 12 s, and under the 10 s hook timeout even after the
 * slowest stdin read (2.5 s): checked in tests/hook/contract.test.ts.
 */
export const RESIDENT_WAIT_MS = 6_000;

/** What the relay does when no resident answers: run the stage here; `startResident` when none listened. */
type RunHere = (startResident: (() => void) | undefined) => Promise<StageResult>;

/**
 * Synchronous when the resident answers (or is late), so the dispatcher
 * arms no timer; a promise only when the stage runs here.
 */
export function runPromptRelay(input: HookInput, deps: StageDeps): StageResult | Promise<StageResult> {
  if (input.hook_event_name !== 'UserPromptSubmit') return PASS;
  return relay(input, deps, (startResident) =>
    import('./prompt.js').then(({ runPrompt }) => runPrompt(input, deps, startResident)),
  );
}

/** The same for SessionStart; the start stage run here makes sure a resident runs (stages/start.ts). */
export function runStartRelay(input: HookInput, deps: StageDeps): StageResult | Promise<StageResult> {
  if (input.hook_event_name !== 'SessionStart') return PASS;
  const runHere: RunHere = () => import('./start.js').then(({ runStart }) => runStart(input, deps));
  return deps.offHostClock === true ? runHere(undefined) : relay(input, deps, runHere);
}

function relay(input: HookInput, deps: StageDeps, runHere: RunHere): StageResult | Promise<StageResult> {
  if (!residentWanted(deps)) return runHere(undefined);
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  const key = residentKey(deps.env, deps.pluginRoot);
  const answer = askResident({
    dataDir,
    key,
    request: {
      input,
      cwd: deps.cwd,
      env: requestEnvironment(deps.env),
      ...(deps.doorPrint !== undefined ? { door: deps.doorPrint } : {}),
    },
    waitMs: RESIDENT_WAIT_MS,
    monotonicMs: deps.monotonicMs ?? deps.now,
    pid: deps.pid,
    pipeAtomicBytes: deps.pipeAtomicBytes,
  });
  if (answer.kind === 'answered') return answer.result;
  const event = input.hook_event_name;
  if (answer.kind === 'late') {
    deps.log.warn('resident answered late; the event goes on without memories', { event, waitedMs: RESIDENT_WAIT_MS });
    return PASS;
  }
  if (answer.kind === 'failed') {
    deps.log.warn('resident could not write its answer (disk full?); the stage runs in the hook', { event });
    return runHere(undefined);
  }
  deps.log.debug('no resident listening; the stage runs in the hook', { event, reason: answer.reason });
  // Started by the stage once it read the configuration: the `resident` knob may be off in ovcli.conf.
  return runHere(() => launchResident(deps, residentPaths(dataDir, key)));
}
