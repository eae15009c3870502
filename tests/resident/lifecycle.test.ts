/**
 * The resident helper as shipped (DESIGN D16), through the host simulator,
 * the BUILT bundle and the test server: who starts it, who it answers,
 * and every way it ends, each without costing a prompt its answer beyond
 * its budget.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { afterEach, describe, expect, it } from 'vitest';
import { contextOf, createWorld, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { residentPids } from '../support/detached.js';
import { debugLines, listeningFifos, recallAnsweredBy, residentsListening } from '../support/resident.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { waitFor } from '../store/fixtures/processes.js';
import { startOvServer } from '../support/ov-server/index.js';

const worlds: World[] = [];
const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  for (const world of worlds.splice(0)) await world.dispose();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function world(env: Record<string, string> = {}, pluginRoot?: string): Promise<World> {
  const created = await createWorld({ resident: true, pluginRoot, env: { OPENVIKING_DEBUG: '1', ...env } });
  worlds.push(created);
  return created;
}

function logPath(w: World): string {
  return join(w.home, '.openviking', 'logs', 'codebuddy-hooks.log');
}

/** A world whose resident already listens (a skipped prompt started it). */
async function worldWithResident(env: Record<string, string> = {}, pluginRoot?: string): Promise<World> {
  const w = await world(env, pluginRoot);
  await prompt(w, 'hi');
  await residentsListening(w.dataDir);
  return w;
}

/**
 * How long a resident may take to leave once told to: it notices on its next
 * tick (2 s) and drains 250 ms; on a loaded 2-core box that took over 6 s once.
 * The tests assert that it leaves, not how fast (that would be a benchmark).
 */
const LEAVE_MS = 15_000;

async function killResidents(w: World): Promise<void> {
  for (const pid of residentPids(w.home)) process.kill(pid, 'SIGKILL');
  await waitFor(() => residentPids(w.home).length === 0, LEAVE_MS);
}

const residentDir = (w: World) => join(w.dataDir, 'resident');
const prompt = (w: World, text = RECALL_PROMPT, env?: Record<string, string>) =>
  w.sim.fire('UserPromptSubmit', w.payloads().userPromptSubmit(text), env ? { env } : {});

describe('starting and answering', () => {
  it('SessionStart starts the resident; the first prompt is answered by it, with one request', async () => {
    const w = await world();
    await w.sim.fire('SessionStart', w.payloads().sessionStart());
    await residentsListening(w.dataDir);
    w.server.clearRequests();
    const firedAt = Date.now();
    const result = await prompt(w);
    expect(contextOf(result)).toContain(RECALL_MARKER);
    expect(w.server.requests().map((r) => r.path)).toEqual(['/api/v1/search/search']);
    expect(await recallAnsweredBy(w.dataDir, firedAt)).toBe('resident');
  });

  it('with none running, a prompt recalls in the hook itself and starts one (at most one start a minute)', async () => {
    const w = await world();
    const firstAt = Date.now();
    const first = await prompt(w);
    expect(contextOf(first)).toContain(RECALL_MARKER);
    expect(await recallAnsweredBy(w.dataDir, firstAt)).toBe('hook');
    await residentsListening(w.dataDir);
    expect(residentPids(w.home)).toHaveLength(1);
    const secondAt = Date.now();
    expect(contextOf(await prompt(w))).toContain(RECALL_MARKER);
    expect(await recallAnsweredBy(w.dataDir, secondAt)).toBe('resident');
  });

  it('keeps its files private: directory 0700, FIFO 0600', async () => {
    const w = await worldWithResident();
    expect(statSync(residentDir(w)).mode & 0o777).toBe(0o700);
    const [fifo] = listeningFifos(w.dataDir);
    const stats = statSync(join(residentDir(w), fifo ?? ''));
    expect(stats.isFIFO()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);
  });

  it('one resident per configuration: another server URL gets its own, and each answers from its own server', async () => {
    const w = await world();
    const other = await startOvServer({
      seed: {
        files: {
          'memories/entities/default/kestrel.md': {
            content: 'KESTREL-MARKER: the kestrel cluster deploys with kustomize.',
            abstract: 'kestrel cluster deploys with kustomize',
          },
        },
      },
    });
    cleanups.push(() => other.close());
    const otherEnv = { OPENVIKING_URL: other.url };
    await prompt(w, 'hi');
    await prompt(w, 'hi', otherEnv);
    await residentsListening(w.dataDir, 2);
    expect(residentPids(w.home)).toHaveLength(2);
    expect(contextOf(await prompt(w, 'How does the kestrel cluster deploy?', otherEnv))).toContain('KESTREL-MARKER');
    expect(contextOf(await prompt(w))).toContain(RECALL_MARKER);
    expect(contextOf(await prompt(w, 'How does the kestrel cluster deploy?'))).not.toContain('KESTREL-MARKER');
  });

  it('two residents started at once for one configuration: one serves, the other leaves at once', async () => {
    const w = await world();
    const env = { ...w.sim.env, OPENVIKING_RESIDENT: 'on' };
    const starts = [0, 1].map(() =>
      spawn(process.execPath, [join(REPO_ROOT, HOOK_ENTRY), 'resident'], {
        env,
        stdio: 'ignore',
        detached: true,
      }),
    );
    const exits = starts.map((child) => new Promise<void>((resolve) => child.on('exit', () => resolve())));
    await Promise.race(exits);
    await residentsListening(w.dataDir);
    expect(residentPids(w.home)).toHaveLength(1);
    for (const child of starts) child.unref();
  });
});

