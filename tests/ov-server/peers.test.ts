/**
 * The test server's peer rules (tests/support/ov-server/peers.ts), which the
 * project-identity tests rely on: a message's `peer_id` decides where the
 * memory extracted at commit goes; `X-OpenViking-Actor-Peer` with
 * `peer_scope` / `other_peer_penalty` decides what a search returns and
 * with which `origin`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { clientFor } from './http-client.js';

let server: OvTestServer;
const SEARCH = '/api/v1/search/search';

beforeAll(async () => {
  server = await startOvServer({ extractOnCommit: true });
  const api = clientFor(server.url);
  await api.post('/api/v1/sessions/s-a/messages/batch', {
    messages: [{ role: 'user', content: 'the kestrel service deploys with terraform apply', peer_id: 'proj-a' }],
  });
  await api.post('/api/v1/sessions/s-a/commit', { keep_recent_count: 0 });
  await api.post('/api/v1/sessions/s-b/messages/batch', {
    messages: [{ role: 'user', content: 'the kestrel service deploys with helm upgrade', peer_id: 'proj-b' }],
  });
  await api.post('/api/v1/sessions/s-b/commit', { keep_recent_count: 0 });
  await api.post('/api/v1/sessions/s-none/messages', { role: 'user', content: 'kestrel is the name of a bird' });
  await api.post('/api/v1/sessions/s-none/commit', { keep_recent_count: 0 });
});
afterAll(() => server.close());

const search = (peer: string | undefined, extra: Record<string, unknown> = {}) =>
  clientFor(server.url, peer === undefined ? {} : { 'X-OpenViking-Actor-Peer': peer }).post(SEARCH, {
    query: 'how does the kestrel service deploy',
    mode: 'context',
    score_threshold: 0.35,
    ...extra,
  });

const uris = (res: { json: { result: { entries: Array<{ uri: string }> } } }) =>
  res.json.result.entries.map((entry) => entry.uri);

describe('peer rules', () => {
  it('a commit files memories under the peer of their messages', () => {
    expect(server.file('viking://user/default/peers/proj-a/memories/events/s-a-archive_001.md')).toContain('terraform');
    expect(server.file('viking://user/default/peers/proj-b/memories/events/s-b-archive_001.md')).toContain('helm');
    expect(server.file('viking://user/default/memories/events/s-none-archive_001.md')).toContain('bird');
  });

  it('an actor sees its own project first; the other project only past the penalty', async () => {
    const res = await search('proj-a');
    const entries = res.json.result.entries as Array<{ uri: string; origin: string; score: number }>;
    expect(entries[0]).toMatchObject({ origin: 'actor_peer' });
    expect(entries[0]?.uri).toContain('/peers/proj-a/');
    const other = entries.find((entry) => entry.uri.includes('/peers/proj-b/'));
    expect(other?.origin).toBe('other_peer');
    expect(other?.score).toBeCloseTo((entries[0]?.score ?? 0) - 0.2, 4);
    expect(res.json.result.stats.other_peer_penalties.events).toBe(0.2);
  });

  it('a penalty of 0.7 keeps the other project out under the threshold; peer_scope actor always does', async () => {
    expect(uris(await search('proj-a', { other_peer_penalty: 0.7 })).some((uri) => uri.includes('proj-b'))).toBe(false);
    expect(
      uris(await search('proj-a', { peer_scope: 'actor', score_threshold: 0 })).some((uri) => uri.includes('proj-b')),
    ).toBe(false);
    expect(uris(await search('proj-b', { peer_scope: 'actor' })).some((uri) => uri.includes('proj-b'))).toBe(true);
  });

  it('without an actor every peer counts the same, and find shows an actor no other peer', async () => {
    const all = uris(await search(undefined));
    expect(all.some((uri) => uri.includes('proj-a')) && all.some((uri) => uri.includes('proj-b'))).toBe(true);
    const found = await clientFor(server.url, { 'X-OpenViking-Actor-Peer': 'proj-b' }).post('/api/v1/search/find', {
      query: 'kestrel deploy',
      limit: 10,
    });
    const foundUris = (found.json.result.memories as Array<{ uri: string }>).map((item) => item.uri);
    expect(foundUris.some((uri) => uri.includes('proj-b'))).toBe(true);
    expect(foundUris.some((uri) => uri.includes('proj-a'))).toBe(false);
  });
});
