/**
 * Blocks that fit the host (issue 22 item 3, DESIGN D28), through the BUILT
 * hook as each host runs it (host simulator) against the test server: on
 * Claude Code every block a shell hook injects (start, recall) stays under
 * its 10,000 code units per hook answer, one frame, closed, the profile's
 * first and last lines kept, a line saying how to list the rest; CodeBuddy
 * keeps its bigger blocks. The prompt goes through the resident helper too
 * (it runs the stage with the configuration variables only). Needs
 * `npm run build`.
 *
 * On d5cc0e5 the Claude Code start block was 15,594 units (17,921 with
 * 600 files), past the limit: the model got a 2,000-unit preview, unclosed.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_HOOK_CONTEXT_LIMIT } from '../../src/protocol/hostTools.js';
import { resolveDataDir } from '../../src/store/paths.js';
import { BIG_PROFILE_FIRST, BIG_PROFILE_LAST, bigMemorySeed } from '../support/big-memory.js';
import { stopResidents } from '../support/detached.js';
import { createHostSim, createPayloads, type SimulatedHost } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { residentsListening } from '../support/resident.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const QUERY = 'how did the zephyr rollout of the billing cluster go';
/**
 * Forty memories the query finds, each with a 3,000-character abstract: on
 * an older server (no context face, no recall route) the plugin builds the
 * recall block itself from the abstracts, within budgets the knobs allow up
 * to 32,000 tokens: far past 10,000 units.
 */
function recallSeed(): { files: Record<string, { content: string; abstract: string }> } {
  const files: Record<string, { content: string; abstract: string }> = {};
  for (let n = 0; n < 40; n++) {
    const text = `Zephyr rollout of the billing cluster, step ${n} (ZEPHYR-${n}). ${'The rollout went through canary, then staging, then production, with a pause for metrics. '.repeat(33)}`;
    files[`memories/events/2026/01/${String(n).padStart(2, '0')}/zephyr-rollout-${n}.md`] = {
      content: text,
      abstract: text,
    };
  }
  return { files };
}

/** Budgets as large as the knobs allow: the cap, not the budget, must bound the block. */
const GENEROUS = {
  OPENVIKING_RECALL_TOKEN_BUDGET: '32000',
  OPENVIKING_RECALL_MAX_CONTENT_CHARS: '20000',
  OPENVIKING_RECALL_LIMIT: '100',
  OPENVIKING_SCORE_THRESHOLD: '0',
};

let server: OvTestServer;
const homes: string[] = [];
beforeAll(async () => {
  server = await startOvServer({ seed: [bigMemorySeed(), recallSeed()] });
  // An older server: the recall block is the plugin's own (find tier), sized by the knobs above.
  server.faults.legacyContextFace = true;
  server.faults.noRecallRoute = true;
});
afterAll(async () => {
  for (const home of homes) await stopResidents(home);
  await server.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function world(host: SimulatedHost, resident: boolean, env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'ov-host-blocks-'));
  homes.push(home);
  const workspace = join(home, 'ws');
  mkdirSync(workspace);
  const sim = createHostSim({
    pluginRoot: REPO_ROOT,
    home,
    workspace,
    host,
    resident,
    env: { OPENVIKING_URL: server.url, ...GENEROUS, ...env },
  });
  return { home, sim, payloads: createPayloads({ workspace, configDir: join(home, '.codebuddy') }) };
}

/** One `<openviking-context>` frame, closed, every inner element closed. */
function expectOneClosedBlock(block: string): void {
  expect(block.match(/<openviking-context /g)).toHaveLength(1);
  expect(block.endsWith('</openviking-context>')).toBe(true);
  for (const tag of ['user-profile', 'available-memories', 'memory'])
    expect(block.split(new RegExp(`<${tag}[ >]`)).length, tag).toBe(
      block.split(`</${tag}>`).length + (block.match(new RegExp(`<${tag} [^>]*/>`, 'g'))?.length ?? 0),
    );
}

describe('a 40 KB profile with 120 listed files, and a recall of 40 long memories', () => {
  for (const resident of [false, true]) {
    it(`Claude Code (resident ${resident ? 'on' : 'off'}): each block within 10,000 units, closed, the profile's first and last lines and how to list the rest`, async () => {
      const { home, sim, payloads } = world('claude-code', resident);
      const start = (await sim.fire('SessionStart', payloads.sessionStart())).outputs[0]?.additionalContext ?? '';
      expect(start.length).toBeLessThanOrEqual(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
      expectOneClosedBlock(start);
      expect(start).toContain(BIG_PROFILE_FIRST);
      expect(start).toContain(BIG_PROFILE_LAST);
      // The server lists files without abstracts: all 120 names fit beside the profile's head and tail.
      expect(start).toContain('  - default/topic-119.md');
      if (resident) await residentsListening(resolveDataDir(sim.env, home));
      const recall =
        (await sim.fire('UserPromptSubmit', payloads.userPromptSubmit(QUERY))).outputs[0]?.additionalContext ?? '';
      expect(recall.length).toBeLessThanOrEqual(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
      expectOneClosedBlock(recall);
      expect(recall).toContain('ZEPHYR-');
      expect(recall).toMatch(
        /\(\d+ more memories not shown here; search for them with mcp__plugin_openviking_openviking__search/,
      );
    }, 30_000);
  }

  it('Claude Code, 600 listed files: the listing ends with a line saying how to list the rest', async () => {
    const crowded = await startOvServer({ seed: bigMemorySeed(600) });
    try {
      const { sim, payloads } = world('claude-code', false, { OPENVIKING_URL: crowded.url });
      const start = (await sim.fire('SessionStart', payloads.sessionStart())).outputs[0]?.additionalContext ?? '';
      expect(start.length).toBeLessThanOrEqual(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
      expectOneClosedBlock(start);
      expect(start).toContain(BIG_PROFILE_FIRST);
      expect(start).toContain(BIG_PROFILE_LAST);
      expect(start).toMatch(
        /\n {2}\.\.\. \+\d+ more; list them with mcp__plugin_openviking_openviking__list \{"uri": "viking:\/\/user\/default\/memories\/preferences\/"\}\n<\/available-memories>\n<\/openviking-context>$/,
      );
    } finally {
      await crowded.close();
    }
  }, 30_000);

  it('CodeBuddy keeps its bigger blocks (the token budgets alone)', async () => {
    const { sim, payloads } = world('codebuddy', false);
    const start = (await sim.fire('SessionStart', payloads.sessionStart())).outputs[0]?.additionalContext ?? '';
    expect(start.length).toBeGreaterThan(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
    expectOneClosedBlock(start);
    expect(start).toContain(BIG_PROFILE_FIRST);
    expect(start).toContain(BIG_PROFILE_LAST);
    const recall =
      (await sim.fire('UserPromptSubmit', payloads.userPromptSubmit(QUERY))).outputs[0]?.additionalContext ?? '';
    expect(recall.length).toBeGreaterThan(CLAUDE_CODE_HOOK_CONTEXT_LIMIT);
    expectOneClosedBlock(recall);
    expect(recall).not.toContain('more memories not shown here');
  }, 30_000);
});
