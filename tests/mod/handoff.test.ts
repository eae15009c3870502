/**
 * The hand-off mechanism on the module's side (src/mod/handoff.ts) for every
 * kind, driven with the harness's `$` (Claude Code profile): the flag holds
 * CLAUDE_PID exactly while the kind's `next` runs, under the name the shell
 * side reads (protocol/handoff.ts; the module must spell each name
 * literally); a kind given up is cleared and never handed off again, without
 * touching the others. And on a host without a process id (CodeBuddy), the
 * built module writes no flag through a whole session.
 *
 * @module
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HANDOFF_FLAGS, type HandoffKind } from '../../src/protocol/handoff.js';
import type { Engine } from '../../src/mod/host.js';
import { startModSession, type ModSession } from '../support/mods-harness/index.js';
import { CLAUDE_PID } from '../support/mods-harness/profiles.js';

const KINDS: HandoffKind[] = ['guard', 'prompt', 'start'];

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

  it(`sets ${flag} to the host process id while next runs, and clears it after`, async () => {
    const during = await handoff.withHandoff($, kind, CLAUDE_PID, async () => session.env.get(flag));
    expect(during).toEqual({ value: CLAUDE_PID, handedOff: true });
    expect(session.env.has(flag)).toBe(false);
    expect(session.calls.filter((c) => c.op === 'env.set').map((c) => c.args[0])).toEqual([flag, flag]);
  });

  it('gives up for the rest of the session: cleared, later calls just run, the other kinds unaffected', async () => {
    session.env.set(flag, CLAUDE_PID);
    await handoff.giveUp($, kind);
    expect(session.env.has(flag)).toBe(false);
    expect(await handoff.withHandoff($, kind, CLAUDE_PID, async () => session.env.get(flag) ?? 'unset')).toEqual({
      value: 'unset',
      handedOff: false,
    });
    for (const other of KINDS.filter((k) => k !== kind)) {
      expect(
        await handoff.withHandoff($, other, CLAUDE_PID, async () => session.env.get(HANDOFF_FLAGS[other])),
      ).toEqual({ value: CLAUDE_PID, handedOff: true });
    }
  });

  it('without a host process id (CodeBuddy) it only runs next', async () => {
    expect(await handoff.withHandoff($, kind, undefined, async () => 'ran')).toEqual({
      value: 'ran',
      handedOff: false,
    });
    expect(session.calls.filter((c) => c.op === 'env.set')).toEqual([]);
  });
});

describe('a host without a process id (CodeBuddy 2.163+)', () => {
  it('through session start, prompts with and without recall, tool calls and a turn, no flag is ever written', async () => {
    const full = await startModSession({ profile: 'codebuddy' });
    await full.fire('session.start', { cwd: '/ws', surface: null, isInteractive: false });
    await full.fire('classic.SessionStart', {
      hook_event_name: 'SessionStart',
      session_id: 's',
      cwd: '/ws',
      source: 'startup',
    });
    await full.fire('classic.UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'hello' }, () => ({
      additionalContext: [
        '<openviking-context source="recall">\n<memory uri="viking://user/x.md" score="0.50"/>\n</openviking-context>',
      ],
    }));
    await full.fire('tool.call', { tool: 'Read', file_path: '/ws/a.ts' }, () => ({ text: 'a' }));
    await full.fire('turn.complete', { answer: 'ok' });
    expect(full.calls.filter((c) => c.op === 'env.set')).toEqual([]);
  });
});
