/**
 * Which OpenViking session and which transcript a host event is about.
 *
 * Stop, PreCompact and SessionEnd: the main session (`ovSessionId`) and
 * `transcript_path`. SubagentStop: the sub-agent's own session
 * (`ovSubagentSessionId`) and its own transcript, `agent_transcript_path`
 * (CodeBuddy also puts it in `transcript_path`; Claude Code puts the MAIN
 * transcript there, so the agent path wins).
 *
 * @module
 */
import type { HookInput } from '../protocol/input.js';
import { ovSessionId, ovSubagentSessionId } from '../session/ids.js';
import { resolveWorkspace } from '../session/workspace.js';
import type { CaptureRequest } from './requests.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Events after which there is nothing more of the session: capture, then archive everything. */
const COMMITTING_EVENTS = new Set(['SubagentStop', 'PreCompact', 'SessionEnd']);

/** The request a hook event stands for, or undefined when it names no session or transcript. */
export function requestForEvent(input: HookInput, env: Env, cwd: string, now: number): CaptureRequest | undefined {
  const hostSessionId = stringOf(input.session_id);
  if (hostSessionId === '') return undefined;
  const workspace = resolveWorkspace(input, env, cwd);
  const event = input.hook_event_name;
  const common = { event, hostSessionId, workspace, commit: COMMITTING_EVENTS.has(event), at: now };
  if (event === 'SubagentStop') {
    const agentId = stringOf(input.agent_id);
    const transcriptPath = stringOf(input.agent_transcript_path) || stringOf(input.transcript_path);
    const id = ovSubagentSessionId(hostSessionId, agentId);
    if (id === '' || transcriptPath === '') return undefined;
    return { ...common, ovSessionId: id, agentId, transcriptPath, subagent: true };
  }
  const transcriptPath = stringOf(input.transcript_path);
  const id = ovSessionId(hostSessionId);
  if (id === '' || transcriptPath === '') return undefined;
  return { ...common, ovSessionId: id, transcriptPath, subagent: false };
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
