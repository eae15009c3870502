/**
 * Doctor check `resident`: whether the resident helper (DESIGN D16) that
 * answers prompt hooks for this configuration is listening. Never a
 * failure: without one, prompt hooks recall by themselves.
 *
 * @module
 */
import type { Settings } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import { residentKey, residentPaths } from '../resident/identity.js';
import { residentListening } from '../resident/housekeeping.js';
import { residentWanted } from '../resident/launch.js';
import { resolveDataDir } from '../store/paths.js';
import type { Check } from './types.js';

export function checkResident(
  deps: Pick<StageDeps, 'env' | 'homeDir' | 'pluginRoot' | 'pipeAtomicBytes'>,
  settings: Pick<Settings, 'resident'> = { resident: true },
): Check {
  const base = { id: 'resident', title: 'Resident helper', status: 'info' as const };
  if (deps.pipeAtomicBytes === 0)
    return {
      ...base,
      lines: ['not used on this platform (no FIFOs): prompt hooks recall by themselves'],
      data: { state: 'unsupported' },
    };
  if (!residentWanted(deps) || !settings.resident)
    return { ...base, lines: ['off (OPENVIKING_RESIDENT): prompt hooks recall by themselves'], data: { state: 'off' } };
  const key = residentKey(deps.env, deps.pluginRoot);
  const paths = residentPaths(resolveDataDir(deps.env, deps.homeDir), key);
  if (residentListening(paths))
    return { ...base, lines: [`listening for this configuration (${paths.fifo})`], data: { state: 'listening', key } };
  return {
    ...base,
    lines: ['not running: the next session start or prompt starts it'],
    data: { state: 'not-running', key },
  };
}
