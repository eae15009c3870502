/**
 * Vocabulary shared by the fake model and the scenarios: what a model call
 * looked like (as the real CodeBuddy CLI sent it) and what the script answers.
 * Kept apart from the server so scenario files can import the types and the
 * pure helpers without pulling in node:http.
 *
 * @module
 */

/** One chat message as the CLI sends it (OpenAI chat-completions shape, plus CodeBuddy's extra keys). */
export interface ChatMessage {
  role: string;
  /** A string in models.json mode, an array of `{type:'text',text}` parts in env-key mode. */
  content?: unknown;
  tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  [key: string]: unknown;
}

/** Who asked: taken from the `x-agent-purpose` header. */
export type CallPurpose = 'conversation' | 'subagent' | 'summary' | 'other';

/** A model request as received, with the views scripts and assertions need. */
export interface ModelCall {
  /** 1-based arrival order across all purposes. */
  seq: number;
  at: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: Record<string, unknown> | undefined;
  purpose: CallPurpose;
  /** The raw `x-agent-purpose` header (`conversation`, `subagent:general-purpose`, `context_summary_max_token`). */
  purposeHeader: string;
  stream: boolean;
  messages: ChatMessage[];
  /** Names of the tools offered to the model, in order. */
  toolNames: string[];
}

/** One scripted tool call; `id` defaults to a fresh `call_fake_<n>`. */
export interface ScriptedToolCall {
  name: string;
  args: unknown;
  id?: string;
}

/** What the fake model answers: plain text, tool calls, or an HTTP failure. */
export type ModelReply =
  { text: string } | { toolCalls: ScriptedToolCall[] } | { httpStatus: number; errorMessage?: string };

/** Picks the reply for one call; `undefined` means "use the fallback". */
export type ModelScript = (call: ModelCall) => ModelReply | undefined;

/**
 * Flattens message content to text: a string as is, text parts joined with
 * newlines, anything else as JSON (so assertions still see it).
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') {
          return (part as { text: string }).text;
        }
        return JSON.stringify(part);
      })
      .join('\n');
  }
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/**
 * The last message of the call, if any, not counting trailing `system` entries: Claude Code puts
 * hook additional context after the user's prompt as `role:"system"` messages.
 */
export function lastMessage(call: ModelCall): ChatMessage | undefined {
  for (let i = call.messages.length - 1; i >= 0; i--) {
    if (call.messages[i]?.role !== 'system') return call.messages[i];
  }
  return undefined;
}

/** The text of the last `user` message (hook contexts and `<user_query>` included). */
export function lastUserText(call: ModelCall): string {
  for (let i = call.messages.length - 1; i >= 0; i--) {
    const message = call.messages[i];
    if (message?.role === 'user') return contentText(message.content);
  }
  return '';
}

/** The `<user_query>` the CLI wraps the prompt in, or the whole user text when absent. */
export function lastUserQuery(call: ModelCall): string {
  const text = lastUserText(call);
  const match = /<user_query>([\s\S]*?)<\/user_query>/.exec(text);
  return match?.[1] ?? text;
}

/** True when the last message is a tool result (the model is asked to continue after a tool). */
export function isAfterToolResult(call: ModelCall): boolean {
  return lastMessage(call)?.role === 'tool';
}

/** All tool results in the call, in order, with the id of the call they answer. */
export function toolResults(call: ModelCall): Array<{ toolCallId: string; text: string }> {
  return call.messages
    .filter((message) => message.role === 'tool')
    .map((message) => ({ toolCallId: String(message.tool_call_id ?? ''), text: contentText(message.content) }));
}
