/**
 * A queued write leaves through the privacy filter too (issue 14 item 1,
 * DESIGN D17): an entry queued by an older version, whose rules let a secret
 * through, is replayed at the next SessionStart by the BUILT hook
 * (`npm run build` first) and reaches the server redacted.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLayout } from '../../src/store/paths.js';
import { enqueue } from '../../src/store/queue.js';
import { createWorld } from '../support/session-world.js';
import type { World } from '../support/session-world.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const HF_TOKEN = `hf_${randomBytes(40)
  .toString('base64')
  .replace(/[^A-Za-z]/g, '')
  .slice(0, 34)}`;
const DB_PASS = `pw-${hex(5)}`;
const PRIVATE_NOTE = `PRIVATE-${hex(6)}`;

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world?.dispose());

describe('queue replay', () => {
  it('an entry queued with secrets in it is sent redacted', async () => {
    const text = `queued while offline: HF_TOKEN=${HF_TOKEN} DB_PASS=${DB_PASS} <private>${PRIVATE_NOTE}</private>`;
    const queued = await enqueue(
      storeLayout(world.dataDir).queueDir,
      {
        type: 'addMessages',
        sessionId: 'cb-older-version',
        payload: {
          messages: [
            { role: 'user', parts: [{ type: 'text', text }] },
            { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
          ],
        },
        createdAt: Date.now() - 1000,
      },
      { now: Date.now, lockTimeoutMs: 1000 },
    );
    expect(queued.ok).toBe(true);
    await world.sim.fire('SessionStart', world.payloads().sessionStart());
    const batches = world.server.requests({ path: '/api/v1/sessions/cb-older-version/messages/batch' });
    expect(batches.length).toBeGreaterThan(0);
    const sent = batches.map((request) => request.rawBody).join('\n');
    expect(sent).toContain('queued while offline: HF_TOKEN=[REDACTED:');
    for (const secret of [HF_TOKEN, DB_PASS, PRIVATE_NOTE]) expect(sent.includes(secret), secret).toBe(false);
    expect(world.server.session('cb-older-version')?.allMessages).toHaveLength(2);
  });
});
