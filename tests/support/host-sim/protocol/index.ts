/**
 * The host's side of the hook protocol, as the tests' host simulator runs
 * it: matchers, the runner with its timeouts, the decoding of one hook's
 * output and the fold of every hook an event selected. The plugin never
 * runs this code (it only encodes, src/protocol/envelope.ts), so it lives
 * beside the simulator, written against seed 001 and the 2.117 bundle.
 *
 * @module
 */
export { BLOCKING_EXIT_CODE, parseHookOutput } from './codec.js';
export { isMatchAll, matcherQuery, matchesMatcher } from './matcher.js';
export { mergeHookOutputs } from './merge.js';
export { DEFAULT_HOOK_TIMEOUT_MS, EXECUTOR_GRACE_MS, hookTimeoutMs, runHook } from './runner.js';
export type { RunHookOptions } from './runner.js';
export type {
  CommandHook,
  HookOutput,
  HookRun,
  HooksConfig,
  MatcherGroup,
  MatcherMode,
  MergedDecision,
  MergedHookOutcome,
  ProcessOutcome,
  ShellExecutor,
  ShellRequest,
} from './types.js';
