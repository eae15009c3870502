/**
 * A hostile or compromised server cannot drive the user's terminal (issue 29
 * item 2). One test server answers every route with terminal escapes, CR,
 * C1, DEL, bidi and tag characters after every string (tests/support/
 * ov-server/hostile.ts: URIs, gists, categories, `version`, identities,
 * error messages, the MCP endpoint's tool list). Through the BUILT plugin
 * as a user meets it: doctor (text and JSON), `why`, `recall-preview`, the
 * status line and the memory card (recorded in the host's state and drawn)
 * show none of those characters; the model-facing blocks stay as they were
 * (recall/escape.ts already drops them) and still carry the memories. On
 * 4953f41 doctor, `why`, `recall-preview` and the card passed them through.
 * `OV_BUILT_PLUGIN_DIR` runs the hook parts against another build.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardRows } from '../../src/mod/card/view.js';
import type { CardTurn } from '../../src/mod/card/turns.js';
import { stopResidents } from '../support/detached.js';
import { createHostSim, createPayloads, type Payloads, type HostSim } from '../support/host-sim/index.js';
import { textOf } from '../support/mods-harness/index.js';
import { HOSTILE_CHARACTERS, HOSTILE_TEXT, startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT, runProcess, spawnHook } from '../support/spawn-hook.js';
import { DEFAULT_SEED, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import { beneath, createModWorld, promptEvent, type ModWorld } from '../mod/support/world.js';

const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;

let server: OvTestServer;
let root: string;
let home: string;
let workspace: string;
let sim: HostSim;
let p: Payloads;
let start: string;
let recall: string;

const env = () => ({
  PATH: process.env.PATH ?? '',
  HOME: home,
  OPENVIKING_URL: server.url,
  OPENVIKING_RESIDENT: 'off',
});
const clean = (text: string) => expect(text).not.toMatch(HOSTILE_CHARACTERS);

/** Every string inside a JSON value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

beforeAll(async () => {
  server = await startOvServer({ seed: DEFAULT_SEED });
  server.faults.hostileText = true;
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-hostile-server-')));
  home = join(root, 'home');
  workspace = join(root, 'ws');
  for (const dir of [home, workspace]) mkdirSync(dir);
  sim = createHostSim({ pluginRoot: PLUGIN_ROOT, home, workspace, env: env() });
  p = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
  start = (await sim.fire('SessionStart', p.sessionStart('startup'))).merged.additionalContext.join('\n');
  recall = (await sim.fire('UserPromptSubmit', p.userPromptSubmit(RECALL_PROMPT))).merged.additionalContext.join('\n');
}, 60_000);

afterAll(async () => {
  await stopResidents(home);
  await server.close();
  rmSync(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('the server really is hostile', () => {
  it('its answers carry the characters (the raw search answer)', async () => {
    const answer = await fetch(`${server.url}/health`).then((response) => response.text());
    expect(JSON.parse(answer).version).toContain(HOSTILE_TEXT);
  });
});

/** The model-facing rule (recall/escape.ts, unchanged) keeps CR: it is text for a model, never a terminal's. */
const cleanForModel = (text: string) => clean(text.replace(/\r/g, ''));

describe('the model-facing blocks stay as before: memories in, none of the characters', () => {
  it('the recall block', () => {
    expect(recall).toContain(RECALL_MARKER);
    expect(recall).toContain('evil'); // the letters of the text stay; only what a reader does not see goes
    cleanForModel(recall);
  });

  it('the start block (whatever the hostile user space left of it)', () => cleanForModel(start));
});

