/**
 * Small combinators for writing fake-model scripts turn by turn: "when the
 * user's new prompt contains X, call tool Y", "after any tool result, say
 * done", "sub-agents answer Z", or a plain queue of replies. Scenarios read
 * like the conversation they drive.
 *
 * @module
 */
import type { CallPurpose, ModelCall, ModelReply, ModelScript } from './chat-types.js';
import { isAfterToolResult, lastMessage, lastUserQuery } from './chat-types.js';

export interface TurnRule {
  when: (call: ModelCall) => boolean;
  reply: ModelReply | ((call: ModelCall) => ModelReply);
}

/** The first rule whose `when` holds answers; none → undefined (the server's fallback). */
export function firstMatching(rules: TurnRule[]): ModelScript {
  return (call) => {
    const rule = rules.find((candidate) => candidate.when(call));
    if (!rule) return undefined;
    return typeof rule.reply === 'function' ? rule.reply(call) : rule.reply;
  };
}

/** Matches a fresh user prompt (last message is the user's) of the given purpose whose query contains `marker`. */
export function onPrompt(marker: string, reply: TurnRule['reply'], purpose: CallPurpose = 'conversation'): TurnRule {
  return {
    when: (call) =>
      call.purpose === purpose && lastMessage(call)?.role === 'user' && lastUserQuery(call).includes(marker),
    reply,
  };
}

/** Matches any call of `purpose` whose last message is a tool result. */
export function afterToolResult(reply: TurnRule['reply'], purpose: CallPurpose = 'conversation'): TurnRule {
  return { when: (call) => call.purpose === purpose && isAfterToolResult(call), reply };
}

/** Matches every call of `purpose`. */
export function forPurpose(purpose: CallPurpose, reply: TurnRule['reply']): TurnRule {
  return { when: (call) => call.purpose === purpose, reply };
}

/** Replies in order to calls of `purpose` (default: the main conversation); exhausted → undefined. */
export function replyQueue(replies: ModelReply[], purpose: CallPurpose = 'conversation'): ModelScript {
  const pending = [...replies];
  return (call) => (call.purpose === purpose ? pending.shift() : undefined);
}

/** Shorthand for a one-tool-call reply. */
export function callTool(name: string, args: unknown): ModelReply {
  return { toolCalls: [{ name, args }] };
}

/** The name of the tool whose result is the call's last message ('' when it is not a tool result). */
function lastToolResultName(call: ModelCall): string {
  const last = lastMessage(call);
  if (last?.role !== 'tool') return '';
  const calls = call.messages.flatMap((message) => message.tool_calls ?? []);
  return calls.find((candidate) => candidate.id === last.tool_call_id)?.function.name ?? '';
}

/** Matches a call of `purpose` right after the result of the tool named `toolName`. */
export function afterToolResultOf(
  toolName: string,
  reply: TurnRule['reply'],
  purpose: CallPurpose = 'conversation',
): TurnRule {
  return { when: (call) => call.purpose === purpose && lastToolResultName(call) === toolName, reply };
}
