/**
 * The stdin payloads CodeBuddy sends to hooks, as observed on real hosts
 * (seed 000 §4 for 2.163; source H §2, docs/host-facts.md, for 2.117).
 * Key sets differ between versions and events, so every field but the event
 * name is optional and unknown keys are kept (the host adds keys over time).
 *
 * @module
 */

export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionEnd',
  'Notification',
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Fields common to every event. All optional: 2.117 omits `cwd` on SessionStart, Notification has no `session_id`. */
export interface HookInputBase {
  hook_event_name: HookEventName;
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  permission_mode?: string;
  generation_id?: string;
  client?: string;
  version?: string;
  model?: string;
  agent_type?: string;
  /** Unknown keys survive parsing. */
  [key: string]: unknown;
}

export interface SessionStartInput extends HookInputBase {
  hook_event_name: 'SessionStart';
  /** `startup` | `resume` | `clear` | `compact`. */
  source?: string;
}

export interface UserPromptSubmitInput extends HookInputBase {
  hook_event_name: 'UserPromptSubmit';
  prompt?: string;
  /** Newer hosts (2.163) only. */
  is_internal_continuation?: boolean;
}

export interface PreToolUseInput extends HookInputBase {
  hook_event_name: 'PreToolUse' | 'PostToolUse';
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  call_id?: string;
}

export interface StopInput extends HookInputBase {
  hook_event_name: 'Stop' | 'SubagentStop';
  stop_hook_active?: boolean;
  last_assistant_message?: string;
  agent_id?: string;
  /** SubagentStop: the sub-agent's own transcript. */
  agent_transcript_path?: string;
}

export interface SubagentStartInput extends HookInputBase {
  hook_event_name: 'SubagentStart';
  agent_id?: string;
}

export interface PreCompactInput extends HookInputBase {
  hook_event_name: 'PreCompact';
  trigger?: string;
  custom_instructions?: string;
}

export interface SessionEndInput extends HookInputBase {
  hook_event_name: 'SessionEnd';
  reason?: string;
}

export type HookInput =
  | SessionStartInput
  | UserPromptSubmitInput
  | PreToolUseInput
  | StopInput
  | SubagentStartInput
  | PreCompactInput
  | SessionEndInput
  | (HookInputBase & { hook_event_name: 'Notification' });
