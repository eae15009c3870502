/**
 * Which OpenViking session and which transcript a host event is about.
 *
 * Stop, PreCompact and SessionEnd: the main session (the stage context's
 * `ovSessionId`) and `transcript_path`. SubagentStop: the sub-agent's own
 * session (`ovSubagentSessionId`) and its own transcript,
 * `agent_transcript_path` (CodeBuddy also puts it in `transcript_path`;
 * Claude Code puts the MAIN transcript there, so the agent path wins).
 *
 * @module
 */
import type { HookInput } from '../protocol/input.js';
import { ovSubagentSessionId } from '../session/ids.js';
import type { StageContext } from '../session/stageContext.js';
import type { CaptureRequest } from './requests.js';

/** Events after which there is nothing more of the session: capture, then archive everything. */
const COMMITTING_EVENTS = new Set(['SubagentStop', 'PreCompact', 'SessionEnd']);

/** The request a hook event stands for, or undefined when it names no session or transcript. */
export function requestForEvent(
  input: HookInput,
  ctx: Pick<StageContext, 'hostSessionId' | 'ovSessionId' | 'workspace' | 'project'>,
  now: number,
): CaptureRequest | undefined {
  const { hostSessionId, workspace } = ctx;
  if (hostSessionId === '') return undefined;
  const event = input.hook_event_name;
  const common = {
    event,
    hostSessionId,
    workspace,
    commit: COMMITTING_EVENTS.has(event),
    at: now,
    ...(ctx.project.peerId !== undefined ? { peerId: ctx.project.peerId } : {}),
  };
  if (event === 'SubagentStop') {
    const agentId = stringOf(input.agent_id);
    const transcriptPath = stringOf(input.agent_transcript_path) || stringOf(input.transcript_path);
    const id = ovSubagentSessionId(hostSessionId, agentId);
    if (id === '' || transcriptPath === '') return undefined;
    return { ...common, ovSessionId: id, agentId, transcriptPath, subagent: true };
  }
  const transcriptPath = stringOf(input.transcript_path);
  if (ctx.ovSessionId === '' || transcriptPath === '') return undefined;
  return { ...common, ovSessionId: ctx.ovSessionId, transcriptPath, subagent: false };
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
