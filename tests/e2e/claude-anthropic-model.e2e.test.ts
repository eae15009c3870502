/**
 * The scripted Anthropic Messages model on its own (no CLI, milliseconds): the
 * SSE event sequence for text and tool_use (input split over
 * `input_json_delta`s that reassemble into the scripted input), the
 * non-streamed message, token counting and tool-less auxiliary calls answered
 * harmlessly, sub-agent calls told apart by `x-claude-code-agent-id`, and the
 * chat view the shared script combinators match on.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicModel, type AnthropicModel } from './support/anthropic-model.js';
import { isAfterToolResult, lastUserQuery } from './support/chat-types.js';
import { afterToolResultOf, callTool, firstMatching, forPurpose, onPrompt } from './support/script.js';

let model: AnthropicModel;

beforeAll(async () => {
  model = await startAnthropicModel({
    script: firstMatching([
      onPrompt('TOOL', callTool('Read', { file_path: '/x' })),
      afterToolResultOf('Read', { text: 'after the read' }),
      forPurpose('subagent', { text: 'from the sub-agent' }),
    ]),
  });
});

afterAll(async () => {
  await model.close();
});

const TOOLS = [{ name: 'Read', input_schema: { type: 'object' } }];

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${model.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k', ...headers },
    body: JSON.stringify(body),
  });
}

interface SseEvent {
  name: string;
  data: Record<string, any>;
}

async function events(response: Response): Promise<SseEvent[]> {
  const raw = await response.text();
  return raw
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const name = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? '{}') as Record<string, any>;
      return { name, data };
    });
}

describe('scripted Anthropic Messages model', () => {
  it('streams a tool_use whose input_json_delta pieces reassemble into the scripted input', async () => {
    const response = await post('/v1/messages?beta=true', {
      model: 'm',
      stream: true,
      tools: TOOLS,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'TOOL please' }] }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const stream = await events(response);
    expect(stream.map((event) => event.name)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(stream.every((event) => event.data.type === event.name)).toBe(true);
    expect(stream[1]?.data.content_block).toMatchObject({ type: 'tool_use', name: 'Read', input: {} });
    const json = stream
      .filter((event) => event.name === 'content_block_delta')
      .map((event) => event.data.delta.partial_json as string);
    expect(JSON.parse(json.join(''))).toEqual({ file_path: '/x' });
    expect(stream[5]?.data.delta.stop_reason).toBe('tool_use');
  });

  it('after the tool result (a user message of tool_result blocks) the script sees a tool message', async () => {
    const toolUseId = (model.replies().get(1) as { toolCalls: Array<{ id: string }> }).toolCalls[0]!.id;
    const messages = [
      { role: 'user', content: 'TOOL please' },
      { role: 'assistant', content: [{ type: 'tool_use', id: toolUseId, name: 'Read', input: { file_path: '/x' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'file body', is_error: false }],
      },
      { role: 'system', content: [{ type: 'text', text: 'PostToolUse hook additional context: x' }] },
    ];
    const stream = await events(await post('/v1/messages', { model: 'm', stream: true, tools: TOOLS, messages }));
    const text = stream
      .filter((event) => event.name === 'content_block_delta')
      .map((event) => event.data.delta.text as string);
    expect(text.join('')).toBe('after the read');
    expect(stream.find((event) => event.name === 'message_delta')?.data.delta.stop_reason).toBe('end_turn');
    const call = model.calls().at(-1)!;
    expect(isAfterToolResult(call)).toBe(true);
    expect(lastUserQuery(call)).toBe('TOOL please');
  });

  it('answers a non-streamed request with one message JSON', async () => {
    const response = await post('/v1/messages', {
      model: 'm',
      tools: TOOLS,
      messages: [{ role: 'user', content: 'TOOL again' }],
    });
    const body = (await response.json()) as Record<string, any>;
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', name: 'Read', input: { file_path: '/x' } }],
    });
  });

  it('answers token counting and tool-less auxiliary calls harmlessly, and tells sub-agents apart', async () => {
    expect(await (await post('/v1/messages/count_tokens', { messages: [] })).json()).toEqual({ input_tokens: 10 });
    const aux = (await (
      await post('/v1/messages', { model: 'haiku', messages: [{ role: 'user', content: 'TOOL title?' }] })
    ).json()) as Record<string, any>;
    expect(aux.content).toEqual([{ type: 'text', text: 'done' }]);
    const sub = (await (
      await post(
        '/v1/messages',
        { model: 'm', tools: TOOLS, messages: [{ role: 'user', content: 'hi' }] },
        { 'x-claude-code-agent-id': 'a1' },
      )
    ).json()) as Record<string, any>;
    expect(sub.content).toEqual([{ type: 'text', text: 'from the sub-agent' }]);
    expect(
      model
        .calls()
        .map((call) => call.purpose)
        .slice(-2),
    ).toEqual(['other', 'subagent']);
    expect(model.otherRequests()).toEqual(['POST /v1/messages/count_tokens']);
  });
});