describe('ending, and what a prompt costs meanwhile', () => {
  it('SIGKILLed: the next prompt finds its FIFO unread (ENXIO) and recalls in the hook, with no delay', async () => {
    const w = await worldWithResident();
    await killResidents(w);
    const firedAt = Date.now();
    const result = await prompt(w);
    expect(contextOf(result)).toContain(RECALL_MARKER);
    expect(result.durationMs).toBeLessThan(2_000);
    expect(await recallAnsweredBy(w.dataDir, firedAt)).toBe('hook');
    expect(
      debugLines(logPath(w)).some(
        (line) => line.message === 'no resident listening; the stage runs in the hook' && line.reason === 'ENXIO',
      ),
    ).toBe(true);
  });

  it('a start a minute later reclaims the dead one\u2019s lock and serves again', async () => {
    const w = await worldWithResident();
    await killResidents(w);
    const mark = readdirSync(residentDir(w)).find((name) => name.endsWith('.started')) ?? '';
    const aMinuteAgo = (Date.now() - 61_000) / 1000;
    utimesSync(join(residentDir(w), mark), aMinuteAgo, aMinuteAgo);
    await prompt(w, 'hi');
    await residentsListening(w.dataDir);
    const firedAt = Date.now();
    expect(contextOf(await prompt(w))).toContain(RECALL_MARKER);
    expect(await recallAnsweredBy(w.dataDir, firedAt)).toBe('resident');
  });

  it('stopped (SIGSTOP): the prompt goes on without memories inside its budget, and the resident is retired', async () => {
    const w = await worldWithResident();
    const [pid] = residentPids(w.home);
    process.kill(pid ?? 0, 'SIGSTOP');
    try {
      const result = await prompt(w);
      expect(result.timedOut).toBe(false);
      expect(result.outputs[0]?.stdout).toBe('');
      // The relay waits RESIDENT_WAIT_MS (6 s): inside the route budget (8 s) and the hook timeout (10 s).
      expect(result.durationMs).toBeGreaterThan(5_500);
      expect(result.durationMs).toBeLessThan(8_000);
      expect(listeningFifos(w.dataDir)).toEqual([]);
    } finally {
      process.kill(pid ?? 0, 'SIGCONT');
    }
    // Its FIFO is gone: it notices within a tick and leaves.
    await waitFor(() => residentPids(w.home).length === 0, LEAVE_MS);
    expect(contextOf(await prompt(w))).toContain(RECALL_MARKER);
  }, 30_000);

  it('idle past OPENVIKING_RESIDENT_IDLE_MS: it leaves, removing its FIFO and lock', async () => {
    const w = await worldWithResident({ OPENVIKING_RESIDENT_IDLE_MS: '300' });
    await waitFor(() => residentPids(w.home).length === 0, LEAVE_MS);
    expect(readdirSync(residentDir(w)).filter((name) => name.endsWith('.fifo') || name.endsWith('.lock'))).toEqual([]);
  });

  it('its plugin code changes (update or rebuild): it leaves, and the next start runs the new code', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ov-plugin-copy-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    for (const part of ['.codebuddy-plugin', 'hooks', 'scripts'])
      cpSync(join(REPO_ROOT, part), join(root, part), { recursive: true });
    const w = await worldWithResident({}, root);
    const now = Date.now() / 1000;
    utimesSync(join(root, HOOK_ENTRY), now, now + 1);
    await waitFor(() => residentPids(w.home).length === 0, LEAVE_MS);
    expect(
      debugLines(logPath(w)).some((line) => line.message === 'resident: retired' && line.reason === 'code-changed'),
    ).toBe(true);
  });

  it('its data directory removed: it leaves', async () => {
    const w = await worldWithResident();
    rmSync(w.dataDir, { recursive: true, force: true });
    await waitFor(() => residentPids(w.home).length === 0, LEAVE_MS);
  });

  it('SIGTERM: it removes its FIFO and releases its lock before it exits', async () => {
    const w = await worldWithResident();
    for (const pid of residentPids(w.home)) process.kill(pid, 'SIGTERM');
    await waitFor(() => residentPids(w.home).length === 0, LEAVE_MS);
    expect(readdirSync(residentDir(w)).filter((name) => name.endsWith('.fifo') || name.endsWith('.lock'))).toEqual([]);
  });

  it('switched off in ovcli.conf while it serves: it leaves at its next tick, and prompts recall in the hook', async () => {
    const w = await worldWithResident();
    mkdirSync(join(w.home, '.openviking'), { recursive: true });
    writeFileSync(
      join(w.home, '.openviking', 'ovcli.conf'),
      JSON.stringify({ plugin: { codebuddy: { resident: false } } }),
    );
    await waitFor(() => residentPids(w.home).length === 0, LEAVE_MS);
    expect(
      debugLines(logPath(w)).some((line) => line.message === 'resident: retired' && line.reason === 'switched-off'),
    ).toBe(true);
    expect(contextOf(await prompt(w))).toContain(RECALL_MARKER);
    expect(residentPids(w.home)).toEqual([]);
  });

  it('an edit of ovcli.conf reaches the next prompt it serves: its configuration is looked at again for each request', async () => {
    const w = await worldWithResident();
    const [pid] = residentPids(w.home);
    const ovcli = join(w.home, '.openviking', 'ovcli.conf');
    mkdirSync(join(w.home, '.openviking'), { recursive: true });
    writeFileSync(ovcli, JSON.stringify({ plugin: { codebuddy: { autoRecall: false } } }));
    w.server.clearRequests();
    expect(contextOf(await prompt(w)), 'recall switched off in the file').not.toContain(RECALL_MARKER);
    expect(w.server.requests().map((r) => r.path)).toEqual([]);
    rmSync(ovcli);
    const onAgainAt = Date.now();
    expect(contextOf(await prompt(w)), 'the file gone: recall on again').toContain(RECALL_MARKER);
    expect(await recallAnsweredBy(w.dataDir, onAgainAt)).toBe('resident');
    expect(residentPids(w.home), 'the same resident served both').toEqual([pid]);
  });

  it('OPENVIKING_RESIDENT=off: no resident is started, recall runs in the hook', async () => {
    const w = await world({ OPENVIKING_RESIDENT: 'off' });
    await w.sim.fire('SessionStart', w.payloads().sessionStart());
    expect(contextOf(await prompt(w))).toContain(RECALL_MARKER);
    expect(existsSync(residentDir(w))).toBe(false);
    expect(residentPids(w.home)).toEqual([]);
  });
});
