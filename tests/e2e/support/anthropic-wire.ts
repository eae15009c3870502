/**
 * Encodes a scripted reply in the Anthropic Messages API wire format the
 * Claude Code CLI consumes: SSE (`message_start`, `content_block_start` /
 * `content_block_delta` / `content_block_stop` per block, `message_delta`
 * with the stop reason, `message_stop`) for `stream:true`, one `message`
 * JSON otherwise. Text and tool input are split over two deltas on purpose,
 * so the CLI's accumulation path runs as it would against a real provider.
 *
 * Pure: no I/O, the caller writes the strings.
 *
 * @module
 */
import type { ResolvedReply } from './openai-wire.js';

/** Token counts kept tiny so the CLI never auto-compacts by accident. */
const USAGE = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export interface AnthropicEnvelope {
  id: string;
  model: string;
}

type ContentBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

function blocksOf(reply: ResolvedReply): ContentBlock[] {
  if ('text' in reply) return [{ type: 'text', text: reply.text }];
  return reply.toolCalls.map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: call.name,
    input: JSON.parse(call.arguments || '{}') as unknown,
  }));
}

function stopReasonOf(reply: ResolvedReply): 'end_turn' | 'tool_use' {
  return 'text' in reply ? 'end_turn' : 'tool_use';
}

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function splitInTwo(text: string): [string, string] {
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/** The SSE events of one streamed reply, `message_start` … `message_stop`. */
export function encodeAnthropicStream(reply: ResolvedReply, envelope: AnthropicEnvelope): string[] {
  const message = {
    id: envelope.id,
    type: 'message',
    role: 'assistant',
    model: envelope.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...USAGE, output_tokens: 1 },
  };
  const events = [event('message_start', { message })];
  blocksOf(reply).forEach((block, index) => {
    const isText = block.type === 'text';
    const opening = isText
      ? { type: 'text', text: '' }
      : { type: 'tool_use', id: block.id, name: block.name, input: {} };
    events.push(event('content_block_start', { index, content_block: opening }));
    const whole = isText ? block.text : JSON.stringify(block.input);
    for (const piece of splitInTwo(whole)) {
      if (piece === '') continue;
      const delta = isText ? { type: 'text_delta', text: piece } : { type: 'input_json_delta', partial_json: piece };
      events.push(event('content_block_delta', { index, delta }));
    }
    events.push(event('content_block_stop', { index }));
  });
  events.push(
    event('message_delta', {
      delta: { stop_reason: stopReasonOf(reply), stop_sequence: null },
      usage: { output_tokens: USAGE.output_tokens },
    }),
  );
  events.push(event('message_stop', {}));
  return events;
}

/** The single JSON body of a non-streamed reply. */
export function encodeAnthropicJson(reply: ResolvedReply, envelope: AnthropicEnvelope): Record<string, unknown> {
  return {
    id: envelope.id,
    type: 'message',
    role: 'assistant',
    model: envelope.model,
    content: blocksOf(reply),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: USAGE,
  };
}

/** The Anthropic error body for a scripted HTTP failure. */
export function encodeAnthropicError(message: string): Record<string, unknown> {
  return { type: 'error', error: { type: 'api_error', message } };
}
