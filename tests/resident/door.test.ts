/**
 * The resident's door (DESIGN D45) as shipped: hooks/relay.sh through the
 * host simulator, the BUILT bundle, a real resident and the test server.
 * What it must show: once a node hook has opened the door of its
 * environment, a prompt or a session start is answered with no node at all,
 * byte for byte as node answers; and every way the door can be wrong (a
 * killed resident, a restarted one, one that stopped answering) still ends
 * in the answer node would give, or the pass-through inside the budget.
 *
 * Node starts are counted by a `node` first on PATH that logs each start and
 * runs the real one, so the environment (PATH included) is the same for
 * every hook, as the host's is.
 *
 * @module
 */
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contextOf, createWorld, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { residentPids } from '../support/detached.js';
import { recallAnsweredBy, residentsListening } from '../support/resident.js';
import { waitFor } from '../store/fixtures/processes.js';

const worlds: World[] = [];
const scratch: string[] = [];

afterEach(async () => {
  for (const world of worlds.splice(0)) await world.dispose();
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface DoorWorld {
  w: World;
  /** How many times node was started since the last `resetNodeStarts`. */
  nodeStarts(): number;
  resetNodeStarts(): void;
  prompt(text?: string): ReturnType<World['sim']['fire']>;
  doorFiles(): string[];
}

/** A directory of links to every program of /usr/bin and /bin but `missing`: a PATH without them. */
function systemPathWithout(missing: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ov-door-path-'));
  scratch.push(dir);
  for (const from of ['/usr/bin', '/bin'])
    for (const name of readdirSync(from))
      if (!missing.includes(name) && !existsSync(join(dir, name))) symlinkSync(join(from, name), join(dir, name));
  return dir;
}

/** A world whose prompts run relay.sh with `sh` being `shell`, and node starts counted. */
async function doorWorld(shell = '/bin/dash', missing: string[] = []): Promise<DoorWorld> {
  const bin = mkdtempSync(join(tmpdir(), 'ov-door-bin-'));
  scratch.push(bin);
  const log = join(bin, 'node-starts.log');
  writeFileSync(join(bin, 'node'), `#!/bin/sh\necho "$*" >>'${log}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(join(bin, 'node'), 0o755);
  const path = `${bin}:${missing.length > 0 ? systemPathWithout(missing) : (process.env.PATH ?? '/usr/bin:/bin')}`;
  // `sh` on PATH is the shell under test (hooks.json says `sh relay.sh`).
  writeFileSync(join(bin, 'sh'), `#!/bin/sh\nexec '${shell}' "$@"\n`);
  chmodSync(join(bin, 'sh'), 0o755);
  const w = await createWorld({ resident: true, env: { PATH: path } });
  worlds.push(w);
  const residentDir = join(w.dataDir, 'resident');
  const starts = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  return {
    w,
    nodeStarts: () => starts().filter((line) => line.includes('hook.cjs door')).length,
    resetNodeStarts: () => rmSync(log, { force: true }),
    prompt: (text = RECALL_PROMPT) => w.sim.fire('UserPromptSubmit', w.payloads().userPromptSubmit(text)),
    doorFiles: () =>
      existsSync(residentDir) ? readdirSync(residentDir).filter((name) => name.startsWith('door-')) : [],
  };
}

/** SessionStart (starts the resident), then one prompt through node, which opens the door. */
async function withOpenDoor(shell?: string, missing?: string[]): Promise<DoorWorld> {
  const d = await doorWorld(shell, missing);
  await d.w.sim.fire('SessionStart', d.w.payloads().sessionStart());
  await residentsListening(d.w.dataDir);
  await d.prompt();
  await waitFor(() => d.doorFiles().length === 1, 10_000);
  d.resetNodeStarts();
  return d;
}

describe('a prompt through the open door', () => {
  for (const shell of ['/bin/dash', '/bin/bash', '/usr/bin/zsh']) {
    it(`starts no node and answers with the resident's recall (sh = ${shell})`, async () => {
      const d = await withOpenDoor(shell);
      const since = Date.now();
      const result = await d.prompt();
      expect(contextOf(result)).toContain(RECALL_MARKER);
      expect(d.nodeStarts()).toBe(0);
      expect(await recallAnsweredBy(d.w.dataDir, since)).toBe('resident');
    });
  }

  it('answers byte for byte what the node hook answers, read barrier included (CodeBuddy)', async () => {
    const d = await withOpenDoor();
    const byDoor = await d.prompt();
    expect(d.nodeStarts()).toBe(0);
    const doorStdout = byDoor.hooks[0]?.process?.stdout ?? '';
    for (const name of d.doorFiles()) rmSync(join(d.w.dataDir, 'resident', name));
    const byNode = await d.prompt();
    expect(d.nodeStarts()).toBe(1);
    expect(doorStdout.length).toBeGreaterThan(64 * 1024);
    // Each recall block carries its own mark (the session's and the block's, stages/prompt.ts); nothing else may differ.
    const unmarked = (stdout: string): string => stdout.replace(/mark=\\"[0-9a-f]+\\"/g, 'mark=\\"…\\"');
    expect(unmarked(doorStdout)).toContain('mark=\\"…\\"');
    expect(unmarked(doorStdout)).toBe(unmarked(byNode.hooks[0]?.process?.stdout ?? ''));
  });

  it('a session start goes through it too', async () => {
    const d = await withOpenDoor();
    const start = await d.w.sim.fire('SessionStart', d.w.payloads().sessionStart());
    expect(start.hooks[0]?.process?.exitCode).toBe(0);
    // The start's environment is the prompt's here, so its door is the same.
    expect(d.nodeStarts()).toBe(0);
  });
});

describe('when the door is wrong', () => {
  it('no `timeout` on PATH (macOS): every prompt takes node’s way, and is recalled there', async () => {
    const d = await withOpenDoor('/bin/dash', ['timeout']);
    for (let i = 0; i < 2; i++) expect(contextOf(await d.prompt())).toContain(RECALL_MARKER);
    expect(d.nodeStarts()).toBe(2);
  });

  it('its resident was killed: the prompt goes to node at once and is recalled there', async () => {
    const d = await withOpenDoor();
    for (const pid of residentPids(d.w.home)) process.kill(pid, 'SIGKILL');
    await waitFor(() => residentPids(d.w.home).length === 0, 15_000);
    const result = await d.prompt();
    expect(contextOf(result)).toContain(RECALL_MARKER);
    expect(d.nodeStarts()).toBe(1);
    expect(result.timedOut).toBe(false);
  });

  it('its resident does not know it (restarted): the prompt goes to node, which opens it again', async () => {
    const d = await withOpenDoor();
    const [door] = d.doorFiles();
    const doorFile = join(d.w.dataDir, 'resident', door ?? '');
    const [key] = readFileSync(doorFile, 'utf8').split(' ');
    for (const pid of residentPids(d.w.home)) process.kill(pid, 'SIGTERM');
    await waitFor(() => residentPids(d.w.home).length === 0, 15_000);
    // Past the once-a-minute bound on starting one (launch.ts), so this start starts a fresh resident.
    const mark = readdirSync(join(d.w.dataDir, 'resident')).find((name) => name.endsWith('.started')) ?? '';
    const aMinuteAgo = (Date.now() - 61_000) / 1000;
    utimesSync(join(d.w.dataDir, 'resident', mark), aMinuteAgo, aMinuteAgo);
    await d.w.sim.fire('SessionStart', d.w.payloads().sessionStart());
    await residentsListening(d.w.dataDir);
    const [fresh] = residentPids(d.w.home);
    // The old door, naming the new resident: the script takes it, the resident does not know its print.
    writeFileSync(doorFile, `${key} ${String(fresh)}\n`, { mode: 0o600 });
    d.resetNodeStarts();
    const result = await d.prompt();
    expect(contextOf(result)).toContain(RECALL_MARKER);
    expect(d.nodeStarts()).toBe(1);
    d.resetNodeStarts();
    expect(contextOf(await d.prompt())).toContain(RECALL_MARKER);
    expect(d.nodeStarts()).toBe(0);
  });

  it('its resident stopped answering (SIGSTOP): the prompt goes on without memories inside its budget, and the door is closed', async () => {
    const d = await withOpenDoor();
    const pids = residentPids(d.w.home);
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      const result = await d.prompt();
      expect(result.timedOut).toBe(false);
      expect(contextOf(result)).toBe('');
      expect(d.doorFiles()).toEqual([]);
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
  }, 20_000);
});
