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

/** A context search with the plugin's quotas (`purpose`): where 0.5.2 applies the actor's view in every mode (peers.ts). */
const search = (peer: string | undefined, extra: Record<string, unknown> = {}) =>
  clientFor(server.url, peer === undefined ? {} : { 'X-OpenViking-Actor-Peer': peer }).post(SEARCH, {
    query: 'how does the kestrel service deploy',
    mode: 'context',
    purpose: 'coding',
    score_threshold: 0.35,
    ...extra,
  });

const uris = (res: { json: { result: { entries: Array<{ uri: string }> } } }) =>
  res.json.result.entries.map((entry) => entry.uri);

type Entry = { uri: string; origin: string; score: number };
const entryOf = (res: { json: { result: { entries: Entry[] } } }, peer: string) =>
  res.json.result.entries.find((entry) => entry.uri.includes(`/peers/${peer}/`));

describe('peer rules', () => {
  it('a commit files memories under the peer of their messages', () => {
    expect(server.file('viking://user/default/peers/proj-a/memories/events/s-a-archive_001.md')).toContain('terraform');
    expect(server.file('viking://user/default/peers/proj-b/memories/events/s-b-archive_001.md')).toContain('helm');
    expect(server.file('viking://user/default/memories/events/s-none-archive_001.md')).toContain('bird');
  });

  it('an actor sees its own project first; the other ranks lower by the penalty but reports its own score', async () => {
    const res = await search('proj-a', { other_peer_penalty: 0.7 });
    const entries = res.json.result.entries as Entry[];
    expect(entries[0]).toMatchObject({ origin: 'actor_peer' });
    expect(entries[0]?.uri).toContain('/peers/proj-a/');
    const other = entryOf(res, 'proj-b');
    expect(other?.origin).toBe('other_peer');
    expect(entries.indexOf(other as Entry)).toBeGreaterThan(0);
    // as proj-b's own project, the same memory reports the same score: the penalty only ranks
    expect(entryOf(await search('proj-b'), 'proj-b')).toMatchObject({ origin: 'actor_peer', score: other?.score });
    expect(res.json.result.stats.other_peer_penalties.events).toBe(0.7);
    expect((await search('proj-a')).json.result.stats.other_peer_penalties).toMatchObject({
      events: 0.1,
      preferences: 0.02,
    });
  });

  it('peer_scope actor leaves other projects out; a ROOT search without quotas sees every peer', async () => {
    expect(
      uris(await search('proj-a', { peer_scope: 'actor', score_threshold: 0 })).some((uri) => uri.includes('proj-b')),
    ).toBe(false);
    expect(uris(await search('proj-b', { peer_scope: 'actor' })).some((uri) => uri.includes('proj-b'))).toBe(true);
    const flat = uris(await search('proj-a', { purpose: undefined, peer_scope: 'actor', score_threshold: 0 }));
    expect(flat.some((uri) => uri.includes('proj-b'))).toBe(true);
  });

  it('without an actor every peer is other_peer; find on a target shows an actor no other peer', async () => {
    const all = await search(undefined);
    expect(entryOf(all, 'proj-a')?.origin).toBe('other_peer');
    expect(entryOf(all, 'proj-b')?.origin).toBe('other_peer');
    const found = await clientFor(server.url, { 'X-OpenViking-Actor-Peer': 'proj-b' }).post('/api/v1/search/find', {
      query: 'kestrel deploy',
      target_uri: 'viking://user/default',
      limit: 10,
    });
    const foundUris = (found.json.result.memories as Array<{ uri: string }>).map((item) => item.uri);
    expect(foundUris.some((uri) => uri.includes('proj-b'))).toBe(true);
    expect(foundUris.some((uri) => uri.includes('proj-a'))).toBe(false);
  });
});
