/**
 * A scripted Anthropic Messages API server for driving the real Claude Code
 * CLI (`ANTHROPIC_BASE_URL`) without a real model. It answers
 * `POST /v1/messages` in SSE or JSON with the reply the script picks, answers
 * token counting and any other auxiliary call harmlessly, and logs every
 * request in full. Each request is also viewed in the chat shape the shared
 * script combinators (script.ts) and read-outs (chat-types.ts) work on:
 * `tool_result` blocks become `role:"tool"` messages, `tool_use` blocks
 * `tool_calls`, so one scenario vocabulary serves both hosts.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeAnthropicError, encodeAnthropicJson, encodeAnthropicStream } from './anthropic-wire.js';
import type { CallPurpose, ChatMessage, ModelCall, ModelReply, ModelScript } from './chat-types.js';
import { contentText } from './chat-types.js';
import {
  asSentReply,
  listenLoopback,
  readBody,
  replyResolver,
  requestFields,
  runScript,
  sendEvents,
  sendJson,
} from './scripted-http.js';

export interface AnthropicModelOptions {
  /** Picks the reply for main-conversation and sub-agent calls; undefined falls through to `fallback`. */
  script?: ModelScript;
  /** Reply when the script has none; default `{text:'done'}`. */
  fallback?: ModelReply;
}

export interface AnthropicModel {
  /** `http://127.0.0.1:<port>` (ANTHROPIC_BASE_URL). */
  baseUrl: string;
  port: number;
  /** Every Messages call so far, in arrival order, optionally filtered by purpose. */
  calls(purpose?: CallPurpose): ModelCall[];
  /** Requests to any other path (token counting, …), for evidence. */
  otherRequests(): string[];
  replies(): Map<number, ModelReply>;
  setScript(script: ModelScript): void;
  close(): Promise<void>;
}

/**
 * Who asked. A sub-agent's calls carry `x-claude-code-agent-id` (and `cc_is_subagent=true` in the
 * billing line of the system prompt); the main agent's calls carry tools; calls without tools
 * (titles, topic checks, summaries) are auxiliary and answered by the fallback.
 */
function purposeOf(headers: Record<string, string>, toolNames: string[]): CallPurpose {
  if (headers['x-claude-code-agent-id']) return 'subagent';
  return toolNames.length > 0 ? 'conversation' : 'other';
}

function blocksOf(content: unknown): Array<Record<string, unknown>> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content)
    ? content.filter((block): block is Record<string, unknown> => typeof block === 'object' && block !== null)
    : [];
}

/** One Anthropic message in the chat shape: text stays, tool_result → tool messages (after it), tool_use → tool_calls. */
function toChat(message: Record<string, unknown>): ChatMessage[] {
  const role = String(message.role ?? '');
  const blocks = blocksOf(message.content);
  const textParts = blocks.filter((block) => block.type === 'text');
  if (role === 'assistant') {
    const toolCalls = blocks
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({
        id: String(block.id ?? ''),
        type: 'function',
        function: { name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) },
      }));
    return [{ role, content: textParts, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }];
  }
  const chat: ChatMessage[] = textParts.length > 0 ? [{ role, content: textParts }] : [];
  for (const block of blocks.filter((candidate) => candidate.type === 'tool_result')) {
    chat.push({
      role: 'tool',
      tool_call_id: String(block.tool_use_id ?? ''),
      content: contentText(block.content),
      is_error: block.is_error === true,
    });
  }
  return chat;
}

function chatMessagesOf(body: Record<string, unknown> | undefined): ChatMessage[] {
  const messages = Array.isArray(body?.messages) ? (body.messages as unknown[]) : [];
  return messages
    .filter((message): message is Record<string, unknown> => typeof message === 'object' && message !== null)
    .flatMap(toChat);
}

/** The text of every `role:"system"` entry of `messages` (where Claude Code puts hook additional context). */
export function systemEntriesText(call: ModelCall | undefined): string {
  return (call?.messages ?? [])
    .filter((message) => message.role === 'system')
    .map((message) => contentText(message.content))
    .join('\n');
}

/** Starts the server on 127.0.0.1:0. Close it in the test's teardown. */
export async function startAnthropicModel(options: AnthropicModelOptions = {}): Promise<AnthropicModel> {
  let script: ModelScript = options.script ?? (() => undefined);
  const log: ModelCall[] = [];
  const others: string[] = [];
  const sent = new Map<number, ModelReply>();
  const resolveReply = replyResolver('toolu_fake_');
  const fallbackFor = (): ModelReply => options.fallback ?? { text: 'done' };

  const handleMessages = async (request: IncomingMessage, response: ServerResponse, raw: string): Promise<void> => {
    const fields = requestFields(request, raw, log.length + 1);
    const { body } = fields;
    const purpose = purposeOf(fields.headers, fields.toolNames);
    const call: ModelCall = {
      ...fields,
      purpose,
      purposeHeader: `${purpose}:${String(body?.model ?? '')}`,
      messages: chatMessagesOf(body),
    };
    log.push(call);
    const reply = resolveReply(purpose === 'other' ? fallbackFor() : runScript(script, call, fallbackFor));
    sent.set(call.seq, asSentReply(reply));
    if ('httpStatus' in reply) {
      sendJson(response, reply.httpStatus, encodeAnthropicError(reply.errorMessage ?? 'scripted failure'));
      return;
    }
    const envelope = { id: `msg_fake_${call.seq}`, model: String(body?.model ?? 'fake-model') };
    if (call.stream) sendEvents(response, encodeAnthropicStream(reply, envelope));
    else sendJson(response, 200, encodeAnthropicJson(reply, envelope));
  };

  const server = await listenLoopback(async (request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const raw = await readBody(request);
    if (request.method === 'POST' && path === '/v1/messages') return handleMessages(request, response, raw);
    others.push(`${request.method} ${request.url}`);
    if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
      sendJson(response, 200, { input_tokens: 10 });
      return;
    }
    sendJson(response, 404, encodeAnthropicError(`no route ${request.method} ${path}`));
  });

  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    port: server.port,
    calls: (purpose) => (purpose ? log.filter((call) => call.purpose === purpose) : [...log]),
    otherRequests: () => [...others],
    replies: () => new Map(sent),
    setScript: (next) => {
      script = next;
    },
    close: () => server.close(),
  };
}
