/**
 * What a resident helper may carry between sessions (DESIGN D20, issue 14
 * items 7 and 8), through the host simulator, the BUILT bundle, the test
 * server and real TLS: a session's network environment never reaches
 * another session, at most three residents run per data directory, a full
 * disk costs a prompt no wait, and leftover replies of any key are swept.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { residentKey, residentPaths } from '../../src/resident/identity.js';
import { contextOf, createWorld, DEFAULT_SEED, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';
import type { World } from '../support/session-world.js';
import { residentPids } from '../support/detached.js';
import { startOvServer } from '../support/ov-server/index.js';
import { debugLines, listeningFifos, recallAnsweredBy, residentsListening } from '../support/resident.js';
import { startTlsFront } from '../support/tls/index.js';
import { waitFor } from '../store/fixtures/processes.js';

const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(
  env: Record<string, string> = {},
  options: Parameters<typeof createWorld>[0] = {},
): Promise<World> {
  const created = await createWorld({ resident: true, ...options, env: { OPENVIKING_DEBUG: '1', ...env } });
  cleanups.push(() => created.dispose());
  return created;
}

const logPath = (w: World) => join(w.home, '.openviking', 'logs', 'codebuddy-hooks.log');
const residentDir = (w: World) => join(w.dataDir, 'resident');
const prompt = (w: World, text = RECALL_PROMPT, env?: Record<string, string>) =>
  w.sim.fire('UserPromptSubmit', w.payloads().userPromptSubmit(text), env ? { env } : {});
const searches = (w: World) => w.server.requests().filter((request) => request.path === '/api/v1/search/search').length;

describe("one session's network environment never serves another", () => {
  it('a session with NODE_TLS_REJECT_UNAUTHORIZED=0 does not make a later session send over unverified TLS', async () => {
    const server = await startOvServer({ seed: DEFAULT_SEED });
    cleanups.push(() => server.close());
    const front = await startTlsFront(Number(new URL(server.url).port));
    cleanups.push(() => front.close());
    const w = await world({ OPENVIKING_URL: front.url }, { sharedServer: server });
    const insecure = { NODE_TLS_REJECT_UNAUTHORIZED: '0' };

    // The insecure session starts a resident and is served (its own choice).
    await w.sim.fire('SessionStart', w.payloads({ sessionId: 'insecure' }).sessionStart(), { env: insecure });
    await residentsListening(w.dataDir);
    expect(contextOf(await prompt(w, RECALL_PROMPT, insecure))).toContain(RECALL_MARKER);

    // A later session without it: certificate verification applies, so the self-signed server gets nothing.
    server.clearRequests();
    const refusedBefore = front.failedHandshakes();
    const result = await prompt(w);
    expect(contextOf(result)).not.toContain(RECALL_MARKER);
    expect(searches(w)).toBe(0);
    expect(front.failedHandshakes()).toBeGreaterThan(refusedBefore);

    // Trusting the certificate instead (NODE_EXTRA_CA_CERTS) works, with verification on, through its own resident.
    const trusting = { NODE_EXTRA_CA_CERTS: new URL('../support/tls/cert.pem', import.meta.url).pathname };
    expect(contextOf(await prompt(w, RECALL_PROMPT, trusting))).toContain(RECALL_MARKER);
    await residentsListening(w.dataDir, 2);
    expect(contextOf(await prompt(w, RECALL_PROMPT, trusting))).toContain(RECALL_MARKER);
  }, 30_000);

  it('a resident starts with only its key variables and PATH, not the rest of the session environment', async () => {
    const w = await world();
    await prompt(w, 'hi', { SESSION_ONLY_SECRET: 'do-not-carry', NODE_OPTIONS: '--max-old-space-size=200' });
    await residentsListening(w.dataDir);
    const [pid] = residentPids(w.home);
    const environ = execFileSync('cat', [`/proc/${pid ?? 0}/environ`])
      .toString('latin1')
      .split('\0');
    expect(environ.some((entry) => entry.startsWith('SESSION_ONLY_SECRET='))).toBe(false);
    expect(environ).toContain('NODE_OPTIONS=--max-old-space-size=200');
    expect(environ.some((entry) => entry.startsWith('PATH='))).toBe(true);
  });
});

describe('at most three residents per data directory', () => {
  it('a fourth configuration retires the idlest resident (the one whose FIFO was written longest ago)', async () => {
    const w = await world();
    const configs = ['a', 'b', 'c', 'd'].map((name) => ({
      OPENVIKING_PROMPT_DEADLINE_MS: String(1000 + name.charCodeAt(0)),
    }));
    const fifoOf = (env: Record<string, string>) =>
      residentPaths(w.dataDir, residentKey({ ...w.sim.env, ...env }, w.sim.env.CODEBUDDY_PLUGIN_ROOT ?? '')).fifo;
    for (const [index, env] of configs.slice(0, 3).entries()) {
      await prompt(w, 'hi', env);
      await residentsListening(w.dataDir, index + 1);
    }
    // The first one is used again, so the second is now the idlest.
    expect(contextOf(await prompt(w, RECALL_PROMPT, configs[0]))).toContain(RECALL_MARKER);
    await prompt(w, 'hi', configs[3]);
    await waitFor(() => residentPids(w.home).length === 3 && listeningFifos(w.dataDir).length === 3, 8_000);
    expect(existsSync(fifoOf(configs[1] ?? {}))).toBe(false);
    for (const env of [configs[0], configs[2], configs[3]])
      expect(existsSync(fifoOf(env ?? {})), JSON.stringify(env)).toBe(true);
    expect(
      debugLines(logPath(w)).some((line) => line.message === 'resident: retired' && line.reason === 'fifo-gone'),
    ).toBe(true);
  }, 30_000);
});

describe('leftovers', () => {
  it("a late reply of a key whose resident never runs again is removed by the next SessionStart (any key's files, by age)", async () => {
    const w = await world();
    mkdirSync(residentDir(w), { recursive: true, mode: 0o700 });
    const stale = join(residentDir(w), 'fedcba9876543210-4242-abc123.reply');
    const fresh = join(residentDir(w), 'fedcba9876543210-4243-abc124.reply');
    writeFileSync(stale, '{"v":1,"result":{"kind":"context","text":"recalled memories"}}', { mode: 0o600 });
    writeFileSync(fresh, '{"v":1,"result":{"kind":"pass"}}', { mode: 0o600 });
    const twoMinutesAgo = (Date.now() - 120_000) / 1000;
    utimesSync(stale, twoMinutesAgo, twoMinutesAgo);
    await w.sim.fire('SessionStart', w.payloads().sessionStart());
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true); // a hook may still be waiting for it
  });
});

describe('a wall-clock step during the wait', () => {
  it("the built hook's wait for a stopped resident still ends after 6 s when the clock jumps back an hour", async () => {
    // Preloaded into the hook (and, same key, the resident): once a process opens a resident FIFO, its Date.now runs an hour behind.
    const stepDir = mkdtempSync(join(tmpdir(), 'ov-clock-step-'));
    cleanups.push(() => rmSync(stepDir, { recursive: true, force: true }));
    const preload = join(stepDir, 'step-back.mjs');
    writeFileSync(
      preload,
      [
        "import fs from 'node:fs';",
        'const realNow = Date.now; let stepped = false;',
        'Date.now = () => realNow() - (stepped ? 3_600_000 : 0);',
        'const open = fs.openSync;',
        "fs.openSync = (path, ...rest) => { if (String(path).endsWith('.fifo')) stepped = true; return open(path, ...rest); };",
      ].join('\n'),
    );
    const env = { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` };
    const w = await world(env);
    await prompt(w, 'hi');
    await residentsListening(w.dataDir);
    const [pid] = residentPids(w.home);
    process.kill(pid ?? 0, 'SIGSTOP');
    try {
      const result = await prompt(w);
      expect(result.timedOut).toBe(false);
      expect(result.durationMs).toBeGreaterThan(5_500);
      expect(result.durationMs).toBeLessThan(8_000);
    } finally {
      process.kill(pid ?? 0, 'SIGCONT');
    }
  }, 30_000);
});

/** Mounts a tmpfs of `sizeKb` at `dir` (root only); undefined where that is not allowed. */
function mountTinyDisk(dir: string, sizeKb: number): (() => void) | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return () => execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
}

