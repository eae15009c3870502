/**
 * Doctor check `resident`: whether the resident helper (DESIGN D16) that
 * answers prompt hooks for this configuration is listening. Never a
 * failure: without one, prompt hooks recall by themselves.
 *
 * @module
 */
import type { Settings } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import { FIFO_FILE, residentKey, residentPaths } from '../resident/identity.js';
import { startedByHost } from '../config/pluginOptions.js';
import { namesInDir } from '../store/fsUtil.js';
import { counted } from '../util/plural.js';
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
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  const paths = residentPaths(dataDir, key);
  if (residentListening(paths))
    return { ...base, lines: [`listening for this configuration (${paths.fifo})`], data: { state: 'listening', key } };
  // A session's hooks get the host's variables (the plugin root, its options) that a shell lacks, so its helper has
  // another key than this process computes: the helpers actually listening in the data directory are its real state.
  const others = namesInDir(paths.dir)
    .map((name) => FIFO_FILE.exec(name)?.[1])
    .filter((other): other is string => other !== undefined && residentListening(residentPaths(dataDir, other)));
  if (others.length > 0)
    return {
      ...base,
      lines: [
        `${counted(others.length, 'helper')} listening in ${paths.dir}, started by sessions whose environment (the host's plugin variables, options and proxies) differs from this ${startedByHost(deps.env) ? 'process' : 'shell'}'s: prompts of those sessions are answered by ${others.length === 1 ? 'it' : 'them'}`,
      ],
      data: { state: 'listening-other', key, listening: others },
    };
  return {
    ...base,
    lines: ['not running: the next session start or prompt starts it'],
    data: { state: 'not-running', key },
  };
}
