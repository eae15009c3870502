/**
 * A fresh session's start reads in parallel whatever it can (issue 17.3):
 * once the cached user space has expired, the profile and listings are read
 * with the last known space while the space is resolved again, instead of
 * one round trip after the other; a space that changed is read again.
 * Through the host simulator, the built hook and the test server.
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFile } from '../../src/store/keyedCache.js';
import { contextOf, createWorld, PROFILE_MARKER } from '../support/session-world.js';
import type { World } from '../support/session-world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

const STATUS_LATENCY_MS = 600;

/** Ages every entry of the user-space cache except the long-lived `:last` guesses, as a day would. */
function expireUserSpace(dataDir: string, rewriteLast?: string): void {
  const file = cacheFile(dataDir, 'user-space');
  const entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { value: unknown; expiresAt: number }>;
  for (const [key, entry] of Object.entries(entries)) {
    if (!key.endsWith(':last')) entry.expiresAt = Date.now() - 1;
    else if (rewriteLast !== undefined) entry.value = rewriteLast;
  }
  writeFileSync(file, JSON.stringify(entries));
}

function startedAt(w: World, path: RegExp): number {
  const request = w.server.requests({ path })[0];
  if (request === undefined) throw new Error(`no request to ${path}`);
  return request.startedAt;
}

describe('fresh session start: reads in parallel', () => {
  it('an expired user space: the profile is read with the last known one while it is resolved again', async () => {
    world = await createWorld();
    const w = world;
    expect(contextOf(await w.sim.fire('SessionStart', w.payloads().sessionStart()))).toContain(PROFILE_MARKER);
    expireUserSpace(w.dataDir);
    w.server.clearRequests();
    w.server.faults.latency(STATUS_LATENCY_MS, { path: /\/system\/status$/ });
    const result = await w.sim.fire('SessionStart', w.payloads().sessionStart());
    expect(contextOf(result)).toContain(PROFILE_MARKER);
    // One after the other, the read could only start once the slow status answered.
    expect(startedAt(w, /\/content\/read$/) - startedAt(w, /\/system\/status$/)).toBeLessThan(STATUS_LATENCY_MS / 2);
  });

  it('a space that changed meanwhile is read again under the new one', async () => {
    world = await createWorld();
    const w = world;
    await w.sim.fire('SessionStart', w.payloads().sessionStart());
    expireUserSpace(w.dataDir, 'someone-else');
    w.server.clearRequests();
    const result = await w.sim.fire('SessionStart', w.payloads().sessionStart());
    expect(contextOf(result)).toContain(PROFILE_MARKER);
    expect(w.server.requests({ path: /\/content\/read$/ }).map((r) => r.query['uri'])).toEqual([
      'viking://user/someone-else/memories/profile.md',
      'viking://user/default/memories/profile.md',
    ]);
  });
});
