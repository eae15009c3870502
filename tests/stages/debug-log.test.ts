/**
 * The debug log's two knobs from every source, through the host simulator
 * and the BUILT bundle. README: "`plugin.codebuddy.<field>` sets any knob of
 * the table below by its field name" (on 8e37669 `debug` and
 * `debugLogPath` from ovcli.conf did nothing in hooks: the hook logger read
 * only the environment) and OPENVIKING_DEBUG_LOG: "`~` is your home
 * directory" (on 8e37669 `~/dbg.log` became `<workspace>/~/dbg.log`).
 * `OV_BUILT_PLUGIN_DIR` runs it against another build.
 *
 * @module
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../capture/support/world.js';
import { pluginProcesses } from '../support/detached.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;

let server: OvTestServer;
let home: string;
let workspace: string;

beforeEach(async () => {
  server = await startOvServer();
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-debuglog-')));
  home = join(root, 'home');
  workspace = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
});
afterEach(async () => {
  await until(() => pluginProcesses(home).length === 0, 20_000, 'background work').catch(() => undefined);
  await server.close();
  rmSync(join(home, '..'), { recursive: true, force: true, maxRetries: 5 });
});

/** A session start, a prompt (recall in the hook) and a Stop (its detached capture). */
async function session(env: Record<string, string>): Promise<void> {
  const sim = createHostSim({ pluginRoot: PLUGIN_ROOT, home, workspace, env: { OPENVIKING_URL: server.url, ...env } });
  const p = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
  await sim.fire('SessionStart', p.sessionStart('startup'));
  await sim.fire('UserPromptSubmit', p.userPromptSubmit('which editor do I prefer for this project'));
  await sim.fire('Stop', p.stop('ok'));
  await until(() => pluginProcesses(home).length === 0, 20_000, 'the Stop capture');
}

const messages = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { message: string }).message);

describe('debug log knobs', () => {
  it('debug and debugLogPath from ovcli.conf plugin.codebuddy work in every hook', async () => {
    mkdirSync(join(home, '.openviking'));
    writeFileSync(join(home, '.openviking', 'ovcli.conf'), JSON.stringify({ plugin: { codebuddy: { debug: true, debugLogPath: '~/logs/from-file.log' } } }));
    await session({});
    const logged = messages(join(home, 'logs', 'from-file.log'));
    expect(logged).toContain('recall done'); // the prompt hook
    expect(logged).toContain('process done'); // the Stop hook's detached capture
    expect(existsSync(join(home, '.openviking', 'logs', 'codebuddy-hooks.log'))).toBe(false);
  });

  it('OPENVIKING_DEBUG_LOG=~/dbg.log is the home directory\'s dbg.log, never <workspace>/~/dbg.log', async () => {
    await session({ OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: '~/dbg.log' });
    expect(messages(join(home, 'dbg.log')).length).toBeGreaterThan(0);
    expect(existsSync(join(workspace, '~'))).toBe(false);
  });
});
