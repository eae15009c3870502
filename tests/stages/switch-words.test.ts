/**
 * A switch's words, through the BUILT hooks as the host runs them (issue 29
 * item 7). README (Settings): a privacy switch "fails closed" on a word it
 * does not understand and "the session start says so in one line as well
 * as doctor"; any other switch, or a choice it does not offer
 * (`OPENVIKING_RECALL_PEER_SCOPE=mine`), "is ignored (the default stays)
 * ... with a warning in doctor". On 4953f41 `disabled`, `n`, `none` and `nah`
 * left memory on without a word, and `mine` was taken silently. What each
 * path then sends (nothing) is tests/stages/switches.test.ts.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { useServerSandbox } from '../support/server-sandbox.js';
import { REPO_ROOT, spawnHook } from '../support/spawn-hook.js';

const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;
const box = useServerSandbox('ov-switch-words-');

function session(env: Record<string, string>) {
  const sim = createHostSim({
    pluginRoot: PLUGIN_ROOT,
    home: box.home,
    workspace: box.workspace,
    env: { OPENVIKING_URL: box.server.url, OPENVIKING_RESIDENT: 'off', ...env },
  });
  const p = createPayloads({ workspace: box.workspace, configDir: join(box.home, '.codebuddy') });
  return {
    sim,
    start: async (source = 'startup') => (await sim.fire('SessionStart', p.sessionStart(source))).merged.systemMessages,
    prompt: async (text: string) => sim.fire('UserPromptSubmit', p.userPromptSubmit(text)),
  };
}

async function doctor(env: Record<string, string>): Promise<string> {
  const run = await spawnHook({
    pluginRoot: PLUGIN_ROOT,
    args: ['doctor'],
    cwd: box.workspace,
    env: { PATH: process.env.PATH, HOME: box.home, OPENVIKING_URL: box.server.url, ...env },
    timeoutMs: 20_000,
  });
  return run.stdout;
}

describe('a privacy switch set to a word it does not understand', () => {
  it.each(['nah', 'none'])(
    'OPENVIKING_MEMORY_ENABLED=%s: nothing is sent, one line at session start (once), doctor warns',
    async (word) => {
      const s = session({ OPENVIKING_MEMORY_ENABLED: word });
      const first = await s.start();
      expect(first).toHaveLength(1);
      expect(first[0]).toContain(`OPENVIKING_MEMORY_ENABLED="${word}"`);
      expect(first[0]).toContain('/openviking:doctor');
      expect(await s.start('resume')).toEqual([]);
      await s.prompt('which editor does the team prefer');
      expect(box.server.requests()).toEqual([]);
      const report = await doctor({ OPENVIKING_MEMORY_ENABLED: word });
      expect(report).toContain(`"${word}" is not a word a switch understands`);
      expect(report).toMatch(/privacy switch, so it reads as false/);
    },
  );

  it.each(['disabled', 'n', 'off'])('OPENVIKING_MEMORY_ENABLED=%s is understood: off, no line', async (word) => {
    const s = session({ OPENVIKING_MEMORY_ENABLED: word });
    expect(await s.start()).toEqual([]);
    await s.prompt('which editor does the team prefer');
    expect(box.server.requests()).toEqual([]);
  });

  it('"enabled": "nah" in the workspace file: off here, the line names the file', async () => {
    mkdirSync(join(box.workspace, '.openviking'));
    writeFileSync(join(box.workspace, '.openviking', 'config.json'), JSON.stringify({ enabled: 'nah' }));
    const lines = await session({}).start();
    expect(lines[0]).toContain(`enabled: "nah" (not true or false: read as false) in ${box.workspace}/.openviking`);
    expect(box.server.requests()).toEqual([]);
  });
});

describe('any other knob keeps its default, with a warning', () => {
  it('OPENVIKING_RECALL_PEER_SCOPE=mine: recall asks for all peers (the default); doctor says why', async () => {
    const env = { OPENVIKING_RECALL_PEER_SCOPE: 'mine' };
    expect(await session(env).start()).toEqual([]);
    await session(env).prompt('which editor does the team prefer');
    const search = box.server.requests({ path: '/api/v1/search/search' })[0];
    expect(search).toBeDefined();
    expect(search?.body).not.toMatchObject({ peer_scope: 'actor' });
    expect(await doctor(env)).toContain('env:OPENVIKING_RECALL_PEER_SCOPE: expected one of all, actor, got "mine"');
  });

  it('OPENVIKING_AUTO_PROFILE=nah (no privacy switch): the profile is still read; doctor warns', async () => {
    const env = { OPENVIKING_AUTO_PROFILE: 'nah' };
    await session(env).start();
    expect(box.server.requests({ path: '/api/v1/content/read' }).length).toBeGreaterThan(0);
    expect(await doctor(env)).toContain('env:OPENVIKING_AUTO_PROFILE: expected true or false');
  });

  it('OPENVIKING_CREDENTIAL_SOURCE=ovcli-only: auto, with a warning', async () => {
    expect(await doctor({ OPENVIKING_CREDENTIAL_SOURCE: 'ovcli-only' })).toContain(
      'OPENVIKING_CREDENTIAL_SOURCE="ovcli-only" is not one of auto, env, cli',
    );
  });
});
