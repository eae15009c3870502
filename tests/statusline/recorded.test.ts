/**
 * What the status line and doctor's "Recent sessions" show is recorded by
 * every stage that talks to the server, not by recall alone. README: the
 * status line shows "the server's state, queued and dead writes, and the
 * session's last recall and capture"; doctor reports "the last recall and
 * capture of recent sessions". Through the host simulator and the BUILT
 * hook, status line and doctor. On 8e37669 a headless session (no prompt
 * hook) or auto-recall off left the line at "not contacted yet" even after
 * a start against a dead server, and nothing recorded a capture (doctor:
 * "capture never"). `OV_BUILT_PLUGIN_DIR` runs it against another build.
 *
 * @module
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { turnRecords, until } from '../capture/support/world.js';
import { pluginProcesses } from '../support/detached.js';
import { createHostSim, createPayloads, type HostSim, type Payloads } from '../support/host-sim/index.js';
import { useServerSandbox } from '../support/server-sandbox.js';
import { REPO_ROOT, runProcess, spawnHook } from '../support/spawn-hook.js';

const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;

const box = useServerSandbox('ov-recorded-');

function host(env: Record<string, string> = {}): { sim: HostSim; p: Payloads } {
  const sim = createHostSim({
    pluginRoot: PLUGIN_ROOT,
    home: box.home,
    workspace: box.workspace,
    profile: '2.163-headless',
    env: { OPENVIKING_URL: box.server.url, OPENVIKING_TIMEOUT_MS: '3000', ...env },
  });
  return {
    sim,
    p: createPayloads({ workspace: box.workspace, configDir: join(box.home, '.codebuddy'), hostVersion: '2.163' }),
  };
}

async function statusLine(p: Payloads): Promise<string> {
  const run = await runProcess(process.execPath, [join(PLUGIN_ROOT, 'scripts', 'statusline.mjs')], {
    stdin: JSON.stringify({ session_id: p.sessionId, cwd: box.workspace }),
    env: { PATH: process.env.PATH ?? '', HOME: box.home, NO_COLOR: '1' },
    cwd: box.workspace,
    timeoutMs: 10_000,
  });
  return run.stdout.split('\n')[0] ?? '';
}

describe('the server state, from every stage that talks to it', () => {
  it('a headless session start against a dead server: the line says down (no prompt hook ever ran)', async () => {
    const { sim, p } = host();
    await box.server.stop();
    await sim.fire('SessionStart', p.sessionStart('startup'));
    expect(await statusLine(p)).toMatch(/^OV ○ down (now|\d+s ago)$/);
    await box.server.start();
  });

  it('auto-recall off: a start against a live server says up', async () => {
    const { sim, p } = host({ OPENVIKING_AUTO_RECALL: 'false' });
    await sim.fire('SessionStart', p.sessionStart('startup'));
    expect(await statusLine(p)).toBe('OV ● up');
  });
});

describe('the last capture', () => {
  it('a captured turn shows on the status line and in doctor', async () => {
    const { sim, p } = host();
    mkdirSync(dirname(p.transcriptPath), { recursive: true });
    appendFileSync(
      p.transcriptPath,
      turnRecords(p.sessionId, box.workspace, 'a question worth keeping', 'an answer')
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    );
    await sim.fire('Stop', p.stop('an answer'));
    await until(() => pluginProcesses(box.home).length === 0, 20_000, 'the Stop capture');
    expect(await statusLine(p)).toMatch(/^OV ● up · capture 2 messages (now|\d+s ago)$/);
    const doctor = await spawnHook({
      pluginRoot: PLUGIN_ROOT,
      args: ['doctor', '--json'],
      env: { PATH: process.env.PATH ?? '', HOME: box.home, OPENVIKING_URL: box.server.url },
      cwd: box.workspace,
      timeoutMs: 20_000,
    });
    const activity = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; lines: string[] }> }).checks.find(
      (check) => check.id === 'activity',
    );
    expect(activity?.lines.join('\n')).toMatch(
      new RegExp(`cb-${p.sessionId}: recall never; capture 2 messages (now|\\d+s ago)`),
    );
  });
});
