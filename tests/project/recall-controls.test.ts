/**
 * Which prompts recall (issue 17.2) through the host simulator and the test
 * server: slash commands and shell escapes never do; the opt-in prefix
 * mode recalls only for prompts that start with the prefix, and sends the
 * query without it; `OPENVIKING_RECALL_EXCLUDE_URIS` keeps chosen URIs out
 * of the block (and asks the server to). Needs the built bundle.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { contextOf, createWorld, RECALL_MARKER, RECALL_PROMPT, type World } from '../support/session-world.js';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world.dispose());

const fire = async (prompt: string, env: Record<string, string> = {}) => {
  world.server.clearRequests();
  return contextOf(await world.sim.fire('UserPromptSubmit', world.payloads().userPromptSubmit(prompt), { env }));
};
const searches = () => world.server.requests({ path: /\/api\/v1\/search\// });

describe('prompts that never recall', () => {
  for (const prompt of [
    `/ask ${RECALL_PROMPT}`,
    `/openviking:recall ${RECALL_PROMPT}`,
    `!grep -rn "osprey staging helm" .`,
  ]) {
    it(prompt.slice(0, 24), async () => {
      expect(await fire(prompt)).toBe('');
      expect(searches()).toHaveLength(0);
    });
  }

  it('the same words as a plain prompt do recall (the cases above can fail)', async () => {
    expect(await fire(RECALL_PROMPT)).toContain(RECALL_MARKER);
  });

  // README: "A prompt that merely starts with a path (`/etc/hosts has a stale entry`) is an ordinary prompt and is recalled for"
  // (8e37669's README said every prompt starting with `/` skipped recall; the code always recalled for these, rightly).
  it('a prompt that starts with a path is an ordinary prompt', async () => {
    expect(await fire(`/etc/osprey/helm.yaml: ${RECALL_PROMPT}`)).toContain(RECALL_MARKER);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      'A prompt that merely starts with a path (`/etc/hosts has a stale entry`) is an ordinary prompt and is recalled for.',
    );
  });
});

describe('opt-in prefix mode (OPENVIKING_RECALL_PREFIX)', () => {
  const env = { OPENVIKING_RECALL_PREFIX: '?ov' };

  it('a prompt without the prefix is not recalled for', async () => {
    expect(await fire(RECALL_PROMPT, env)).toBe('');
    expect(searches()).toHaveLength(0);
  });

  it('a prompt with it is, and the query leaves the prefix out', async () => {
    expect(await fire(`?ov ${RECALL_PROMPT}`, env)).toContain(RECALL_MARKER);
    expect((searches()[0]?.body as { query?: string }).query).toBe(RECALL_PROMPT);
  });

  it('a word that merely starts like the prefix does not count', async () => {
    expect(await fire(`?ovation ${RECALL_PROMPT}`, env)).toBe('');
  });
});

describe('OPENVIKING_RECALL_EXCLUDE_URIS', () => {
  it('an excluded URI (or folder) is neither asked for nor injected', async () => {
    const excluded = 'viking://user/default/memories/entities';
    const context = await fire(RECALL_PROMPT, { OPENVIKING_RECALL_EXCLUDE_URIS: `viking://nowhere/x.md, ${excluded}` });
    expect(context).not.toContain(RECALL_MARKER);
    expect((searches()[0]?.body as { exclude_uris?: string[] }).exclude_uris).toEqual([
      'viking://nowhere/x.md',
      excluded,
    ]);
  });
});
