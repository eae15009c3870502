/**
 * The protocol's public surface, for the tests' host simulator and for
 * readers. Hook code imports the single files it needs (parse, envelope) so
 * the entry chunk stays small.
 *
 * @module
 */
export { BLOCKING_EXIT_CODE, parseHookOutput } from './codec.js';
export { acceptsContext, encodeStageResult } from './envelope.js';
export { HOOK_EVENTS } from './input.js';
export { isMatchAll, matcherQuery, matchesMatcher } from './matcher.js';
export { mergeHookOutputs } from './merge.js';
export { hookInputFromJson, isHookEventName, parseHookInput } from './parse.js';
export { DEFAULT_HOOK_TIMEOUT_MS, EXECUTOR_GRACE_MS, hookTimeoutMs, runHook } from './runner.js';
export type { RunHookOptions } from './runner.js';
export type {
  HookEventName,
  HookInput,
  HookInputBase,
  PreCompactInput,
  PreToolUseInput,
  SessionEndInput,
  SessionStartInput,
  StopInput,
  SubagentStartInput,
  UserPromptSubmitInput,
} from './input.js';
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
