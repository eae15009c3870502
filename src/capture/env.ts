/**
 * Builds the capture machinery's view of the outside world (writer.ts
 * `CaptureEnv`) from the hook deps and the loaded configuration, with one
 * deadline for the whole job. The client's per-call timeout is the
 * background one (`timeoutMs`), cut by that deadline; each of its answers
 * is recorded as the server's state (store/status.ts: an unchanged state is
 * rewritten at most once a minute).
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import type { StageDeps } from '../protocol/stage.js';
import { clientFor } from '../session/stageContext.js';
import { captureOffReason, scopeOf } from '../session/switches.js';
import { observeResults } from '../openviking/observe.js';
import { resolveDataDir } from '../store/paths.js';
import { recordServerStatus, serverStatusOf } from '../store/status.js';
import type { CaptureEnv, CrashPoint } from './writer.js';
import { writeTargetOf } from './writeTarget.js';

export function captureEnvFor(
  deps: StageDeps,
  config: PluginConfig,
  deadlineMs: number,
  crashPoint?: (point: CrashPoint) => void,
): CaptureEnv {
  const deadlineAt = deps.now() + deadlineMs;
  const dataDir = resolveDataDir(deps.env, deps.homeDir);
  const client = clientFor(config, deps, Math.min(config.settings.timeoutMs, deadlineMs), deadlineAt);
  const env: CaptureEnv = {
    dataDir,
    settings: config.settings,
    target: writeTargetOf(config.credentials),
    // Every answer (or its absence) says whether the server is up, for the status line and doctor.
    client: observeResults(
      client,
      (result) => void recordServerStatus(dataDir, serverStatusOf(result, deps.now()), config.credentials.baseUrl),
    ),
    now: deps.now,
    log: deps.log,
    deadlineAt,
    // Queued turns of a session or folder that is now off or bypassed stay here (DESIGN D25).
    holdReason: ({ hostSessionId, workspace }) =>
      captureOffReason(
        workspace === ''
          ? { config, project: { off: {} }, sessionId: hostSessionId }
          : scopeOf(config, workspace, deps.homeDir, deps.now(), hostSessionId),
      ),
  };
  if (crashPoint !== undefined) env.crashPoint = crashPoint;
  return env;
}
