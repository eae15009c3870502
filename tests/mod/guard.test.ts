/**
 * The hooks module's guard (src/mod/guard.ts) through the module harness,
 * on the BUILT hooks/register.mjs (`npm run build` first), as Claude Code
 * runs it: every case the PreToolUse guard denies is denied in `tool.call`
 * with the same reason naming Claude Code's tools (the shared table of
 * tests/guard/cases.ts) and the model's runs of the plugin's own commands
 * (D27), every pass goes on unchanged with no flag written (our prefilter
 * judges it again, D31); the off switch leaves everything to the shell
 * path; the module asks nothing of the network.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { commandDenyReason } from '../../src/stages/commandGuard.js';
import { DENY_CASES, expectedReason, PASS_CASES, type GuardCase } from '../guard/cases.js';
import { startModSession, type ModSession } from '../support/mods-harness/index.js';

const profile = 'claude-code';

/** The `tool.call` event as Claude Code shapes it: the model's arguments beside `tool` (FC10). */
function toolCall(c: GuardCase): Record<string, unknown> {
  const args = typeof c.toolInput === 'object' && c.toolInput !== null ? (c.toolInput as Record<string, unknown>) : {};
  return { ...args, tool: c.toolName, tool_use_id: 'toolu_1' };
}

const RAN = { result: 'ran', text: 'ran' };

async function call(session: ModSession, event: Record<string, unknown>, during?: () => void): Promise<unknown> {
  return session.fire('tool.call', event, () => {
    during?.();
    return RAN;
  });
}

describe('the guard in tool.call, Claude Code', () => {
  const host = 'claude-code';

  it('registers on the literal events the host reads, tool.call among them', async () => {
    const session = await startModSession({ profile });
    expect(session.events()).toContain('tool.call');
  });

  for (const c of DENY_CASES.filter((one) => typeof one.toolInput === 'object')) {
    it(`denies ${c.name}, naming ${host}'s tools, before anything beneath runs`, async () => {
      const session = await startModSession({ profile });
      let ranBeneath = false;
      const answer = await call(session, toolCall(c), () => (ranBeneath = true));
      expect(answer).toEqual({ deny: expectedReason(c, host) });
      expect(ranBeneath).toBe(false);
    });
  }

  for (const c of PASS_CASES) {
    it(`passes ${c.name} on, unchanged`, async () => {
      const session = await startModSession({ profile });
      const event = toolCall(c);
      let seen: unknown;
      const answer = await session.fire('tool.call', event, (e) => {
        seen = e;
        return RAN;
      });
      expect(answer).toBe(RAN);
      expect(seen).toEqual(event);
    });
  }

  it("denies the model's run of the plugin's own slash command through Skill or SlashCommand (D27), passes any other", async () => {
    const session = await startModSession({ profile });
    const skill = (args: Record<string, unknown>, tool = 'Skill') => ({ ...args, tool });
    expect(await call(session, skill({ skill: 'openviking:remember', args: '!`touch x`' }))).toEqual({
      deny: commandDenyReason('openviking:remember'),
    });
    expect(await call(session, skill({ command: '/openviking:recall deploy' }, 'SlashCommand'))).toEqual({
      deny: commandDenyReason('openviking:recall'),
    });
    expect(await call(session, skill({ skill: 'openviking-memory' }))).toBe(RAN);
  });

  it('asks nothing of the network, makes no call the host does not answer, writes no flag', async () => {
    const session = await startModSession({ profile });
    await call(session, toolCall(DENY_CASES[0]!));
    await call(session, toolCall(PASS_CASES[0]!));
    expect(session.calls.map((c) => c.op)).not.toContain('http.fetch');
    expect(session.unstubbed).toEqual([]);
    expect(session.calls.filter((c) => c.op === 'env.set')).toEqual([]);
  });

  for (const value of ['off', 'false', 'no', '0']) {
    it(`switched off by OPENVIKING_MODULE=${value}: a viking:// Read goes on to the shell guard`, async () => {
      const session = await startModSession({ profile, env: { OPENVIKING_MODULE: value } });
      let ranBeneath = false;
      const answer = await call(session, toolCall(DENY_CASES[0]!), () => (ranBeneath = true));
      expect(answer).toBe(RAN);
      expect(ranBeneath).toBe(true);
      expect(session.calls.filter((c) => c.op === 'env.set')).toEqual([]);
    });
  }
});
