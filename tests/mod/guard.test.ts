/**
 * The hooks module's guard (src/mod/guard.ts) through the module harness,
 * on the BUILT hooks/register.mjs (`npm run build` first), under both host
 * profiles: every case the PreToolUse guard denies is denied in `tool.call`
 * with the same reason naming the current host's tools (the shared table of
 * tests/guard/cases.ts) and the model's runs of the plugin's own commands
 * (D27), every pass goes on; an allowed call hands the guard
 * off (its flag = CLAUDE_PID only while its `next` runs) on Claude Code and
 * never on CodeBuddy (no host process id); the off switch leaves everything
 * to the shell path; the module asks nothing of the network.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { HANDOFF_FLAGS } from '../../src/protocol/handoff.js';
import { commandDenyReason } from '../../src/stages/commandGuard.js';
import { DENY_CASES, expectedReason, PASS_CASES, type GuardCase } from '../guard/cases.js';
import { startModSession, type HostProfileName, type ModSession } from '../support/mods-harness/index.js';
import { CLAUDE_PID } from '../support/mods-harness/profiles.js';

const PROFILES: HostProfileName[] = ['claude-code', 'codebuddy'];
const FLAG = HANDOFF_FLAGS.guard;

/** The `tool.call` event as each host shapes it: Claude Code spreads the arguments, CodeBuddy's seed nests them. */
function toolCall(profile: HostProfileName, c: GuardCase): Record<string, unknown> {
  const args = typeof c.toolInput === 'object' && c.toolInput !== null ? (c.toolInput as Record<string, unknown>) : {};
  return profile === 'claude-code'
    ? { ...args, tool: c.toolName, tool_use_id: 'toolu_1' }
    : { tool: c.toolName, input: c.toolInput, tool_use_id: 'toolu_1' };
}

const RAN = { result: 'ran', text: 'ran' };

async function call(session: ModSession, event: Record<string, unknown>, during?: () => void): Promise<unknown> {
  return session.fire('tool.call', event, () => {
    during?.();
    return RAN;
  });
}

describe.each(PROFILES)('the guard in tool.call, %s', (profile) => {
  const host = profile === 'claude-code' ? 'claude-code' : 'codebuddy';

  it('registers on the literal events the host reads, tool.call among them', async () => {
    const session = await startModSession({ profile });
    expect(session.events()).toContain('tool.call');
  });

  for (const c of DENY_CASES.filter((one) => typeof one.toolInput === 'object')) {
    it(`denies ${c.name}, naming ${host}'s tools, before anything beneath runs`, async () => {
      const session = await startModSession({ profile });
      let ranBeneath = false;
      const answer = await call(session, toolCall(profile, c), () => (ranBeneath = true));
      expect(answer).toEqual({ deny: expectedReason(c, host) });
      expect(ranBeneath).toBe(false);
    });
  }

  for (const c of PASS_CASES) {
    it(`passes ${c.name} on, unchanged`, async () => {
      const session = await startModSession({ profile });
      const event = toolCall(profile, c);
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
    const skill = (args: Record<string, unknown>, tool = 'Skill') =>
      profile === 'claude-code' ? { ...args, tool } : { tool, input: args };
    expect(await call(session, skill({ skill: 'openviking:remember', args: '!`touch x`' }))).toEqual({
      deny: commandDenyReason('openviking:remember'),
    });
    expect(await call(session, skill({ command: '/openviking:recall deploy' }, 'SlashCommand'))).toEqual({
      deny: commandDenyReason('openviking:recall'),
    });
    expect(await call(session, skill({ skill: 'openviking-memory' }))).toBe(RAN);
  });

  it('asks nothing of the network and makes no call the host does not answer (CodeBuddy: only the hookEnv probe)', async () => {
    const session = await startModSession({ profile });
    await call(session, toolCall(profile, DENY_CASES[0]!));
    await call(session, toolCall(profile, PASS_CASES[0]!));
    expect(session.calls.map((c) => c.op)).not.toContain('http.fetch');
    expect(session.unstubbed).toEqual(profile === 'codebuddy' ? ['process.hookEnv'] : []);
  });

  for (const value of ['off', 'false', 'no', '0']) {
    it(`switched off by OPENVIKING_MODULE=${value}: a viking:// Read goes on to the shell guard, no flag is set`, async () => {
      const session = await startModSession({ profile, env: { OPENVIKING_MODULE: value } });
      let ranBeneath = false;
      const answer = await call(session, toolCall(profile, DENY_CASES[0]!), () => (ranBeneath = true));
      expect(answer).toBe(RAN);
      expect(ranBeneath).toBe(true);
      expect(session.calls.filter((c) => c.op === 'env.set')).toEqual([]);
    });
  }
});

describe('the guard hand-off (Claude Code)', () => {
  const allowed = (path: string) => ({ file_path: path, tool: 'Read', tool_use_id: `toolu_${path}` });

  it('an allowed call runs its next with the flag = CLAUDE_PID (our prefilter steps aside), cleared after', async () => {
    const session = await startModSession({ profile: 'claude-code' });
    let during: string | undefined;
    await call(session, allowed('/ws/a.ts'), () => (during = session.env.get(FLAG)));
    expect(during).toBe(CLAUDE_PID);
    expect(session.env.has(FLAG)).toBe(false);
    expect(session.calls.filter((c) => c.op === 'env.set').map((c) => c.args)).toEqual([
      [FLAG, CLAUDE_PID],
      [FLAG, undefined],
    ]);
  });

  it('overlapping calls: set by the first to open, cleared by the last to close', async () => {
    const session = await startModSession({ profile: 'claude-code' });
    const gates: Array<() => void> = [];
    const seen: Array<string | undefined> = [];
    const pending = ['/ws/a.ts', '/ws/b.ts', '/ws/c.ts'].map((path) =>
      session.fire('tool.call', allowed(path), async () => {
        await new Promise<void>((resolve) => gates.push(resolve));
        seen.push(session.env.get(FLAG));
        return RAN;
      }),
    );
    await expect.poll(() => gates.length).toBe(3);
    for (const open of gates) open();
    await Promise.all(pending);
    expect(seen).toEqual([CLAUDE_PID, CLAUDE_PID, CLAUDE_PID]);
    expect(session.env.has(FLAG)).toBe(false);
    expect(session.calls.filter((c) => c.op === 'env.set')).toHaveLength(2);
  });

  it('a host that refuses the variable: the call goes on, the guard is never handed off again this session', async () => {
    const session = await startModSession({ profile: 'claude-code' });
    session.stub('env.set', () => ({ deny: 'launch-only' }));
    let during: string | undefined = 'unset';
    expect(await call(session, allowed('/ws/a.ts'), () => (during = session.env.get(FLAG)))).toBe(RAN);
    expect(during).toBeUndefined();
    await call(session, allowed('/ws/b.ts'));
    expect(session.calls.filter((c) => c.op === 'env.set')).toHaveLength(1);
  });

  it('a next that throws still clears the flag', async () => {
    const session = await startModSession({ profile: 'claude-code' });
    await expect(
      session.fire('tool.call', allowed('/ws/a.ts'), () => {
        throw new Error('the tool failed');
      }),
    ).rejects.toThrow('the tool failed');
    expect(session.env.has(FLAG)).toBe(false);
  });

  it('CodeBuddy (no host process id): never sets a flag', async () => {
    const session = await startModSession({ profile: 'codebuddy' });
    await session.fire('tool.call', { tool: 'Read', input: { file_path: '/ws/a.ts' } }, () => RAN);
    expect(session.calls.filter((c) => c.op === 'env.set')).toEqual([]);
  });
});
