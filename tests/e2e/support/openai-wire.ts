/**
 * Encodes a scripted reply in the OpenAI chat-completions wire format the
 * CodeBuddy CLI (OpenAI SDK 6.x inside) consumes: SSE `chat.completion.chunk`
 * events for `stream:true`, one `chat.completion` JSON otherwise. Tool-call
 * arguments are split over two deltas on purpose, so the CLI's accumulation
 * path is exercised the way a real provider would.
 *
 * Pure: no I/O, the caller writes the strings.
 *
 * @module
 */

/** A reply with its tool-call ids already assigned. */
export type ResolvedReply = { text: string } | { toolCalls: Array<{ id: string; name: string; arguments: string }> };

/** Token counts kept far below maxInputTokens so the CLI never auto-compacts by accident. */
const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

interface Envelope {
  id: string;
  model: string;
  created: number;
}

function chunk(envelope: Envelope, choices: unknown[], extra: Record<string, unknown> = {}): string {
  const body = {
    id: envelope.id,
    object: 'chat.completion.chunk',
    created: envelope.created,
    model: envelope.model,
    choices,
    ...extra,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function splitInTwo(text: string): [string, string] {
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

/** The SSE events (each `data: …\n\n`, ending with `data: [DONE]`) for one streamed reply. */
export function encodeStreamedReply(reply: ResolvedReply, envelope: Envelope): string[] {
  const events: string[] = [];
  if ('text' in reply) {
    events.push(chunk(envelope, [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
    const [head, tail] = splitInTwo(reply.text);
    for (const piece of [head, tail]) {
      if (piece) events.push(chunk(envelope, [{ index: 0, delta: { content: piece }, finish_reason: null }]));
    }
    events.push(chunk(envelope, [{ index: 0, delta: {}, finish_reason: 'stop' }]));
  } else {
    reply.toolCalls.forEach((call, index) => {
      const [head, tail] = splitInTwo(call.arguments);
      const opening = { index, id: call.id, type: 'function', function: { name: call.name, arguments: head } };
      events.push(
        chunk(envelope, [
          { index: 0, delta: { role: 'assistant', content: null, tool_calls: [opening] }, finish_reason: null },
        ]),
      );
      events.push(
        chunk(envelope, [
          { index: 0, delta: { tool_calls: [{ index, function: { arguments: tail } }] }, finish_reason: null },
        ]),
      );
    });
    events.push(chunk(envelope, [{ index: 0, delta: {}, finish_reason: 'tool_calls' }]));
  }
  events.push(chunk(envelope, [], { usage: USAGE }));
  events.push('data: [DONE]\n\n');
  return events;
}

/** The single JSON body for a non-streamed reply. */
export function encodeJsonReply(reply: ResolvedReply, envelope: Envelope): Record<string, unknown> {
  const message =
    'text' in reply
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: reply.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
          })),
        };
  return {
    id: envelope.id,
    object: 'chat.completion',
    created: envelope.created,
    model: envelope.model,
    choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
    usage: USAGE,
  };
}
