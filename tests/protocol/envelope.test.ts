import { describe, expect, it } from 'vitest';
import { PASS } from '../../src/hook/deps.js';
import { HOOK_EVENTS, encodeStageResult } from '../../src/protocol/index.js';

describe('encodeStageResult: the exact stdout bytes', () => {
  it('context on SessionStart and UserPromptSubmit is the Claude Code envelope', () => {
    expect(encodeStageResult('SessionStart', { kind: 'context', text: 'profile "x"\nline' })).toBe(
      '{"decision":"approve","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"profile \\"x\\"\\nline"}}',
    );
    expect(encodeStageResult('UserPromptSubmit', { kind: 'context', text: 'memories' })).toBe(
      '{"decision":"approve","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"memories"}}',
    );
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
    for (const event of HOOK_EVENTS.filter((e) => e !== 'PreToolUse')) expect(encodeStageResult(event, { kind: 'deny', reason: 'r' })).toBe('');
  });
});
