import { describe, expect, it } from 'vitest';
import { PASS } from '../../src/hook/deps.js';
import { encodeStageResult } from '../../src/protocol/envelope.js';
import { parseHookInput } from '../../src/protocol/parse.js';
import type { HookInput } from '../../src/protocol/input.js';
import { guardDecision, runGuard } from '../../src/stages/guard.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';
import { DENY_CASES, PASS_CASES, denyBytes } from './cases.js';

function preToolUse(toolName: string, toolInput: unknown): HookInput {
  return { hook_event_name: 'PreToolUse', tool_name: toolName, ...(toolInput === undefined ? {} : { tool_input: toolInput }) };
}

describe('guard stage (in process)', () => {
  for (const c of DENY_CASES) {
    it(`denies ${c.name} with the exact bytes`, async () => {
      const result = await runGuard(preToolUse(c.toolName, c.toolInput), createTestDeps());
      expect(result).toEqual({ kind: 'deny', reason: c.reason });
      expect(encodeStageResult('PreToolUse', result)).toBe(denyBytes(c.reason ?? ''));
    });
  }

  for (const c of PASS_CASES) {
    it(`passes ${c.name} with no output`, async () => {
      const result = await runGuard(preToolUse(c.toolName, c.toolInput), createTestDeps());
      expect(result).toEqual(PASS);
      expect(encodeStageResult('PreToolUse', result)).toBe('');
    });
  }

  it('judges only PreToolUse and touches no deps', async () => {
    const deps = createTestDeps();
    expect(guardDecision({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'viking://x/y' } })).toEqual(PASS);
    await runGuard(preToolUse('Read', { file_path: 'viking://x/y' }), deps);
    expect(deps.logged).toEqual([]);
    expect(deps.spawned).toEqual([]);
  });

  it('stops at a nesting depth and never throws on cycles-free deep input', () => {
    let deep: unknown = 'viking://too/deep';
    for (let i = 0; i < 50; i += 1) deep = [deep];
    expect(guardDecision(preToolUse('Read', { paths: deep }))).toEqual(PASS);
    expect(guardDecision(preToolUse('Read', { paths: [['viking://ok/shallow']] })).kind).toBe('deny');
  });

  it('clips a very long URI in the reason', () => {
    const result = guardDecision(preToolUse('Read', { file_path: `viking://user/${'a'.repeat(5000)}` }));
    expect(result.kind).toBe('deny');
    expect(result.kind === 'deny' && result.reason.length).toBeLessThan(2000);
  });

  it('works on the payload the real host sent (2.117 sample A)', () => {
    const input = parseHookInput(
      '{"session_id":"a3bb","transcript_path":"/t.jsonl","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"viking://user/memories/x.md"},"call_id":"call_fake_1","tool_use_id":"call_fake_1","agent_type":"cli","permission_mode":"bypassPermissions","client":"CLI","version":"2.117.0","generation_id":"ef3d","model":"fake-model"}',
    );
    expect(input && guardDecision(input)).toEqual({ kind: 'deny', reason: DENY_CASES[0]?.reason });
  });
});