/** Writes into `dir` until the file system says ENOSPC. */
function fillDisk(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  try {
    const block = Buffer.alloc(4096, 1);
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

const canMount = process.getuid?.() === 0;

describe('a full disk', () => {
  it.skipIf(!canMount)(
    'the resident answers "failed" at once (an empty reply) and the hook recalls itself: the prompt ends in under a second',
    async () => {
      const w = await world();
      const unmount = mountTinyDisk(residentDir(w), 64);
      if (unmount === undefined) return; // no tmpfs here (a container without CAP_SYS_ADMIN)
      cleanups.push(unmount);
      await prompt(w, 'hi');
      await residentsListening(w.dataDir);
      fillDisk(residentDir(w));
      const firedAt = Date.now();
      const result = await prompt(w);
      expect(result.timedOut).toBe(false);
      expect(result.durationMs).toBeLessThan(1_000);
      const lines = debugLines(logPath(w));
      const failedAt = lines.findIndex(
        (line) => line.message === 'resident: cannot write a reply; telling the hook it failed',
      );
      expect(failedAt).toBeGreaterThan(-1);
      // The hook ran recall itself, after the resident's (whose mark the resident wrote just after its failed
      // reply). Its context-face call finds nothing new: the server already handed this session those memories
      // in the resident's call, whose answer never reached the host; the recall's mark says who answered.
      expect(await recallAnsweredBy(w.dataDir, firedAt)).toBe('hook');
      expect(readdirSync(residentDir(w)).filter((name) => name.endsWith('.reply'))).toEqual([]);
    },
    20_000,
  );
});
