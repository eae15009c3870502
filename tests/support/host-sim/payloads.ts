/**
 * Hook stdin payloads shaped exactly like the ones real hosts sent, key for
 * key and in the same order:
 * - `2.117`: CodeBuddy 2.117.0, headless, observed here
 *   (codebuddy-host/samples/*\/hooks.jsonl, README §2). SessionStart has no
 *   `cwd`; the first UserPromptSubmit has no `agent_type`/`generation_id`;
 *   SubagentStart has no `agent_type`. PreCompact and SessionEnd never fired
 *   headless: their shapes follow the host docs.
 * - `2.163`: CodeBuddy 2.163.0 (seed 000 §4): adds `generation_id`
 *   everywhere, `is_internal_continuation` on UserPromptSubmit,
 *   `is_truncation_recovery` on Stop, `agent_type` on SessionEnd/SubagentStart.
 * Every builder takes `extra` keys that are appended (or override).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

export type HostVersion = '2.117' | '2.163';

export interface PayloadContext {
  /** The session's cwd (the host's workspace). */
  workspace: string;
  /** `<CODEBUDDY_CONFIG_DIR>` or `<home>/.codebuddy`: transcripts live under its `projects/`. */
  configDir: string;
  sessionId?: string;
  hostVersion?: HostVersion;
  model?: string;
  permissionMode?: string;
}

type Payload = Record<string, unknown>;

export interface Payloads {
  readonly sessionId: string;
  /** `<configDir>/projects/<slug>/<sessionId>.jsonl`, exactly as the host names it. */
  readonly transcriptPath: string;
  subagentTranscriptPath(agentId: string): string;
  sessionStart(source?: string, extra?: Payload): Payload;
  /** `turn` 1 is the first prompt of the session (2.117 omits agent_type/generation_id there). */
  userPromptSubmit(prompt: string, turn?: number, extra?: Payload): Payload;
  preToolUse(toolName: string, toolInput: unknown, extra?: Payload): Payload;
  stop(lastAssistantMessage?: string, extra?: Payload): Payload;
  subagentStart(agentId: string, extra?: Payload): Payload;
  subagentStop(agentId: string, extra?: Payload): Payload;
  preCompact(trigger?: 'manual' | 'auto', extra?: Payload): Payload;
  sessionEnd(reason?: string, extra?: Payload): Payload;
}

/** The host's project slug: the cwd with `/` → `-`, leading `-` dropped. */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[\\/]/g, '-').replace(/^-/, '');
}

export function createPayloads(context: PayloadContext): Payloads {
  const sessionId = context.sessionId ?? randomUUID();
  const v163 = context.hostVersion === '2.163';
  const projectDir = join(context.configDir, 'projects', projectSlug(context.workspace));
  const transcriptPath = join(projectDir, `${sessionId}.jsonl`);
  const subagentTranscriptPath = (agentId: string): string =>
    join(projectDir, sessionId, 'subagents', `${agentId}.jsonl`);
  const cwd = context.workspace;
  const tail = (withGeneration: boolean): Payload => ({
    permission_mode: context.permissionMode ?? 'bypassPermissions',
    client: 'CLI',
    version: v163 ? '2.163.0' : '2.117.0',
    ...(withGeneration ? { generation_id: generationId() } : {}),
    model: context.model ?? 'fake-model',
  });
  const base = (event: string, withCwd = true): Payload => ({
    session_id: sessionId,
    transcript_path: transcriptPath,
    ...(withCwd ? { cwd } : {}),
    hook_event_name: event,
  });
  return {
    sessionId,
    transcriptPath,
    subagentTranscriptPath,
    sessionStart: (source = 'startup', extra = {}) => {
      const later = v163 || source === 'compact';
      return {
        ...base('SessionStart', false),
        source,
        ...(later ? { agent_type: 'cli' } : {}),
        ...tail(later),
        ...extra,
      };
    },
    userPromptSubmit: (prompt, turn = 1, extra = {}) => {
      const later = v163 || turn > 1;
      return {
        ...base('UserPromptSubmit'),
        prompt,
        ...(v163 ? { is_internal_continuation: false } : {}),
        ...(later ? { agent_type: 'cli' } : {}),
        ...tail(later),
        ...extra,
      };
    },
    preToolUse: (toolName, toolInput, extra = {}) => ({
      ...base('PreToolUse'),
      tool_name: toolName,
      tool_input: toolInput,
      call_id: 'call_fake_1',
      tool_use_id: 'call_fake_1',
      agent_type: 'cli',
      ...tail(true),
      ...extra,
    }),
    stop: (lastAssistantMessage = 'done', extra = {}) => ({
      ...base('Stop'),
      stop_hook_active: false,
      agent_type: 'cli',
      last_assistant_message: lastAssistantMessage,
      ...(v163 ? { is_truncation_recovery: false } : {}),
      background_tasks: [],
      session_crons: [],
      ...tail(true),
      ...extra,
    }),
    subagentStart: (agentId, extra = {}) => ({
      session_id: sessionId,
      transcript_path: subagentTranscriptPath(agentId),
      cwd,
      hook_event_name: 'SubagentStart',
      agent_id: agentId,
      ...(v163 ? { agent_type: 'general-purpose' } : {}),
      ...tail(v163),
      ...extra,
    }),
    subagentStop: (agentId, extra = {}) => ({
      session_id: sessionId,
      transcript_path: subagentTranscriptPath(agentId),
      cwd,
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
      agent_transcript_path: subagentTranscriptPath(agentId),
      agent_type: 'general-purpose',
      agent_id: agentId,
      background_tasks: [],
      session_crons: [],
      ...tail(true),
      ...extra,
    }),
    preCompact: (trigger = 'auto', extra = {}) => ({
      ...base('PreCompact'),
      trigger,
      custom_instructions: '',
      ...(v163 ? { agent_type: 'cli' } : {}),
      ...tail(v163),
      ...extra,
    }),
    sessionEnd: (reason = 'prompt_input_exit', extra = {}) => ({
      ...base('SessionEnd'),
      reason,
      ...(v163 ? { agent_type: 'cli' } : {}),
      ...tail(v163),
      ...extra,
    }),
  };
}

function generationId(): string {
  return randomUUID().replace(/-/g, '');
}
