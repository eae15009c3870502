import { describe, expect, it } from 'vitest';
import { decodeCodeBuddyRecords } from '../../src/transcript/decode.js';
import { iso, message, text, tool } from './fixtures.js';

// Synthetic CodeBuddy records in the shapes of the real samples, for the cases
// the probe runs never produced (partial tails, parallel calls, other record types).
let clock = 1_800_000_000_000;
const tick = () => (clock += 1000);

function user(id: string, prompt: string, providerData: Record<string, unknown> = { agent: 'cli' }) {
  return {
    id,
    timestamp: tick(),
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: prompt }],
    providerData,
  };
}
function say(id: string, answer: string, messageId = id) {
  return {
    id,
    timestamp: tick(),
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ providerData: { annotations: [] }, type: 'output_text', text: answer }],
    providerData: { messageId, agent: 'cli' },
  };
}
function call(id: string, callId: string, name: string, args: string, messageId = id) {
  return { id, timestamp: tick(), type: 'function_call', providerData: { messageId }, callId, name, arguments: args };
}
function result(id: string, callId: string, name: string, output: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    timestamp: tick(),
    type: 'function_call_result',
    name,
    callId,
    status: 'completed',
    output: { type: 'text', text: output },
    providerData: { toolResult: { content: output } },
    ...extra,
  };
}
const ts = (record: { timestamp: number }) => iso(record.timestamp);

