import { describe, expect, it } from 'vitest';
import {
  decodeClaudeCodeRecords,
  decodeTranscriptRecords,
  detectTranscriptFormat,
} from '../../src/transcript/decode.js';
import { exchange, loadRecords, message, text, tool } from './fixtures.js';

describe('decodeClaudeCodeRecords', () => {
  it('decodes the main session fixture exactly', () => {
    const records = loadRecords('claude-code/session.jsonl');
    expect(detectTranscriptFormat(records)).toBe('claude-code');
    const { messages, consumed } = decodeClaudeCodeRecords(records);
    expect(consumed).toBe(records.length);
    expect(messages).toEqual([
      message('user', ['u-1'], '2026-05-01T10:00:00.000Z', [text('Why does the parser fail on empty input?')]),
      message('assistant', ['a-2', 'a-3', 'u-2'], '2026-05-01T10:00:03.000Z', [
        text('Let me read the parser.'),
        tool(
          'toolu_01',
          'Read',
          { file_path: '/home/dev/proj/src/parse.ts' },
          'export function parse(s) { return s[0]; }',
        ),
      ]),
      message('assistant', ['a-4', 'a-5', 'u-3', 'u-4'], '2026-05-01T10:00:07.000Z', [
        tool('toolu_02', 'Bash', { command: 'npm test' }, 'FAIL parse.test.ts\n1 failed', 'error'),
        tool('toolu_03', 'Grep', { pattern: 'parse\\(' }, 'src/parse.ts:1'),
      ]),
      message('assistant', ['a-6'], '2026-05-01T10:00:12.000Z', [
        text('`parse("")` reads index 0 of an empty string.'),
      ]),
      message('user', ['u-5'], '2026-05-01T10:01:00.000Z', [text('/review src/parse.ts')]),
      message('assistant', ['a-7', 'u-7'], '2026-05-01T10:01:05.000Z', [
        {
          type: 'tool',
          tool_id: 'toolu_04',
          tool_name: 'Edit',
          tool_input: { file_path: 'src/parse.ts', old_string: 's[0]', new_string: 's[0] ?? ""' },
          tool_output: "The user doesn't want to proceed with this tool use.",
          tool_status: 'error',
        },
      ]),
      ...exchange(
        ['u-9', '2026-05-01T10:01:10.000Z', 'Use a default of null instead.'],
        ['a-9', '2026-05-01T10:02:05.000Z', 'Switched the default to null.'],
      ),
    ]);
    const all = JSON.stringify(messages);
    for (const dropped of [
      'Caveat',
      'Look at parse.ts',
      'sidechain',
      'Reviewed 1 file',
      'interrupted',
      'API Error',
      'continued from',
    ]) {
      expect(all).not.toContain(dropped);
    }
  });

  it('a sub-agent file keeps its sidechain records when asked to', () => {
    const records = loadRecords('claude-code/agent-a1b2c3.jsonl');
    expect(decodeClaudeCodeRecords(records).messages).toEqual([]);
    expect(decodeClaudeCodeRecords(records, { includeSidechain: true }).messages).toEqual([
      message('user', ['sa-1'], '2026-05-01T10:03:00.000Z', [text('Find callers of parse')]),
      message('assistant', ['sa-2', 'sa-3'], '2026-05-01T10:03:02.000Z', [
        tool('toolu_s1', 'Grep', { pattern: 'parse(' }, 'src/cli.ts:4'),
      ]),
      message('assistant', ['sa-4'], '2026-05-01T10:03:04.000Z', [text('One caller: src/cli.ts.')]),
    ]);
  });

  it('holds back a tool_use whose tool_result is not written yet', () => {
    const records = loadRecords('claude-code/session.jsonl');
    const cut = records.findIndex((r) => (r as { uuid?: string }).uuid === 'u-2');
    const { messages, consumed } = decodeClaudeCodeRecords(records.slice(0, cut));
    expect(messages.map((m) => m.sourceIds)).toEqual([['u-1']]);
    const firstHeld = records.findIndex((r) => (r as { uuid?: string }).uuid === 'a-2');
    expect(consumed).toBe(firstHeld);
  });

  it('text and tool_use blocks inside one record keep their order', () => {
    const record = {
      type: 'assistant',
      uuid: 'x-1',
      timestamp: '2026-05-01T11:00:00.000Z',
      message: {
        id: 'msg_x',
        role: 'assistant',
        content: [
          { type: 'text', text: 'First.' },
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'true' } },
          { type: 'text', text: 'Then.' },
        ],
      },
    };
    const resultRecord = {
      type: 'user',
      uuid: 'x-2',
      timestamp: '2026-05-01T11:00:01.000Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '' }] },
    };
    const { messages } = decodeClaudeCodeRecords([record, resultRecord]);
    expect(messages[0]?.parts).toEqual([text('First.'), tool('t1', 'Bash', { command: 'true' }, ''), text('Then.')]);
  });
});

describe('detectTranscriptFormat / decodeTranscriptRecords', () => {
  it('tells the formats apart past the records they share', () => {
    const snapshot = { type: 'file-history-snapshot', snapshot: {} };
    expect(detectTranscriptFormat([snapshot, { type: 'message', role: 'user', content: [] }])).toBe('codebuddy');
    expect(detectTranscriptFormat([snapshot, { type: 'function_call', callId: 'c' }])).toBe('codebuddy');
    expect(
      detectTranscriptFormat([{ type: 'summary' }, { type: 'user', message: { role: 'user', content: 'x' } }]),
    ).toBe('claude-code');
    expect(detectTranscriptFormat([snapshot, 'junk', null])).toBeUndefined();
  });

  it('dispatches on the detected or given format', () => {
    const cc = loadRecords('claude-code/session.jsonl');
    expect(decodeTranscriptRecords(cc).format).toBe('claude-code');
    expect(decodeTranscriptRecords(cc).messages).toHaveLength(8);
    const cb = loadRecords('codebuddy/W.jsonl');
    expect(decodeTranscriptRecords(cb)).toMatchObject({ format: 'codebuddy', consumed: 3 });
    expect(decodeTranscriptRecords(cb, { format: 'claude-code' }).messages).toEqual([]);
    expect(decodeTranscriptRecords([{ type: 'file-history-snapshot' }])).toEqual({
      format: undefined,
      messages: [],
      consumed: 1,
    });
  });
});

describe('a real Claude Code 2.1.328 transcript (from the e2e run, other record types trimmed)', () => {
  it('keeps the typed prompts and the answers, drops the host-written <task-notification> turn', () => {
    const records = loadRecords('claude-code/cli-2.1.328-async-agent.jsonl');
    expect(detectTranscriptFormat(records)).toBe('claude-code');
    const { messages, consumed } = decodeClaudeCodeRecords(records);
    expect(consumed).toBe(records.length);
    const view = messages.map(
      (decoded) =>
        `${decoded.role}: ${decoded.parts.map((part) => (part.type === 'text' ? part.text : `[${part.tool_name} ${part.tool_status}]`)).join(' | ')}`,
    );
    expect(view).toEqual([
      'user: E2E-CC-T1 remember that the build uses esbuild',
      'assistant: E2E-CC-R1 noted',
      'user: E2E-CC-T2 ask a helper agent about the linker',
      'assistant: [Agent completed]',
      'assistant: E2E-CC-R2 the helper answered',
      'assistant: done',
      'user: E2E-CC-T3 thanks, that is all',
      'assistant: E2E-CC-R3 you are welcome',
    ]);
    expect(JSON.stringify(messages)).not.toContain('task-notification');
  });
});