describe('what a person is shown', () => {
  it('doctor, as text and as JSON', async () => {
    for (const args of [['doctor'], ['doctor', '--json']]) {
      const run = await spawnHook({ pluginRoot: PLUGIN_ROOT, args, cwd: workspace, env: env(), timeoutMs: 20_000 });
      expect(run.stdout).toContain('version');
      expect(run.stdout).toContain('evil');
      clean(run.stdout);
    }
  });

  it('why', async () => {
    const run = await spawnHook({
      pluginRoot: PLUGIN_ROOT,
      args: ['why', '--session', p.sessionId],
      cwd: workspace,
      env: env(),
    });
    expect(run.stdout).toContain('recall for:');
    expect(run.stdout).toContain('viking://');
    clean(run.stdout);
  });

  it('recall-preview', async () => {
    const run = await spawnHook({
      pluginRoot: PLUGIN_ROOT,
      args: ['recall-preview', RECALL_PROMPT],
      cwd: workspace,
      env: env(),
    });
    expect(run.stdout).toContain('viking://');
    expect(run.stdout).toContain('RECALL-MARKER');
    clean(run.stdout);
  });

  it('the status line (its own colour codes aside)', async () => {
    const run = await runProcess(process.execPath, [join(PLUGIN_ROOT, 'scripts', 'statusline.mjs')], {
      env: env(),
      cwd: workspace,
      timeoutMs: 10_000,
      stdin: JSON.stringify({ session_id: p.sessionId, cwd: workspace }),
    });
    expect(run.stdout).toMatch(/^OV /);
    clean(run.stdout.replace(/\u001b\[\d+m/g, ''));
  });
});

describe('the memory card', () => {
  let world: ModWorld;
  beforeAll(async () => {
    world = await createModWorld();
    world.server.faults.hostileText = true;
  });
  afterAll(async () => world.dispose());

  it("records the module's recall and the agent's lookups without the characters, and draws none", async () => {
    const session = await world.session();
    await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT), beneath(session).run);
    const lookup = 'mcp__plugin_openviking_openviking__search';
    await session.fire('tool.call', { tool: lookup, tool_use_id: 'toolu_1', query: `tabs${HOSTILE_TEXT}` }, () => ({
      result: [],
      text: `viking://user/default/memories/x.md${HOSTILE_TEXT}`,
    }));
    const turns = (session.state.get('openviking/cardTurns')?.value ?? []) as CardTurn[];
    expect(turns[0]?.recalled.length).toBeGreaterThan(0);
    expect(turns[0]?.lookups[0]?.query).toContain('tabs');
    for (const text of stringsIn(turns)) clean(text); // what the host's store keeps for --continue
    clean(turns.flatMap((turn) => cardRows(turn).map((row) => `${row.text}${row.detail}`)).join('\n'));
    await session.fire('session.append', { door: 'response' }, () => ({
      uuid: 'row-1',
      message: { content: [{ type: 'text', text: 'the answer' }] },
    }));
    await session.fire('command.run', { command: 'openviking-card', args: 'expand' });
    const drawn = textOf(await session.render('row-1'));
    expect(drawn).toContain('★ viking://');
    clean(drawn);
  });

  // JSON escapes C0 controls, not DEL, C1, bidi or tag characters: a server's error code reached the host's debug log raw (4815fe1).
  it("the module's lines in the host's debug log (a failed recall's warning, the server's code in it) carry none", async () => {
    world.server.faults.errorBurst({ status: 500, count: 20 });
    const session = await world.session({ env: { OPENVIKING_DEBUG: '1' } });
    await session.fire('classic.UserPromptSubmit', promptEvent(world, RECALL_PROMPT), beneath(session).run);
    await session.settled();
    world.server.faults.clear();
    world.server.faults.hostileText = true;
    expect(session.logs.join('\n')).toContain('openviking: warn: recall failed');
    clean(session.logs.join('\n'));
  });

  it('a stored card of an earlier version, raw, is drawn without the characters', () => {
    const raw: CardTurn = {
      n: 1,
      recalled: [{ uri: `viking://user/default/memories/a.md${HOSTILE_TEXT}`, score: 0.5 }],
      lookups: [{ tool: `search${HOSTILE_TEXT}`, query: `q${HOSTILE_TEXT}`, hits: 1, isError: false }],
    };
    clean(
      cardRows(raw)
        .map((row) => `${row.text}${row.detail}`)
        .join('\n'),
    );
  });
});