describe('CodeBuddy step assembly', () => {
  it('text and calls of one response form one assistant message, parts in file order', () => {
    const records = [
      user('u1', 'list files'),
      say('r1', 'Let me look.', 'm1'),
      call('r1', 'c1', 'Bash', '{"command":"ls"}', 'm1'),
      call('r1', 'c2', 'Glob', '{"pattern":"*.ts"}', 'm1'),
      result('x1', 'c1', 'Bash', 'a.ts\nb.ts'),
      result('x2', 'c2', 'Glob', 'a.ts'),
      say('r2', 'Two files.', 'm2'),
    ];
    const { messages, consumed } = decodeCodeBuddyRecords(records);
    expect(consumed).toBe(7);
    expect(messages).toEqual([
      message('user', ['u1'], ts(records[0]!), [text('list files')]),
      message('assistant', ['r1', 'x1', 'x2'], ts(records[1]!), [
        text('Let me look.'),
        tool('c1', 'Bash', { command: 'ls' }, 'a.ts\nb.ts'),
        tool('c2', 'Glob', { pattern: '*.ts' }, 'a.ts'),
      ]),
      message('assistant', ['r2'], ts(records[6]!), [text('Two files.')]),
    ]);
  });

  it('holds back a step whose result is not written yet, and everything after it', () => {
    const records = [
      user('u1', 'run it'),
      say('r1', 'Running.', 'm1'),
      call('r1', 'c1', 'Bash', '{"command":"make"}', 'm1'),
      call('r1', 'c2', 'Bash', '{"command":"make test"}', 'm1'),
      result('x2', 'c2', 'Bash', 'ok'),
    ];
    const partial = decodeCodeBuddyRecords(records);
    expect(partial.consumed).toBe(1);
    expect(partial.messages.map((m) => m.sourceIds)).toEqual([['u1']]);

    // Fed again from `consumed` once the result is there, the step comes out whole.
    const rest = [...records.slice(partial.consumed), result('x1', 'c1', 'Bash', 'built')];
    const next = decodeCodeBuddyRecords(rest);
    expect(next.consumed).toBe(rest.length);
    expect(next.messages).toHaveLength(1);
    expect(
      next.messages[0]?.parts.map((p) => (p.type === 'tool' ? [p.tool_id, p.tool_status, p.tool_output] : p.text)),
    ).toEqual(['Running.', ['c1', 'completed', 'built'], ['c2', 'completed', 'ok']]);
  });

  it('a call whose conversation moved on without a result is emitted as an error, not held forever', () => {
    const records = [
      user('u1', 'go'),
      call('r1', 'c1', 'Bash', '{"command":"sleep 100"}'),
      user('u2', 'never mind'),
      say('r2', 'ok'),
    ];
    const { messages, consumed } = decodeCodeBuddyRecords(records);
    expect(consumed).toBe(4);
    expect(messages[1]?.parts).toEqual([
      { type: 'tool', tool_id: 'c1', tool_name: 'Bash', tool_input: { command: 'sleep 100' }, tool_status: 'error' },
    ]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('failed status, bad JSON arguments, non-object arguments and a result without its call', () => {
    const records = [
      user('u1', 'try'),
      call('r1', 'c1', 'Edit', '{"file_path": "a.ts", "old'),
      result('x1', 'c1', 'Edit', 'no such file', { status: 'incomplete' }),
      call('r2', 'c2', 'Echo', '[1,2]'),
      result('x2', 'c2', 'Echo', '1 2'),
      result('x3', 'c9', 'Read', 'stray output'),
    ];
    const { messages } = decodeCodeBuddyRecords(records);
    expect(messages.slice(1).map((m) => m.parts)).toEqual([
      [tool('c1', 'Edit', { raw_arguments: '{"file_path": "a.ts", "old' }, 'no such file', 'error')],
      [tool('c2', 'Echo', { value: [1, 2] }, '1 2')],
      [{ type: 'tool', tool_id: 'c9', tool_name: 'Read', tool_output: 'stray output', tool_status: 'completed' }],
    ]);
  });

  it('skips reasoning, turn-metrics, summary, ai-title, snapshots and non-objects', () => {
    const records = [
      user('u1', 'hi'),
      { id: 'z1', type: 'reasoning', content: [{ type: 'reasoning_text', text: 'thinking…' }] },
      { id: 'z2', type: 'file-history-snapshot', snapshot: { messageId: 'u1', trackedFileBackups: {} } },
      say('r1', 'hello'),
      { id: 'z3', type: 'turn-metrics', durationMs: 10 },
      { id: 'z4', type: 'summary', summary: 'greeting', providerData: { source: 'pre-compact' } },
      { type: 'ai-title', aiTitle: 'Greeting' },
      null,
      'junk',
    ];
    const { messages, consumed } = decodeCodeBuddyRecords(records);
    expect(consumed).toBe(records.length);
    expect(messages.map((m) => [m.role, m.parts])).toEqual([
      ['user', [text('hi')]],
      ['assistant', [text('hello')]],
    ]);
  });

  it('unwraps <user_query> after removing host blocks that quote earlier queries', () => {
    const wrapped = [
      '<system-reminder data-role="hook">ctx</system-reminder>',
      '<previous_user_message><user_query>old ask</user_query></previous_user_message>',
      '<memory_and_skills_reminder>remember things</memory_and_skills_reminder>',
      '<user_query>',
      'the real ask',
      '</user_query>',
    ].join('\n');
    const { messages } = decodeCodeBuddyRecords([
      user('u1', wrapped),
      user('u2', '<cb_summary>only host text</cb_summary>'),
    ]);
    expect(messages.map((m) => m.parts)).toEqual([[text('the real ask')]]);
  });

  it('drops host-authored prompts: isMeta, skipRun, compaction flags and logicalParentId-only records', () => {
    const records = [
      user('u1', 'Stop hook: feedback', { isMeta: true }),
      user('u2', '/cost', { skipRun: true }),
      user('u3', '<conversation_history_summary>\nsummary\n</conversation_history_summary>', { isSummary: true }),
      {
        ...user('u4', 'Please continue with the conversation.'),
        logicalParentId: 'u3',
        providerData: { agent: 'cli' },
      },
      user('u5', 'summarise', { agent: 'compact' }),
      user('u6', 'a real prompt'),
    ];
    expect(decodeCodeBuddyRecords(records).messages.map((m) => m.sourceIds)).toEqual([['u6']]);
  });
});
