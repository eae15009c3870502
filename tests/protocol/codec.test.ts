import { describe, expect, it } from 'vitest';
import { parseHookOutput } from '../support/host-sim/protocol/index.js';

describe('parseHookOutput', () => {
  it('exit 0 with empty stdout is a silent ok', () => {
    expect(parseHookOutput(0, '', '')).toEqual({ exitCode: 0, stdout: '', stderr: '', status: 'ok' });
  });

  it('exit 0 reads the context envelope', () => {
    const stdout =
      '{"decision":"approve","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}\n';
    expect(parseHookOutput(0, stdout, '')).toMatchObject({
      status: 'ok',
      decision: 'approve',
      hookEventName: 'UserPromptSubmit',
      additionalContext: 'ctx',
    });
  });

  it('exit 0 reads a PreToolUse deny; permissionDecision wins over the legacy decision', () => {
    const stdout = JSON.stringify({
      decision: 'approve',
      reason: 'legacy',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
    expect(parseHookOutput(0, stdout, '')).toMatchObject({ decision: 'deny', reason: 'no' });
  });

  it('reads continue, stopReason, systemMessage, ask and updatedInput/modifiedInput', () => {
    const out = parseHookOutput(
      0,
      JSON.stringify({
        continue: false,
        stopReason: 'halt',
        systemMessage: 'hi',
        hookSpecificOutput: { permissionDecision: 'ask', modifiedInput: { a: 1 } },
      }),
      '',
    );
    expect(out).toMatchObject({
      continue: false,
      stopReason: 'halt',
      systemMessage: 'hi',
      decision: 'ask',
      updatedInput: { a: 1 },
    });
  });

  it('drops fields of the wrong type and unknown decisions', () => {
    const out = parseHookOutput(
      0,
      JSON.stringify({
        continue: 'no',
        decision: 'deny',
        hookSpecificOutput: { additionalContext: 5, permissionDecision: 'maybe' },
      }),
      '',
    );
    expect(out).toEqual({ exitCode: 0, stdout: expect.any(String), stderr: '', status: 'ok' });
  });

  it('keeps non-JSON stdout as plain text', () => {
    expect(parseHookOutput(0, ' hello {', '')).toEqual({ exitCode: 0, stdout: 'hello {', stderr: '', status: 'ok' });
    expect(parseHookOutput(0, '{"broken"', '')).toEqual({ exitCode: 0, stdout: '{"broken"', stderr: '', status: 'ok' });
    expect(parseHookOutput(0, '[1,2]', '').decision).toBeUndefined();
  });

  it('exit 2 is a blocking error whose reason is stderr', () => {
    expect(parseHookOutput(2, '{"hookSpecificOutput":{"additionalContext":"x"}}', ' blocked!\n')).toEqual({
      exitCode: 2,
      stdout: '{"hookSpecificOutput":{"additionalContext":"x"}}',
      stderr: 'blocked!',
      status: 'blocking',
      decision: 'block',
      reason: 'blocked!',
    });
  });

  it('any other exit, or none, is a non-blocking error and JSON is not read', () => {
    expect(parseHookOutput(1, '{"decision":"block"}', 'oops')).toEqual({
      exitCode: 1,
      stdout: '{"decision":"block"}',
      stderr: 'oops',
      status: 'non-blocking',
    });
    expect(parseHookOutput(null, '', '').status).toBe('non-blocking');
    expect(parseHookOutput(undefined, '', 'spawn failed')).toMatchObject({
      exitCode: undefined,
      status: 'non-blocking',
      stderr: 'spawn failed',
    });
  });
});
