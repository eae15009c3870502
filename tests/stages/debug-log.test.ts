/**
 * The debug log's two knobs from every source, through the host simulator
 * and the BUILT bundle. README: "`plugin.codebuddy.<field>` sets any knob of
 * the table below by its field name" (on 8e37669 `debug` and
 * `debugLogPath` from ovcli.conf did nothing in hooks: the hook logger read
 * only the environment) and OPENVIKING_DEBUG_LOG: "`~` is your home
 * directory" (on 8e37669 `~/dbg.log` became `<workspace>/~/dbg.log`).
 * The log is private whatever was there before (issue 29 item 8): on
 * 4953f41 a log that existed at 0644 stayed 0644, and a symlink at its path
 * was followed (its target got the lines).
 * `OV_BUILT_PLUGIN_DIR` runs it against another build.
 *
 * @module
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../capture/support/world.js';
import { pluginProcesses } from '../support/detached.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { useServerSandbox } from '../support/server-sandbox.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;

const box = useServerSandbox('ov-debuglog-');

/**
 * A session start, a prompt (recall in the hook) and a Stop (its detached
 * capture). Returns the lines of `log` (when given) that the prompt hook
 * wrote: those added while it ran, once the start's processes had ended.
 */
async function session(env: Record<string, string>, log?: string): Promise<{ promptLines: LogLine[] }> {
  const sim = createHostSim({
    pluginRoot: PLUGIN_ROOT,
    home: box.home,
    workspace: box.workspace,
    env: { OPENVIKING_URL: box.server.url, ...env },
  });
  const p = createPayloads({ workspace: box.workspace, configDir: join(box.home, '.codebuddy') });
  await sim.fire('SessionStart', p.sessionStart('startup'));
  await until(() => pluginProcesses(box.home).length === 0, 20_000, 'the session start');
  const before = log === undefined ? 0 : logLines(log).length;
  await sim.fire('UserPromptSubmit', p.userPromptSubmit('which editor do I prefer for this project'));
  const promptLines = log === undefined ? [] : logLines(log).slice(before);
  await sim.fire('Stop', p.stop('ok'));
  await until(() => pluginProcesses(box.home).length === 0, 20_000, 'the Stop capture');
  return { promptLines };
}

interface LogLine {
  pid: number;
  message: string;
}

const logLines = (path: string): LogLine[] =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LogLine)
    : [];

const messages = (path: string) => logLines(path).map((line) => line.message);

describe('debug log knobs', () => {
  it('debug and debugLogPath from ovcli.conf plugin.codebuddy work in every hook', async () => {
    mkdirSync(join(box.home, '.openviking'));
    writeFileSync(
      join(box.home, '.openviking', 'ovcli.conf'),
      JSON.stringify({ plugin: { codebuddy: { debug: true, debugLogPath: '~/logs/from-file.log' } } }),
    );
    const log = join(box.home, 'logs', 'from-file.log');
    const { promptLines } = await session({}, log);
    // The prompt hook wrote there (whatever it says): lines added while it ran, all from its one process.
    expect(promptLines.length).toBeGreaterThan(0);
    expect(new Set(promptLines.map((line) => line.pid)).size).toBe(1);
    expect(messages(log)).toContain('process done'); // the Stop hook's detached capture
    expect(existsSync(join(box.home, '.openviking', 'logs', 'codebuddy-hooks.log'))).toBe(false);
  });

  it("OPENVIKING_DEBUG_LOG=~/dbg.log is the home directory's dbg.log, never <workspace>/~/dbg.log", async () => {
    await session({ OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: '~/dbg.log' });
    expect(messages(join(box.home, 'dbg.log')).length).toBeGreaterThan(0);
    expect(existsSync(join(box.workspace, '~'))).toBe(false);
  });
});

describe('debug log privacy', () => {
  it('a log that existed world-readable is made 0600 by the next line written', async () => {
    const log = join(box.home, 'dbg.log');
    writeFileSync(log, 'earlier line\n');
    chmodSync(log, 0o644);
    await session({ OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: log });
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(readFileSync(log, 'utf8')).toMatch(/^earlier line\n\{/);
  });

  it('a symlink at the log path is not followed: its target gets nothing and keeps its mode', async () => {
    const target = join(box.root, 'elsewhere.txt');
    writeFileSync(target, 'not a log\n');
    chmodSync(target, 0o644);
    const log = join(box.home, 'dbg.log');
    symlinkSync(target, log);
    await session({ OPENVIKING_DEBUG: '1', OPENVIKING_DEBUG_LOG: log });
    expect(readFileSync(target, 'utf8')).toBe('not a log\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(lstatSync(log).isSymbolicLink()).toBe(true);
  });
});
