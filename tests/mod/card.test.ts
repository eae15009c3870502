/**
 * The memory card (src/mod/card/) through the module harness on the BUILT
 * hooks/register.mjs, as Claude Code runs it: a prompt whose hooks injected
 * a recall block opens a turn with those memories (URI, score); the agent's
 * calls of the plugin's MCP tools (either host's names) are its lookups; the
 * answer's text row draws the card under the engine's own row (one column);
 * `/openviking-card expand|collapse`
 * opens and closes every card; a Button press toggles one; the snapshot in
 * the store brings the cards back for `--continue` (same session id, fresh
 * module); a card that cannot be read or drawn leaves the answer as it was;
 * switched off, nothing is recorded or drawn.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { renderRecallBlock } from '../../src/recall/block.js';
import {
  findElement,
  startModSession,
  textOf,
  type HostProfileName,
  type ModSession,
} from '../support/mods-harness/index.js';

const PROFILES: HostProfileName[] = ['claude-code'];
const MEMORIES = [
  { uri: 'viking://user/default/memories/preferences/tabs.md', score: 0.82, text: 'tabs' },
  { uri: 'viking://user/default/memories/events/deploy.md', score: 0.61, text: 'deploy' },
];
const ROW = 'row-uuid-1';

function mcpName(tool: string): string {
  return `mcp__plugin_openviking_openviking__${tool}`;
}

/** One turn: the prompt (its hooks injected `context`), optional MCP lookups, the answer row, the turn's end. */
async function turn(
  session: ModSession,
  options: {
    context?: string[];
    lookups?: Array<{ tool: string; args: Record<string, unknown>; text: string; isError?: boolean }>;
    row?: string;
  } = {},
): Promise<void> {
  const prompt = { hook_event_name: 'UserPromptSubmit', prompt: 'how do I deploy?', session_id: 'session-1' };
  await session.fire('classic.UserPromptSubmit', prompt, () =>
    options.context === undefined ? {} : { additionalContext: options.context },
  );
  for (const lookup of options.lookups ?? []) {
    const event = { ...lookup.args, tool: mcpName(lookup.tool), tool_use_id: 'toolu_9' };
    await session.fire('tool.call', event, () => ({
      result: [],
      text: lookup.text,
      ...(lookup.isError ? { isError: true } : {}),
    }));
  }
  await session.fire('session.append', { door: 'response' }, () => ({
    uuid: options.row ?? ROW,
    message: { content: [{ type: 'text', text: 'the answer' }] },
  }));
  await session.fire('turn.complete', { answer: 'the answer', turnId: 't1' });
}

