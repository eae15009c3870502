/**
 * The fake model on its own (no CLI, milliseconds): SSE and JSON replies in
 * the OpenAI wire format, tool-call deltas that reassemble into the scripted
 * call, string and array user content, purpose from `x-agent-purpose`, and the
 * request log.
 *
 * @module
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserQuery } from './support/chat-types.js';
import { startFakeModel, type FakeModel } from './support/fake-model.js';
import { callTool, firstMatching, forPurpose, onPrompt } from './support/script.js';

let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel({
    script: firstMatching([
      onPrompt('TOOL', callTool('Read', { file_path: '/x' })),
      forPurpose('subagent', { text: 'from the sub-agent' }),
    ]),
  });
});

afterAll(async () => {
  await model.close();
});

async function post(body: unknown, purpose = 'conversation'): Promise<Response> {
  return fetch(model.chatUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-agent-purpose': purpose },
    body: JSON.stringify(body),
  });
}

/** Folds SSE chunks the way an OpenAI client does. */
async function foldStream(response: Response): Promise<{
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finish: string;
  done: boolean;
}> {
  const raw = await response.text();
  const events = raw.split('\n\n').filter((event) => event.startsWith('data: '));
  let text = '';
  let finish = '';
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  for (const event of events) {
    const data = event.slice('data: '.length);
    if (data === '[DONE]') continue;
    const chunk = JSON.parse(data) as {
      choices: Array<{
        delta: {
          content?: string | null;
          tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
        };
        finish_reason: string | null;
      }>;
    };
    for (const choice of chunk.choices) {
      text += choice.delta.content ?? '';
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = (calls[delta.index] ??= { id: '', name: '', arguments: '' });
        call.id ||= delta.id ?? '';
        call.name ||= delta.function?.name ?? '';
        call.arguments += delta.function?.arguments ?? '';
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  return { text, toolCalls: calls, finish, done: raw.trimEnd().endsWith('data: [DONE]') };
}

describe('fake model', () => {
  it('streams a scripted tool call whose split argument deltas reassemble exactly', async () => {
    const response = await post({
      model: 'fake-model',
      stream: true,
      messages: [{ role: 'user', content: '<user_query>TOOL please</user_query>' }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const folded = await foldStream(response);
    expect(folded.finish).toBe('tool_calls');
    expect(folded.done).toBe(true);
    expect(folded.toolCalls).toHaveLength(1);
    expect(folded.toolCalls[0]?.name).toBe('Read');
    expect(JSON.parse(folded.toolCalls[0]!.arguments)).toEqual({ file_path: '/x' });
    expect(folded.toolCalls[0]?.id).toMatch(/^call_fake_\d+$/);
  });

  it('answers array-of-parts user content and non-streamed requests', async () => {
    const response = await post({
      model: 'fake-model',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'TOOL as parts' }] }],
    });
    const body = (await response.json()) as {
      choices: Array<{ message: { tool_calls: Array<{ function: { name: string } }> }; finish_reason: string }>;
    };
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
    expect(body.choices[0]?.message.tool_calls[0]?.function.name).toBe('Read');
    expect(lastUserQuery(model.calls().at(-1)!)).toBe('TOOL as parts');
  });

  it('tells purposes apart and falls back to "done"', async () => {
    const sub = await foldStream(
      await post({ stream: true, messages: [{ role: 'user', content: 'hi' }] }, 'subagent:general-purpose'),
    );
    const main = await foldStream(await post({ stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect(sub.text).toBe('from the sub-agent');
    expect(main.text).toBe('done');
    expect(model.calls('subagent').at(-1)?.purposeHeader).toBe('subagent:general-purpose');
    expect(model.calls().every((call, index) => call.seq === index + 1)).toBe(true);
  });
});
