import { describe, expect, it } from 'vitest';
import { PASS } from '../../src/protocol/stage.js';
import { encodeStageResult } from '../../src/protocol/envelope.js';
import { HOOK_EVENTS } from '../../src/protocol/input.js';

describe('encodeStageResult: the exact stdout bytes', () => {
  it('context on SessionStart and UserPromptSubmit is hookSpecificOutput.additionalContext, without the deprecated "decision" field', () => {
    expect(encodeStageResult('SessionStart', { kind: 'context', text: 'profile "x"\nline' })).toBe(
      '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"profile \\"x\\"\\nline"}}',
    );
    expect(encodeStageResult('UserPromptSubmit', { kind: 'context', text: 'memories' })).toBe(
      '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"memories"}}',
    );
  });

  it('a notice is the user-only systemMessage, alone or beside the context, on the two context events only', () => {
    // Alone, with suppressOutput: 2.117 would otherwise inject the raw stdout into the model's prompt.
    expect(encodeStageResult('SessionStart', { kind: 'pass', notice: 'memory is off' })).toBe(
      '{"systemMessage":"memory is off","suppressOutput":true}',
    );
    expect(encodeStageResult('SessionStart', { kind: 'context', text: 'p', notice: 'n' })).toBe(
      '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"p"},"systemMessage":"n"}',
    );
    expect(encodeStageResult('Stop', { kind: 'pass', notice: 'n' })).toBe('');
    expect(encodeStageResult('PreToolUse', { kind: 'pass', notice: 'n' })).toBe('');
  });

  it('deny on PreToolUse is permissionDecision deny with the reason', () => {
    expect(encodeStageResult('PreToolUse', { kind: 'deny', reason: 'use mcp' })).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use mcp"}}',
    );
  });

  it('pass is no output at all on every event (never an allow)', () => {
    for (const event of HOOK_EVENTS) expect(encodeStageResult(event, PASS)).toBe('');
  });

  it('writes nothing for context on other events, empty context, or deny off PreToolUse', () => {
    for (const event of HOOK_EVENTS.filter((e) => e !== 'SessionStart' && e !== 'UserPromptSubmit')) {
      expect(encodeStageResult(event, { kind: 'context', text: 'x' })).toBe('');
    }
    expect(encodeStageResult('UserPromptSubmit', { kind: 'context', text: '' })).toBe('');
    for (const event of HOOK_EVENTS.filter((e) => e !== 'PreToolUse'))
      expect(encodeStageResult(event, { kind: 'deny', reason: 'r' })).toBe('');
  });
});
