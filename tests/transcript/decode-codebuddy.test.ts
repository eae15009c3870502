import { describe, expect, it } from 'vitest';
import { decodeCodeBuddyRecords, detectTranscriptFormat } from '../../src/transcript/decode.js';
import { exchange, iso, loadRecords, message, text, tool } from './fixtures.js';

const DENY = 'Error: PROBE-DENY use the MCP read tool';

/** The first turn of A (and of R, K, M, which repeat it): a denied Read, then "done". */
function deniedReadTurn(ids: { user: string; result: string }, prompt: string, times: [number, number, number]) {
  return [
    message('user', [ids.user], iso(times[0]), [text(prompt)]),
    message('assistant', ['chatcmpl-fake-1', ids.result], iso(times[1]), [
      tool('call_fake_1', 'Read', { file_path: 'viking://user/memories/x.md' }, DENY, 'error'),
    ]),
    message('assistant', ['chatcmpl-fake-2'], iso(times[2]), [text('done')]),
  ];
}

describe('decodeCodeBuddyRecords on real CodeBuddy 2.117 transcripts', () => {
  // A, and the same turn under other launch modes: K (env-only config), M (marketplace install).
  it.each([
    [
      'A',
      '88db8092-de75-47fb-b091-897382052e0d',
      '4acecfcf-f671-4c25-b47d-1202cb7921c8',
      'PROBE-READ please read my memory',
      [1796008186010, 1796008186646, 1796008187096],
    ],
    [
      'K',
      '3944e284-3502-4238-93ed-c85b1402dd27',
      '8c08a65f-21b2-4f15-86a0-f3ffa1ffcefe',
      'PROBE-READ env-only config',
      [1796008278822, 1796008279404, 1796008279644],
    ],
    [
      'M',
      '37f58870-586f-47c7-a88b-f70162319f1b',
      '991d7c28-888a-4011-aecd-455da8433a19',
      'PROBE-READ from marketplace install',
      [1796008431592, 1796008432003, 1796008432266],
    ],
  ] as const)(
    '%s: a hook-denied Read becomes one error tool part on its own step',
    (file, userId, resultId, prompt, times) => {
      const records = loadRecords(`codebuddy/${file}.jsonl`);
      expect(detectTranscriptFormat(records)).toBe('codebuddy');
      expect(decodeCodeBuddyRecords(records)).toEqual({
        consumed: 5,
        messages: deniedReadTurn({ user: userId, result: resultId }, prompt, [...times]),
      });
    },
  );

  it('R: after --resume the reused id chatcmpl-fake-1 still yields a distinct recordId', () => {
    const { messages, consumed } = decodeCodeBuddyRecords(loadRecords('codebuddy/R.jsonl'));
    expect(consumed).toBe(8);
    expect(messages).toEqual([
      ...deniedReadTurn(
        { user: '88db8092-de75-47fb-b091-897382052e0d', result: '4acecfcf-f671-4c25-b47d-1202cb7921c8' },
        'PROBE-READ please read my memory',
        [1796008186010, 1796008186646, 1796008187096],
      ),
      message('user', ['9d521118-8b34-4349-bc06-1e26b335a77f'], iso(1796008284928), [
        text('second prompt after resume'),
      ]),
      message('assistant', ['chatcmpl-fake-1'], iso(1796008285832), [text('done')]),
    ]);
    const keys = messages.map((m) => m.recordId);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('B: deny, deferred MCP call, sub-agent call; the /compact prompt and its summary are dropped', () => {
    const records = loadRecords('codebuddy/B.jsonl');
    const { messages, consumed } = decodeCodeBuddyRecords(records);
    expect(consumed).toBe(records.length);
    expect(messages).toEqual([
      message('user', ['4dc9ff71-0c6c-4773-bd83-2f09e6a97950'], iso(1796008255356), [text('PROBE-READ turn one')]),
      message('assistant', ['chatcmpl-fake-1', 'c781dad7-9fc7-47b5-96ba-7520ed6f234d'], iso(1796008255890), [
        tool('call_fake_1', 'Read', { file_path: 'viking://user/memories/x.md' }, DENY, 'error'),
      ]),
      message('assistant', ['chatcmpl-fake-2'], iso(1796008256179), [text('done')]),
      message('user', ['740d6cb8-c996-46c5-9225-73ce63f84c3b'], iso(1796008256335), [text('PROBE-MCP turn two')]),
      message('assistant', ['chatcmpl-fake-3', '7969991d-55c1-4ed2-a870-31cef9984778'], iso(1796008256554), [
        tool(
          'call_fake_3',
          'mcp__probe__probe_echo',
          { text: 'hello-from-fake-model' },
          'PROBE-ECHO: hello-from-fake-model',
        ),
      ]),
      message('assistant', ['chatcmpl-fake-4'], iso(1796008257146), [text('done')]),
      message('user', ['cc04d49d-8374-437c-a372-de7c662d2bee'], iso(1796008257241), [text('PROBE-AGENT turn three')]),
      message('assistant', ['chatcmpl-fake-5', 'f16dc7de-25ad-4b19-90aa-880cc285495e'], iso(1796008257429), [
        tool(
          'call_fake_5',
          'Agent',
          { description: 'probe subagent', prompt: 'SUBAGENT-PROBE say hi', subagent_type: 'general-purpose' },
          'subagent done\n\n[Agent ID: agent-5867bee3]',
        ),
      ]),
      message('assistant', ['chatcmpl-fake-7'], iso(1796008257987), [text('done')]),
    ]);
  });

  it('F: auto-compaction summary and "Please continue" are dropped, the answer after them is kept', () => {
    const { messages, consumed } = decodeCodeBuddyRecords(loadRecords('codebuddy/F.jsonl'));
    expect(consumed).toBe(11);
    expect(messages).toEqual([
      ...exchange(
        ['46f648bc-4046-4641-94e2-f11c78c7f9ca', iso(1796008320648), 'PROBE-BIG fill the context'],
        ['chatcmpl-fake-1', iso(1796008321450), 'done'],
      ),
      ...exchange(
        ['fc11f480-5bd7-4945-846c-686b10e825e8', iso(1796008321787), 'next turn after big'],
        ['chatcmpl-fake-3', iso(1796008327440), 'done'],
      ),
      ...exchange(
        ['3f8fbd4e-76d0-44b7-b4c8-4ee89636ae3d', iso(1796008327564), 'third turn'],
        ['chatcmpl-fake-4', iso(1796008327744), 'done'],
      ),
    ]);
    expect(JSON.stringify(messages)).not.toContain('conversation_history_summary');
    expect(JSON.stringify(messages)).not.toContain('Please continue');
  });

  it('L: isMeta Stop-hook prompts are dropped, the answers to them kept', () => {
    const records = loadRecords('codebuddy/L.jsonl');
    const { messages } = decodeCodeBuddyRecords(records);
    expect(messages[0]).toEqual(
      message('user', ['4819db57-f63a-4ec3-bde1-84ac74083edb'], iso(1796008389570), [
        text('hello with a slow Stop hook'),
      ]),
    );
    expect(messages.slice(1).map((m) => [m.role, m.sourceIds[0], m.parts])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ['assistant', `chatcmpl-fake-${n}`, [text('done')]]),
    );
    expect(JSON.stringify(messages)).not.toContain('Stop hook: Hook timed out');
  });

  it('C: a direct MCP call; its serialised content blocks become plain text', () => {
    const { messages } = decodeCodeBuddyRecords(loadRecords('codebuddy/C.jsonl'));
    expect(messages[1]).toEqual(
      message('assistant', ['chatcmpl-fake-1', '90924f83-2dd3-490c-b0de-77be497f819f'], iso(1796008268295), [
        tool(
          'call_fake_1',
          'mcp__probe__probe_echo',
          { text: 'hello-from-fake-model' },
          'PROBE-ECHO: hello-from-fake-model',
        ),
      ]),
    );
  });

  it('U: a tool blocked by a hook timeout is an error with the host text as output', () => {
    const { messages } = decodeCodeBuddyRecords(loadRecords('codebuddy/U.jsonl'));
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(messages[1]?.parts).toEqual([
      tool(
        'call_fake_1',
        'mcp__probe__probe_echo',
        { text: 'hello-from-fake-model' },
        'Error: Hook timed out after 2000ms',
        'error',
      ),
    ]);
  });

  // B's sub-agent file, and W (file-history-snapshot records leave no trace).
  it.each([
    [
      'B-subagent',
      2,
      ['b019b7b6-c1a8-4603-bc12-7b26f86635b3', 1796008257605, 'SUBAGENT-PROBE say hi'],
      ['chatcmpl-fake-6', 1796008257741, 'subagent done'],
    ],
    [
      'W',
      3,
      ['4f07f2a6-c6f0-468c-913e-e6e1876e2bc4', 1796008376163, 'hello with hooks that take 3 s'],
      ['chatcmpl-fake-1', 1796008379930, 'done'],
    ],
  ] as const)('%s: one prompt and its answer', (file, consumed, prompt, answer) => {
    expect(decodeCodeBuddyRecords(loadRecords(`codebuddy/${file}.jsonl`))).toEqual({
      consumed,
      messages: exchange([prompt[0], iso(prompt[1]), prompt[2]], [answer[0], iso(answer[1]), answer[2]]),
    });
  });

  it('an empty transcript (T: the prompt was dropped) decodes to nothing', () => {
    expect(decodeCodeBuddyRecords([])).toEqual({ messages: [], consumed: 0 });
    expect(detectTranscriptFormat([])).toBeUndefined();
  });
});
