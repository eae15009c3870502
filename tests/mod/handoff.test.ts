/**
 * The hand-off on the module's side (src/mod/handoff.ts, D30, D31) for every
 * kind, driven with the harness's `$` (Claude Code): the flag holds the host
 * process's id (CLAUDE_PID) exactly between open and close, under the name
 * the hook command reads (protocol/handoff.ts; the module must spell each
 * name literally); a kind given up is cleared and never handed off again,
 * without touching the others. Through the built module: the guard writes
 * no flag at all (an allowed call goes on to our prefilter), and a CLI whose
 * environment holds CodeBuddy's hook mark (where our hook commands never
 * step aside) gets no hand-off, so nothing is done twice.
 *
 * @module
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CODEBUDDY_HOOK_MARK, HANDOFF_FLAGS, type HandoffKind } from '../../src/protocol/handoff.js';
import type { Engine } from '../../src/mod/host.js';
import { startModSession, type ModSession } from '../support/mods-harness/index.js';
import { CLAUDE_PID } from '../support/mods-harness/profiles.js';

const KINDS: HandoffKind[] = ['prompt', 'start'];

let handoff: typeof import('../../src/mod/handoff.js');
let session: ModSession;
let $: Engine;

beforeEach(async () => {
  vi.resetModules(); // the module's state is per session
  handoff = await import('../../src/mod/handoff.js');
  session = await startModSession({ profile: 'claude-code' });
  $ = session.$ as Engine;
});

describe.each(KINDS)('kind %s', (kind) => {
  const flag = HANDOFF_FLAGS[kind];

  it(`sets ${flag} to the host process id from open to close, then clears it`, async () => {
    expect(await handoff.openHandoff($, kind, CLAUDE_PID)).toBe(true);
    expect(session.env.get(flag)).toBe(CLAUDE_PID);
    await handoff.closeHandoff($, kind);
    expect(session.env.has(flag)).toBe(false);
    expect(session.calls.filter((c) => c.op === 'env.set').map((c) => c.args[0])).toEqual([flag, flag]);
  });

  it('gives up for the rest of the session: cleared, later opens refused, the other kind unaffected', async () => {
    session.env.set(flag, CLAUDE_PID);
    await handoff.giveUp($, kind);
    expect(session.env.has(flag)).toBe(false);
    expect(handoff.mayHandOff(kind, CLAUDE_PID)).toBe(false);
    expect(await handoff.openHandoff($, kind, CLAUDE_PID)).toBe(false);
    for (const other of KINDS.filter((k) => k !== kind)) {
      expect(await handoff.openHandoff($, other, CLAUDE_PID)).toBe(true);
      expect(session.env.get(HANDOFF_FLAGS[other])).toBe(CLAUDE_PID);
    }
  });

  it('without a host process id it opens nothing', async () => {
    expect(handoff.mayHandOff(kind, undefined)).toBe(false);
    expect(await handoff.openHandoff($, kind, undefined)).toBe(false);
    expect(session.calls.filter((c) => c.op === 'env.set')).toEqual([]);
  });

  it('a host that refuses the variable: not handed off, never tried again this session', async () => {
    session.stub('env.set', () => ({ deny: 'launch-only' }));
    expect(await handoff.openHandoff($, kind, CLAUDE_PID)).toBe(false);
    expect(await handoff.openHandoff($, kind, CLAUDE_PID)).toBe(false);
    expect(session.calls.filter((c) => c.op === 'env.set')).toHaveLength(1);
  });
});

describe('the built module', () => {
  const startEvent = { hook_event_name: 'SessionStart', session_id: 's', cwd: '/ws', source: 'startup' };
  const promptEvent = { hook_event_name: 'UserPromptSubmit', prompt: 'hello' };

  it('the guard writes no flag: allowed calls and denies alike', async () => {
    const full = await startModSession({ profile: 'claude-code' });
    let ranBeneath = 0;
    await full.fire('tool.call', { tool: 'Read', file_path: '/ws/a.ts', tool_use_id: 't1' }, () => {
      ranBeneath += 1;
      return { text: 'a' };
    });
    await full.fire('tool.call', { tool: 'Read', file_path: 'viking://user/x.md', tool_use_id: 't2' }, () => {
      ranBeneath += 1;
      return { text: 'x' };
    });
    expect(ranBeneath).toBe(1);
    expect(full.calls.filter((c) => c.op === 'env.set')).toEqual([]);
    expect(Object.values(HANDOFF_FLAGS)).not.toContain('OPENVIKING_MODULE_GUARD');
  });

  it(`a CLI whose environment holds ${CODEBUDDY_HOOK_MARK}: no flag is ever written, the hook commands keep the start and the prompt`, async () => {
    const full = await startModSession({
      profile: 'claude-code',
      env: { [CODEBUDDY_HOOK_MARK]: '/plugins/openviking' },
    });
    const seen: string[] = [];
    await full.fire('session.start', { cwd: '/ws', surface: null, isInteractive: false });
    await full.fire('classic.SessionStart', startEvent, () => {
      seen.push('start');
      return {};
    });
    await full.fire('classic.UserPromptSubmit', promptEvent, () => {
      seen.push('prompt');
      return {};
    });
    expect(seen).toEqual(['start', 'prompt']);
    expect(full.calls.filter((c) => c.op === 'env.set')).toEqual([]);
    expect(full.calls.filter((c) => c.op.startsWith('http.'))).toEqual([]);
    expect(full.calls.some((c) => c.op === 'env.get' && c.args[0] === CODEBUDDY_HOOK_MARK)).toBe(true);
  });
});
