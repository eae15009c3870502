/**
 * A Stop whose capture worker the test runs itself, as a real process of the
 * private plugin copy: the Stop hook's stage runs in process (it posts the
 * capture request; the detached spawn is recorded instead of started), then
 * the recorded worker command is spawned, so a test can kill, stop or
 * resume it at will (worker-kill, lock loss).
 *
 * @module
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { dispatchHook } from '../../../src/hook/dispatch.js';
import { routeFor } from '../../../src/hook/routes.js';
import { socketHttpTransport } from '../../../src/openviking/socketHttp.js';
import { HOOK_ENTRY } from '../../../src/protocol/entryFiles.js';
import { createTestDeps } from '../../support/host-sim/test-deps.js';
import type { FaultSession, FaultWorld } from './world.js';

/** Runs Stop's stage in process, then starts its worker (`hook.cjs worker …`) and returns the child. */
export async function stopThenSpawnWorker(
  world: FaultWorld,
  s: FaultSession,
  pluginRoot: string,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const deps = createTestDeps({
    http: socketHttpTransport,
    env,
    homeDir: world.home,
    cwd: world.workspace,
    now: Date.now,
  });
  await dispatchHook(JSON.stringify(s.p.stop('done')), { routeFor, createDeps: () => deps, elapsedMs: () => 0 });
  const job = deps.spawned[0];
  if (job === undefined) throw new Error('Stop spawned no worker');
  const child = spawn(process.execPath, [join(pluginRoot, HOOK_ENTRY), ...job.args], {
    cwd: world.workspace,
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(job.stdin);
  return child;
}

/** Resolves with the signal that ended `child` (null after a normal exit). */
export function exitOf(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve, reject) => {
    child.once('exit', (_code, signal) => resolve(signal));
    child.once('error', reject);
  });
}