describe.each(PROFILES)('memory card, %s', (profile) => {
  it('draws one summary line under the answer: the recalled memories and the lookups of that turn', async () => {
    const session = await startModSession({ profile });
    await session.fire('session.start', { cwd: '/ws' });
    await turn(session, {
      context: ['SessionStart text', renderRecallBlock(MEMORIES, 2000, profile)],
      lookups: [
        {
          tool: 'search',
          args: { query: 'tab width' },
          text: 'Found 2:\nviking://user/default/memories/preferences/tabs.md\nviking://user/x.md',
        },
      ],
    });
    const tree = await session.render(ROW);
    const text = textOf(tree);
    expect(text).toContain('OpenViking · 2 recalled · 1 looked up [expand]');
    expect(text).not.toContain('★');
    // The engine's own rendering stays, above the card.
    expect(JSON.stringify(tree).indexOf('"engine"')).toBeLessThan(JSON.stringify(tree).indexOf('OpenViking'));
  });

  it('/openviking-card expand opens every card (memories with scores, lookups with their URI count); collapse closes them', async () => {
    const session = await startModSession({ profile });
    await session.fire('session.start', { cwd: '/ws' });
    expect(session.calls.find((c) => c.op === 'command.register')?.args[0]).toMatchObject({ name: 'openviking-card' });
    await turn(session, {
      context: [renderRecallBlock(MEMORIES, 2000, profile)],
      lookups: [{ tool: 'read', args: { uris: 'viking://user/x.md' }, text: 'nope', isError: true }],
    });
    const answer = await session.fire('command.run', { command: 'openviking-card', args: ' Expand ' }, () => ({
      text: 'beneath',
    }));
    expect(answer).toEqual({ text: 'OpenViking cards expanded.', isTextDisplayOnly: true });
    const open = textOf(await session.render(ROW));
    expect(open).toContain('★ viking://user/default/memories/preferences/tabs.md 0.82');
    expect(open).toContain('★ viking://user/default/memories/events/deploy.md 0.61');
    expect(open).toContain('⌕ read “viking://user/x.md” failed');
    expect(open).toContain('[collapse]');
    await session.fire('command.run', { command: 'openviking-card', args: 'collapse' });
    expect(textOf(await session.render(ROW))).not.toContain('★');
    expect(await session.fire('command.run', { command: 'openviking-card', args: 'sideways' })).toEqual({
      text: 'Usage: /openviking-card expand | collapse',
      isTextDisplayOnly: true,
    });
  });

  it('a Button press toggles that card alone', async () => {
    const session = await startModSession({ profile });
    await turn(session, { context: [renderRecallBlock(MEMORIES.slice(0, 1), 2000, profile)], row: 'row-a' });
    await turn(session, { context: [renderRecallBlock(MEMORIES.slice(1), 2000, profile)], row: 'row-b' });
    await session.press(await session.render('row-a'), 'openviking-card-1');
    expect(textOf(await session.render('row-a'))).toContain('★ viking://user/default/memories/preferences/tabs.md');
    expect(textOf(await session.render('row-b'))).not.toContain('★');
  });

  it('no card for a turn with nothing recalled or looked up, nor for a row the card does not know', async () => {
    const session = await startModSession({ profile });
    await turn(session, { context: ['another plugin said hello'] });
    const engine = await session.render(ROW);
    expect(textOf(engine)).not.toContain('OpenViking');
    expect(findElement(await session.render('unknown-row'), (e) => e.type === 'Text')).toBeUndefined();
  });

  it('--continue: a fresh module with the same session id and the stored snapshot draws the same cards, open as left', async () => {
    const first = await startModSession({ profile, sessionId: 'continued' });
    await turn(first, { context: [renderRecallBlock(MEMORIES, 2000, profile)] });
    await first.fire('command.run', { command: 'openviking-card', args: 'expand' });
    const again = await startModSession({ profile, sessionId: 'continued', store: first.store });
    // Restored rows are drawn before session.start: nothing yet, then the card once start restored the state.
    expect(textOf(await again.render(ROW))).not.toContain('OpenViking');
    await again.fire('session.start', { cwd: '/ws' });
    expect(textOf(await again.render(ROW))).toContain('★ viking://user/default/memories/events/deploy.md 0.61');
    const other = await startModSession({ profile, sessionId: 'another', store: first.store });
    await other.fire('session.start', { cwd: '/ws' });
    expect(textOf(await other.render(ROW))).not.toContain('OpenViking');
  });

  it("a card that cannot be read leaves the answer as the engine drew it, and says so in the host's debug log only", async () => {
    const session = await startModSession({ profile });
    await turn(session, { context: [renderRecallBlock(MEMORIES, 2000, profile)] });
    session.stub('state.get', () => {
      throw new Error('state is away');
    });
    const tree = await session.render(ROW);
    expect(textOf(tree)).not.toContain('OpenViking');
    expect(JSON.stringify(tree)).toContain('engine');
    expect(session.logs.join('\n')).toContain('memory card: render failed: state is away');
    expect(
      session.calls
        .filter((c) => c.op === 'ui.log')
        .every((c) => (c.args[1] as { to?: string } | undefined)?.to === 'debug'),
    ).toBe(true);
  });

  it("a prompt whose result the card cannot record still returns the hooks' answer unchanged", async () => {
    const session = await startModSession({ profile });
    session.stub('state.set', () => {
      throw new Error('no room');
    });
    const folded = { additionalContext: [renderRecallBlock(MEMORIES, 2000, profile)] };
    expect(await session.fire('classic.UserPromptSubmit', { prompt: 'x' }, () => folded)).toBe(folded);
  });

  it('switched off (OPENVIKING_MODULE=0): no command, nothing recorded, nothing drawn', async () => {
    const session = await startModSession({ profile, env: { OPENVIKING_MODULE: '0' } });
    await session.fire('session.start', { cwd: '/ws' });
    await turn(session, { context: [renderRecallBlock(MEMORIES, 2000, profile)] });
    expect(textOf(await session.render(ROW))).not.toContain('OpenViking');
    expect(session.calls.map((c) => c.op).filter((op) => op !== 'env.get')).toEqual([]);
  });
});
