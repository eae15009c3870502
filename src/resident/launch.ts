/**
 * Whether hooks use a resident, and starting one.
 *
 * A resident is started by the hook that finds none listening (the prompt
 * hook, which then runs recall itself this once) and by SessionStart, so
 * the first prompt of a session usually finds one warm. Starting costs the
 * starting hook node:child_process and a spawn (~20-40 ms), so it is
 * attempted at most once a minute per key (`<key>.started`): a resident
 * that cannot run here (no `mkfifo`, a file system without FIFOs) costs one
 * slow hook a minute, not every prompt.
 *
 * Off on Windows (no FIFOs) and with the `resident` knob off; hooks then
 * run recall in their own process, as before D16.
 *
 * @module
 */
import { statSync, writeFileSync } from 'node:fs';
import { parseSwitch } from '../config/scalars.js';
import type { StageDeps } from '../protocol/stage.js';
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from '../store/atomic.js';
import { resolveDataDir } from '../store/paths.js';
import { residentListening, sweepLeftovers } from './housekeeping.js';
import { residentKey, residentPaths, residentProcessEnvironment } from './identity.js';
import type { ResidentPaths } from './identity.js';
import { errorMessage } from '../util/errors.js';

/** Least time between two start attempts for one key. */
export const START_RETRY_MS = 60_000;

/** The `hook.cjs` command a resident runs as. */
export const RESIDENT_COMMAND = 'resident';

/**
 * True unless the platform has no FIFOs or the environment switched
 * residents off: the prompt hook's check, one variable and no config read.
 * The `resident` knob from ovcli.conf is honoured where the configuration
 * is loaded anyway: a hook that recalls by itself starts none (prompt.ts),
 * session start starts none, and a running resident retires (server.ts).
 */
export function residentWanted(deps: Pick<StageDeps, 'env' | 'pipeAtomicBytes'>): boolean {
  return deps.pipeAtomicBytes > 0 && parseSwitch(deps.env.OPENVIKING_RESIDENT) !== false;
}

/**
 * SessionStart's part: make sure this configuration's resident runs before
 * the session's first prompt, and remove any key's leftover exchange files
 * (housekeeping.ts). Costs ~0.3 ms when one already listens.
 * @returns true when a resident process was spawned.
 */
export function ensureResident(deps: StageDeps): boolean {
  if (!residentWanted(deps)) return false;
  const paths = residentPaths(resolveDataDir(deps.env, deps.homeDir), residentKey(deps.env, deps.pluginRoot));
  sweepLeftovers(paths.dir, deps.now());
  return !residentListening(paths) && launchResident(deps, paths);
}

/**
 * Starts a resident for `paths` unless a start was attempted in the last
 * minute. The caller has checked that none listens.
 * @returns true when a resident process was spawned.
 */
export function launchResident(deps: StageDeps, paths: ResidentPaths): boolean {
  try {
    const mark = statSync(paths.startMark, { throwIfNoEntry: false });
    if (mark !== undefined && Math.abs(deps.now() - mark.mtimeMs) < START_RETRY_MS) return false;
    ensurePrivateDirSync(paths.dir);
    writeFileSync(paths.startMark, '', { mode: PRIVATE_FILE_MODE });
  } catch (error) {
    deps.log.warn('resident: cannot record the start attempt; not starting one', { error: errorMessage(error) });
    return false;
  }
  // Only the key's variables and PATH: nothing else of this session's environment reaches a process that serves others.
  const started = deps.spawnDetached([RESIDENT_COMMAND], '', residentProcessEnvironment(deps.env));
  deps.log.debug('resident: started', { started });
  return started;
}
