import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquire, defaultIsProcessAlive, tryLock, withLock } from '../../src/store/lock.js';
import {
  deadPid,
  pathExists,
  runTogether,
  startChild,
  startZombie,
  useSandbox,
  waitFor,
} from './fixtures/processes.js';

const box = useSandbox();

const now = () => Date.now();
const base = { now, staleMs: 60_000 };

/** Plants a lock directory as a crashed holder would leave it. */
async function plantLock(
  lockPath: string,
  owner: { pid: number; host?: string },
  heartbeatAt = Date.now(),
): Promise<void> {
  await mkdir(lockPath, { recursive: true });
  const ownerFile = join(lockPath, 'deadbeefdeadbeef.owner');
  await writeFile(
    ownerFile,
    JSON.stringify({ pid: owner.pid, host: owner.host ?? hostname(), nonce: 'deadbeefdeadbeef' }),
  );
  await utimes(ownerFile, heartbeatAt / 1000, heartbeatAt / 1000);
}

describe('withLock', () => {
  it('runs fn, returns its value, and releases', async () => {
    const lockPath = join(box.dir, 'locks', 'a.lock');
    const outcome = await withLock(lockPath, { ...base, timeoutMs: 1000 }, () => 42);
    expect(outcome).toEqual({ ok: true, value: 42 });
    expect(await readdir(join(box.dir, 'locks'))).toEqual([]);
  });

  it('creates the lock private (dir 0700, owner file 0600)', async () => {
    const lockPath = join(box.dir, 'locks', 'a.lock');
    await withLock(lockPath, { ...base, timeoutMs: 1000 }, async () => {
      expect((await stat(join(box.dir, 'locks'))).mode & 0o777).toBe(0o700);
      expect((await stat(lockPath)).mode & 0o777).toBe(0o700);
      const [owner] = await readdir(lockPath);
      expect(owner).toMatch(/^[0-9a-z]+\.owner$/);
      expect((await stat(join(lockPath, owner as string))).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(join(lockPath, owner as string), 'utf8'))).toMatchObject({ pid: process.pid });
    });
  });

  it('releases when fn throws, and rethrows', async () => {
    const lockPath = join(box.dir, 'b.lock');
    await expect(
      withLock(lockPath, { ...base, timeoutMs: 1000 }, () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(await pathExists(lockPath)).toBe(false);
  });

  it('times out promptly while another holder is alive', async () => {
    const lockPath = join(box.dir, 'c.lock');
    const held = await acquire(lockPath, { ...base, timeoutMs: 1000 });
    expect(held.ok).toBe(true);
    const started = Date.now();
    const outcome = await withLock(lockPath, { ...base, timeoutMs: 200 }, () => 'never');
    const elapsed = Date.now() - started;
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout', holder: { pid: process.pid } });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000); // timeoutMs plus slack for a loaded 2-core box
    if (held.ok) await held.handle.release();
    expect((await withLock(lockPath, { ...base, timeoutMs: 200 }, () => 'now')).ok).toBe(true);
  });

  it('gives up even when the injected clock stands still', async () => {
    const lockPath = join(box.dir, 'frozen.lock');
    const held = await acquire(lockPath, { ...base, timeoutMs: 1000 });
    const frozen = { now: () => 1_000, staleMs: 60_000, timeoutMs: 100, sleep: async () => undefined };
    expect(await withLock(lockPath, frozen, () => 1)).toMatchObject({ ok: false, reason: 'timeout' });
    if (held.ok) await held.handle.release();
  });

  it('reports I/O failures as reason "error" instead of throwing', async () => {
    const notADir = join(box.dir, 'file');
    await writeFile(notADir, '');
    const outcome = await withLock(join(notADir, 'x.lock'), { ...base, timeoutMs: 100 }, () => 1);
    expect(outcome).toMatchObject({ ok: false, reason: 'error' });
  });
});

describe('stale-lock reclaim', () => {
  it('reclaims the lock of a dead process at once', async () => {
    const lockPath = join(box.dir, 'dead.lock');
    await plantLock(lockPath, { pid: await deadPid() });
    const started = Date.now();
    expect(await withLock(lockPath, { ...base, timeoutMs: 2000 }, () => 'mine')).toEqual({ ok: true, value: 'mine' });
    expect(Date.now() - started).toBeLessThan(1000); // well under the 2 s timeout: no waiting for the dead holder
  });

  it('reclaims the lock of a killed holder that is still a zombie (its parent has not reaped it yet)', async () => {
    const { pid, parent } = await startZombie();
    try {
      expect(() => process.kill(pid, 0)).not.toThrow(); // signal 0 alone calls it alive
      expect(defaultIsProcessAlive(pid)).toBe(false);
      const lockPath = join(box.dir, 'zombie.lock');
      await plantLock(lockPath, { pid });
      expect((await tryLock(lockPath, base)).ok).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('reclaims a lock whose heartbeat is older than staleMs even if its pid lives', async () => {
    const lockPath = join(box.dir, 'old.lock');
    await plantLock(lockPath, { pid: process.pid }, Date.now() - 10_000);
    expect(await withLock(lockPath, { now, staleMs: 5_000, timeoutMs: 1000 }, () => 'mine')).toEqual({
      ok: true,
      value: 'mine',
    });
  });

  it('does not reclaim a fresh lock of a live process, nor a dead pid on another host by pid alone', async () => {
    const lockPath = join(box.dir, 'fresh.lock');
    await plantLock(lockPath, { pid: process.pid });
    expect((await tryLock(lockPath, base)).ok).toBe(false);
    const remote = join(box.dir, 'remote.lock');
    await plantLock(remote, { pid: await deadPid(), host: 'some-other-host' });
    expect((await tryLock(remote, base)).ok).toBe(false);
  });

  it('lets exactly one of many simultaneous contenders win a stale lock', async () => {
    const pid = await deadPid();
    for (let round = 0; round < 10; round++) {
      const lockPath = join(box.dir, `race-${round}.lock`);
      await plantLock(lockPath, { pid });
      const attempts = await Promise.all(Array.from({ length: 12 }, () => tryLock(lockPath, base)));
      expect(attempts.filter((a) => a.ok)).toHaveLength(1);
    }
  });

  it('reclaims an owner-less (half-released) lock directory', async () => {
    const lockPath = join(box.dir, 'empty.lock');
    await mkdir(lockPath, { recursive: true });
    await writeFile(join(lockPath, 'junk'), '');
    expect((await tryLock(lockPath, base)).ok).toBe(true);
  });

  it('judges an unreadable owner file by its age only', async () => {
    const lockPath = join(box.dir, 'garbled.lock');
    await plantLock(lockPath, { pid: 1 }, Date.now() - 10_000);
    const [owner] = await readdir(lockPath);
    await writeFile(join(lockPath, owner as string), 'not json');
    await utimes(join(lockPath, owner as string), new Date(), new Date());
    expect((await tryLock(lockPath, { now, staleMs: 5_000 })).ok).toBe(false);
    await utimes(join(lockPath, owner as string), (Date.now() - 10_000) / 1000, (Date.now() - 10_000) / 1000);
    expect((await tryLock(lockPath, { now, staleMs: 5_000 })).ok).toBe(true);
  });

  it('reclaims the lock of a holder process that was SIGKILLed', async () => {
    const lockPath = join(box.dir, 'killed.lock');
    const ready = join(box.dir, 'ready.json');
    const holder = startChild('hold-lock', [lockPath, ready]);
    await waitFor(() => pathExists(ready));
    expect((await tryLock(lockPath, base)).ok).toBe(false);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.on('exit', resolve));
    expect(await withLock(lockPath, { ...base, timeoutMs: 2000 }, () => 'after')).toEqual({ ok: true, value: 'after' });
  }, 15_000); // one child process start (~0.5 s)
});

describe('tryLock, refresh and loss', () => {
  it('is non-blocking: busy while held, free after release', async () => {
    const lockPath = join(box.dir, 'worker.lock');
    const first = await tryLock(lockPath, base);
    expect(first.ok).toBe(true);
    const second = await tryLock(lockPath, base);
    expect(second).toMatchObject({ ok: false, reason: 'busy' });
    if (first.ok) expect(await first.handle.release()).toBe(true);
    expect((await tryLock(lockPath, base)).ok).toBe(true);
  });

  it('refresh keeps a long holder from going stale; a reclaimed holder learns it lost the lock', async () => {
    let clock = 1_000_000;
    const fake = { now: () => clock, staleMs: 1_000, isProcessAlive: () => true };
    const lockPath = join(box.dir, 'long.lock');
    const holder = await tryLock(lockPath, fake);
    if (!holder.ok) throw new Error('expected the lock');
    clock += 900;
    expect(await holder.handle.refresh()).toBe(true);
    clock += 900; // 1800 ms since start, 900 since refresh: still fresh
    expect((await tryLock(lockPath, fake)).ok).toBe(false);
    clock += 200; // 1100 since the refresh: stale
    const thief = await tryLock(lockPath, fake);
    expect(thief.ok).toBe(true);
    expect(await holder.handle.refresh()).toBe(false);
    expect(await holder.handle.release()).toBe(false);
    expect((await tryLock(lockPath, fake)).ok).toBe(false); // the old holder's release did not free the thief's lock
  });
});

describe('mutual exclusion between real processes', () => {
  it("three processes each increment a shared counter 30 times without a lost update, starting from a dead holder's lock", async () => {
    const lockPath = join(box.dir, 'locks', 'counter.lock');
    const counter = join(box.dir, 'counter.txt');
    await plantLock(lockPath, { pid: await deadPid() });
    const reports = await runTogether<{ timeouts: number }>('lock-counter', [lockPath, counter, 30], 3, box.dir);
    expect(reports.map((r) => r.timeouts)).toEqual([0, 0, 0]);
    expect(Number(await readFile(counter, 'utf8'))).toBe(90);
    expect(await readdir(join(box.dir, 'locks'))).toEqual([]); // released, no staging dirs left
  }, 20_000); // three child processes, 90 lock round trips with a deliberate 1 ms gap

  it('the counter does lose updates without the lock (control)', async () => {
    const counter = join(box.dir, 'counter.txt');
    const increment = async () => {
      const value = Number(await readFile(counter, 'utf8').catch(() => '0'));
      await new Promise((resolve) => setTimeout(resolve, 1));
      await writeFile(counter, String(value + 1));
    };
    await Promise.all(
      [0, 1, 2].map(async () => {
        for (let i = 0; i < 20; i++) await increment();
      }),
    );
    // Lost updates leave it short of 60; torn writes (a truncate racing a write) can leave any number, larger too.
    expect(Number(await readFile(counter, 'utf8'))).not.toBe(60);
  });
});
