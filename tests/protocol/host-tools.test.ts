/**
 * Every text the model reads names the MCP tools the way the CURRENT host
 * lists them, and no tool that host lacks (DESIGN D23): CodeBuddy
 * `mcp__openviking__*` through DeferExecuteTool; Claude Code
 * `mcp__plugin_openviking_openviking__*` through ToolSearch (there is no
 * DeferExecuteTool there). The host is told apart by the plugin variables
 * it exports. The start and recall blocks are checked through the host
 * simulator and the BUILT bundle (`npm run build` first), with the
 * resident helper off and on (a resident runs the stage with its own
 * configuration variables, not the hook's full environment).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostFromEnv, mcpToolName } from '../../src/protocol/hostTools.js';
import { resolveDataDir } from '../../src/store/paths.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import type { SimulatedHost } from '../support/host-sim/index.js';
import { stopResidents } from '../support/detached.js';
import { recallAnsweredBy, residentsListening } from '../support/resident.js';
import { startOvServer } from '../support/ov-server/index.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { DEFAULT_SEED, PROFILE_MARKER, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';

describe('hostFromEnv', () => {
  it('CodeBuddy exports CODEBUDDY_PLUGIN_ROOT (and CLAUDE_PLUGIN_ROOT); Claude Code only CLAUDE_*; neither reads as CodeBuddy', () => {
    expect(hostFromEnv({ CODEBUDDY_PLUGIN_ROOT: '/p', CLAUDE_PLUGIN_ROOT: '/p' })).toBe('codebuddy');
    expect(hostFromEnv({ CODEBUDDY_PLUGIN_ROOT: '/p', CLAUDECODE: '1' })).toBe('codebuddy');
    expect(hostFromEnv({ CLAUDE_PLUGIN_ROOT: '/p', CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'sdk-cli' })).toBe(
      'claude-code',
    );
    expect(hostFromEnv({ CLAUDE_PLUGIN_ROOT: '/p' })).toBe('claude-code');
    expect(hostFromEnv({ CODEBUDDY_PLUGIN_ROOT: '', CLAUDE_PLUGIN_ROOT: '/p' })).toBe('claude-code');
    expect(hostFromEnv({})).toBe('codebuddy');
  });

  it('names the tools as each host lists them (codebuddy-host README §4, §9)', () => {
    expect(mcpToolName('codebuddy', 'read')).toBe('mcp__openviking__read');
    expect(mcpToolName('claude-code', 'read')).toBe('mcp__plugin_openviking_openviking__read');
  });
});

/** What each host's blocks must and must not contain. */
const EXPECT: Record<SimulatedHost, { has: string[]; lacks: RegExp }> = {
  codebuddy: { has: ['mcp__openviking__read', 'DeferExecuteTool'], lacks: /mcp__plugin_/ },
  'claude-code': {
    has: ['mcp__plugin_openviking_openviking__read', 'ToolSearch {"query": "select:<tool name>"}'],
    lacks: /DeferExecuteTool|mcp__openviking__/,
  },
};

describe('the injected blocks name the current host tools', () => {
  let server: OvTestServer;
  const homes: string[] = [];
  beforeAll(async () => void (server = await startOvServer({ seed: DEFAULT_SEED })));
  afterAll(async () => {
    for (const home of homes) await stopResidents(home);
    await server.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  for (const host of ['codebuddy', 'claude-code'] as const) {
    for (const resident of [false, true]) {
      it(`${host}, resident ${resident ? 'on' : 'off'}: the start block and the recall block`, async () => {
        const home = mkdtempSync(join(tmpdir(), 'ov-host-names-'));
        homes.push(home);
        const workspace = join(home, 'ws');
        mkdirSync(workspace);
        const sim = createHostSim({
          pluginRoot: REPO_ROOT,
          home,
          workspace,
          host,
          resident,
          env: { OPENVIKING_URL: server.url, OPENVIKING_DEBUG: '1' },
        });
        const payloads = createPayloads({ workspace, configDir: join(home, '.codebuddy') });

        const start = (await sim.fire('SessionStart', payloads.sessionStart())).outputs[0]?.additionalContext ?? '';
        expect(start).toContain(PROFILE_MARKER);
        // SessionStart starts the resident; the prompt then goes through it (DESIGN D16).
        const dataDir = resolveDataDir(sim.env, home);
        if (resident) await residentsListening(dataDir);
        const firedAt = Date.now();
        const recall =
          (await sim.fire('UserPromptSubmit', payloads.userPromptSubmit(RECALL_PROMPT))).outputs[0]
            ?.additionalContext ?? '';
        expect(recall).toContain(RECALL_MARKER);
        expect(await recallAnsweredBy(dataDir, firedAt), 'who recalled').toBe(resident ? 'resident' : 'hook');
        for (const block of [start, recall]) {
          for (const text of EXPECT[host].has) expect(block).toContain(text);
          expect(block).not.toMatch(EXPECT[host].lacks);
        }
      }, 30_000);
    }
  }
});
