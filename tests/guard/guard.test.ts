import { describe, expect, it } from 'vitest';
import { PASS } from '../../src/protocol/stage.js';
import { encodeStageResult } from '../../src/protocol/envelope.js';
import { parseHookInput } from '../../src/protocol/parse.js';
import type { HookInput } from '../../src/protocol/input.js';
import { runGuard } from '../../src/stages/guard.js';
import { guardDecision } from '../../src/stages/guardRule.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';
import { DENY_CASES, GUARD_HOSTS, PASS_CASES, denyBytes, expectedReason } from './cases.js';
import type { GuardHost } from './cases.js';

/** The plugin variables each host exports to its hooks (codebuddy-host README §2, §9). */
const HOST_ENV: Record<GuardHost, Record<string, string>> = {
  codebuddy: {
    CODEBUDDY_PLUGIN_ROOT: '/p',
    CLAUDE_PLUGIN_ROOT: '/p',
    CODEBUDDY_PROJECT_DIR: '/ws',
    CLAUDE_PROJECT_DIR: '/ws',
  },
  'claude-code': {
    CLAUDE_PLUGIN_ROOT: '/p',
    CLAUDE_PROJECT_DIR: '/ws',
    CLAUDECODE: '1',
    CLAUDE_CODE_ENTRYPOINT: 'sdk-cli',
    CLAUDE_PLUGIN_DATA: '/d',
  },
};

function preToolUse(toolName: string, toolInput: unknown): HookInput {
  return {
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    ...(toolInput === undefined ? {} : { tool_input: toolInput }),
  };
}

describe('guard stage (in process)', () => {
  for (const host of GUARD_HOSTS) {
    for (const c of DENY_CASES) {
      it(`${host}: denies ${c.name} with the exact bytes`, async () => {
        const reason = expectedReason(c, host);
        const result = await runGuard(preToolUse(c.toolName, c.toolInput), createTestDeps({ env: HOST_ENV[host] }));
        expect(result).toEqual({ kind: 'deny', reason });
        expect(encodeStageResult('PreToolUse', result)).toBe(denyBytes(reason ?? ''));
      });
    }

    for (const c of PASS_CASES) {
      it(`${host}: passes ${c.name} with no output`, async () => {
        const result = await runGuard(preToolUse(c.toolName, c.toolInput), createTestDeps({ env: HOST_ENV[host] }));
        expect(result).toEqual(PASS);
        expect(encodeStageResult('PreToolUse', result)).toBe('');
      });
    }
  }

  it("a reason names only the current host's tools", async () => {
    for (const c of DENY_CASES) {
      const onCodeBuddy = await runGuard(
        preToolUse(c.toolName, c.toolInput),
        createTestDeps({ env: HOST_ENV.codebuddy }),
      );
      const onClaude = await runGuard(
        preToolUse(c.toolName, c.toolInput),
        createTestDeps({ env: HOST_ENV['claude-code'] }),
      );
      const text = (result: typeof onClaude): string => (result.kind === 'deny' ? result.reason : '');
      expect(text(onClaude), c.name).not.toMatch(/DeferExecuteTool|mcp__openviking__/);
      expect(text(onClaude), c.name).toContain('mcp__plugin_openviking_openviking__');
      expect(text(onCodeBuddy), c.name).not.toContain('mcp__plugin_');
      expect(text(onCodeBuddy), c.name).toContain('DeferExecuteTool');
    }
  });

  it('a hook run with neither plugin variable (by hand) answers as on CodeBuddy', async () => {
    const c = DENY_CASES[0];
    if (!c) throw new Error('no deny case');
    expect(await runGuard(preToolUse(c.toolName, c.toolInput), createTestDeps({ env: {} }))).toEqual({
      kind: 'deny',
      reason: expectedReason(c, 'codebuddy'),
    });
  });

  it('judges only PreToolUse and touches no deps', async () => {
    const deps = createTestDeps();
    expect(
      guardDecision({ hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'viking://x/y' } }),
    ).toEqual(PASS);
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
    const c = DENY_CASES[0];
    expect(input && c && guardDecision(input, 'codebuddy')).toEqual({
      kind: 'deny',
      reason: c && expectedReason(c, 'codebuddy'),
    });
  });

  it('works on the payload Claude Code 2.1.328 sent (the Read made absolute, codebuddy-host README §9)', async () => {
    const input = parseHookInput(
      '{"session_id":"0b6f","transcript_path":"/home/dev/.claude/projects/-home-dev-ws/0b6f.jsonl","cwd":"/home/dev/ws","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/home/dev/ws/viking:/user/alice/memories/x.md"},"tool_use_id":"toolu_01"}',
    );
    const result = input && (await runGuard(input, createTestDeps({ env: HOST_ENV['claude-code'] })));
    expect(result).toEqual({
      kind: 'deny',
      reason: [
        'viking://user/alice/memories/x.md is an OpenViking URI, not a local path, so Read cannot use it.',
        'Use mcp__plugin_openviking_openviking__read instead: mcp__plugin_openviking_openviking__read {"uris":"viking://user/alice/memories/x.md"}',
        'OpenViking MCP tools are deferred in Claude Code: if mcp__plugin_openviking_openviking__read is not loaded yet, load it first with ToolSearch {"query":"select:mcp__plugin_openviking_openviking__read"}, then call it with the params above.',
      ].join('\n'),
    });
  });
});
