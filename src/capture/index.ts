/**
 * What other modules use of capture: the start stage (commit-stale, queue
 * replay with the inflight guard), doctor and the status line (the per-session
 * capture state). Explicit named exports only.
 *
 * @module
 */
export { commitStale, COMMIT_STALE_DEADLINE_MS } from './commitStale.js';
export type { CommitStaleSummary } from './commitStale.js';
export { captureEnvFor } from './env.js';
export { replayPendingWrites } from './replay.js';
export type { ReplayRun } from './replay.js';
export { captureDir, captureStateFile, requestDir } from './paths.js';
export { listCaptureStates, loadCaptureState } from './state.js';
export type { CaptureCounts, CaptureState, Inflight, ServerCount } from './state.js';
export type { CaptureEnv } from './writer.js';
