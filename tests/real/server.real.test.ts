/**
 * The real OpenViking server as the suite installs and runs it: the pinned
 * version, offline, and its memory pipeline end to end through the fake
 * model provider (docs/host-facts.md F26): messages → commit → the
 * extraction call (logged by the provider) → a memory under `viking://`
 * that search finds. Everything else in tests/real/ builds on this.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PINNED_VERSION, REPO_ROOT } from '../support/real-server/install.js';
import { waitFor } from '../support/wait.js';
import { filesUnder, ov, settledTask, uniqueUser } from './support/http.js';
import { providerRequests, sharedServers } from './support/servers.js';

const { dev } = sharedServers();

describe('the real server', () => {
  it('is the pinned version, the one the requirements file installs', () => {
    expect(dev.version).toBe(PINNED_VERSION);
    const pins = readFileSync(join(REPO_ROOT, 'scripts/dev/openviking-requirements.txt'), 'utf8');
    expect(pins).toContain(`\nopenviking==${PINNED_VERSION}\n`);
    for (const line of pins.split('\n').filter((entry) => entry !== '' && !entry.startsWith('#')))
      expect(line, 'every requirement is pinned exactly').toMatch(/^[A-Za-z0-9._-]+(\[[^\]]+\])?==[^=<>~]+$/);
  });

  it('turns a committed session into a memory through the provider, and search finds it', async () => {
    const speaker = { user: uniqueUser('pipeline') };
    const session = `real-${speaker.user}`;
    const added = await ov(dev.url, speaker, `/api/v1/sessions/${session}/messages`, {
      role: 'user',
      content: 'Set up the build. Remember: the zephyr service listens on port 7443. Thanks.',
    });
    expect(added.status).toBe('ok');
    const commit = await ov(dev.url, speaker, `/api/v1/sessions/${session}/commit`, {});
    expect(commit.result).toMatchObject({ status: 'accepted', archived: true });
    const task = await settledTask(dev.url, speaker, commit.result.task_id);
    expect(task.status, JSON.stringify(task)).toBe('completed');
    const extraction = providerRequests(dev, 'extraction').filter((entry) =>
      JSON.stringify(entry.body).includes('zephyr service listens'),
    );
    expect(extraction.length).toBeGreaterThanOrEqual(1);
    expect(String(extraction[0]!.answer)).toContain('sdk.create_preferences(');
    const files = await filesUnder(dev.url, speaker, `viking://user/${speaker.user}/memories`);
    const memory = files.find((uri) => uri.includes('/preferences/') && uri.endsWith('zephyr_service_listens.md'));
    expect(memory, files.join('\n')).toBeDefined();
    // searchable a moment after the task completed: its vector is indexed after (docs/host-facts.md F42)
    await waitFor(
      async () => {
        const found = await ov(dev.url, speaker, '/api/v1/search/find', {
          query: 'which port does zephyr listen on',
          target_uri: `viking://user/${speaker.user}/memories`,
        });
        return found.result.memories.some((item: { uri: string }) => item.uri === memory);
      },
      { timeoutMs: 30_000, intervalMs: 250, what: `find to name ${memory}` },
    );
  });
});
