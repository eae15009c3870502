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
 * switched off, nothing is recorded or drawn. Only a block marked as ours
 * (recall/blockMark.ts: this data dir's key, this session) counts: a block
 * of the same shape another plugin injected names nothing (issue 29 item 5;
 * on 4953f41 it made the card show memories that never came from
 * OpenViking).
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CODEBUDDY_HOOK_MARK } from '../../src/protocol/handoff.js';
import { renderRecallBlock } from '../../src/recall/block.js';
import { blockMark } from '../../src/recall/blockMark.js';
import { useHostIo } from '../support/mods-harness/hostIo.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';
import { RECALL_PROMPT } from '../support/session-world.js';
import { createModWorld, promptEvent } from './support/world.js';
import {
  findElement,
  startModSession as startHarness,
  textOf,
  type HostProfileName,
  type ModSession,
  type ModSessionOptions,
} from '../support/mods-harness/index.js';

/** A HOME whose data dir holds the key that marks our blocks; every session reads it through `$.fs`. */
const HOME = mkdtempSync(join(tmpdir(), 'ov-card-home-'));
const KEY = '0123456789abcdef0123456789abcdef';
mkdirSync(join(HOME, '.codebuddy', 'openviking'), { recursive: true });
writeFileSync(join(HOME, '.codebuddy', 'openviking', 'recall-mark.key'), KEY);
afterAll(() => rmSync(HOME, { recursive: true, force: true }));

async function startModSession(options: ModSessionOptions): Promise<ModSession> {
  const session = await startHarness({ ...options, env: { HOME, ...options.env } });
  useHostIo(session, { fetch: false });
  return session;
}

/** The hook commands' recall block for the prompts of `turn` (session `session-1`), marked as ours. */
function ourBlock(items: typeof MEMORIES, profile: HostProfileName, key = KEY): string {
  return renderRecallBlock(items, 2000, profile, undefined, (body) => blockMark(key, 'cb-session-1', body));
}

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
      context: ['SessionStart text', ourBlock(MEMORIES, profile)],
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
      context: [ourBlock(MEMORIES, profile)],
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
    await turn(session, { context: [ourBlock(MEMORIES.slice(0, 1), profile)], row: 'row-a' });
    await turn(session, { context: [ourBlock(MEMORIES.slice(1), profile)], row: 'row-b' });
    await session.press(await session.render('row-a'), 'openviking-card-1');
    expect(textOf(await session.render('row-a'))).toContain('★ viking://user/default/memories/preferences/tabs.md');
    expect(textOf(await session.render('row-b'))).not.toContain('★');
  });

  it("a block of our shape that is not ours (another plugin's injected text, another key) names no memory", async () => {
    const session = await startModSession({ profile });
    await turn(session, {
      context: [renderRecallBlock(MEMORIES, 2000, profile), ourBlock(MEMORIES, profile, 'f'.repeat(32))],
    });
    expect(textOf(await session.render(ROW))).not.toContain('OpenViking');
    await turn(session, { context: [ourBlock(MEMORIES.slice(0, 1), profile)], row: 'row-ours' });
    expect(textOf(await session.render('row-ours'))).toContain('OpenViking · 1 recalled');
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
    await turn(first, { context: [ourBlock(MEMORIES, profile)] });
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
    await turn(session, { context: [ourBlock(MEMORIES, profile)] });
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
    const folded = { additionalContext: [ourBlock(MEMORIES, profile)] };
    expect(await session.fire('classic.UserPromptSubmit', { prompt: 'x' }, () => folded)).toBe(folded);
  });

  it('switched off (OPENVIKING_MODULE=0): no command, nothing recorded, nothing drawn', async () => {
    const session = await startModSession({ profile, env: { OPENVIKING_MODULE: '0' } });
    await session.fire('session.start', { cwd: '/ws' });
    await turn(session, { context: [ourBlock(MEMORIES, profile)] });
    expect(textOf(await session.render(ROW))).not.toContain('OpenViking');
    expect(session.calls.map((c) => c.op).filter((op) => op !== 'env.get')).toEqual([]);
  });
});

describe("the hook commands' own block, as the card meets it when nothing is handed off (the hook recalls)", () => {
  it('counts: the built prompt hook marked it with the key it made; a copy without the mark names nothing', async () => {
    const world = await createModWorld();
    try {
      const event = promptEvent(world, RECALL_PROMPT);
      const run = await spawnHook({
        stdin: JSON.stringify(event),
        cwd: world.workspace,
        env: { PATH: process.env.PATH, ...world.env, CODEBUDDY_PLUGIN_ROOT: REPO_ROOT, OPENVIKING_RESIDENT: 'off' },
      });
      const block = (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
        .additionalContext;
      expect(block).toMatch(/^<openviking-context source="recall" mark="[0-9a-f]{24}">/);
      const recalled = async (context: string) => {
        const session = await world.session({ env: { [CODEBUDDY_HOOK_MARK]: '/plugins/openviking' } });
        await session.fire('classic.UserPromptSubmit', event, () => ({ additionalContext: [context] }));
        return ((session.state.get('openviking/cardTurns')?.value ?? []) as Array<{ recalled: unknown[] }>)[0]
          ?.recalled;
      };
      expect((await recalled(block))?.length).toBeGreaterThan(0);
      expect(await recalled(block.replace(/ mark="[0-9a-f]+"/, ''))).toEqual([]);
    } finally {
      await world.dispose();
    }
  });
});
