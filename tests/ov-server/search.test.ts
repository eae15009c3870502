/**
 * Contract §2.2: the three retrieval tiers. SearchRequest / RecallRequest /
 * FindRequest forbid extras; context-mode rules; the context result shape
 * (entries, flat <memory> XML, digest "", stats.rewrite "off"), threshold,
 * budget, dedup ledger; recall's deprecation face; find's item shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { clientFor } from './http-client.js';

let server: OvTestServer;
let api: ReturnType<typeof clientFor>;
const SEARCH = '/api/v1/search/search';

beforeAll(async () => {
  server = await startOvServer({
    seed: {
      user: 'u1',
      files: {
        'memories/profile.md': 'Senior engineer.',
        'memories/preferences/u1/editor.md': {
          content: 'Uses the Helix editor with vim keys.',
          abstract: 'Editor: Helix',
        },
        'memories/entities/u1/database.md': {
          content: 'The project database is Postgres 16.',
          abstract: 'Database: Postgres 16',
        },
        'memories/events/u1/migration.md': {
          content: `Migrated the database schema. ${'Details follow. '.repeat(200)}`,
          abstract: 'Database schema migration',
        },
        'skills/deploy/SKILL.md': { content: 'How to deploy the database service.', abstract: 'Deploy skill' },
      },
    },
  });
  api = clientFor(server.url, { 'X-OpenViking-User': 'u1' });
});
afterAll(() => server.close());

const context = (extra: Record<string, unknown> = {}) =>
  api.post(SEARCH, { query: 'which editor and database', mode: 'context', ...extra });

describe('search/search validation', () => {
  it('unknown keys → 400 "Extra inputs are not permitted" (extra="forbid")', async () => {
    for (const route of [SEARCH, '/api/v1/search/recall', '/api/v1/search/find']) {
      const res = await api.post(route, { query: 'x', bogus: 1 });
      expect(res.status).toBe(400);
      expect(res.json.error.details.validation_errors).toContainEqual({
        loc: ['body', 'bogus'],
        message: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
      });
    }
  });

  it('target_uri in context mode → 400', async () => {
    expect((await context({ target_uri: 'viking://user/u1/memories' })).status).toBe(400);
  });

  it('context-only fields with list mode → 400; list mode answers the find shape', async () => {
    for (const field of [{ max_tokens: 100 }, { dedup_turns: 1 }, { purpose: 'coding' }, { rewrite: false }]) {
      const res = await api.post(SEARCH, { query: 'x', ...field });
      expect(res.status).toBe(400);
    }
    const list = await api.post(SEARCH, { query: 'editor', target_uri: 'viking://user/u1/memories', session_id: 's' });
    expect(Object.keys(list.json.result).sort()).toEqual(['memories', 'resources', 'skills', 'total']);
  });

  it('range checks: max_tokens 64..32000, dedup_turns ≤100, exclude_uris ≤200, unknown quota keys', async () => {
    for (const field of [
      { max_tokens: 10 },
      { max_tokens: 40000 },
      { dedup_turns: 101 },
      { exclude_uris: Array(201).fill('viking://resources/x') },
      { quotas: { events: 1, other: 2 } },
    ]) {
      expect((await context(field)).status).toBe(400);
    }
  });
});

describe('context mode', () => {
  it('returns entries, flat <memory> XML, digest "" and stats.rewrite "off"', async () => {
    const res = await context({ purpose: 'coding' });
    const result = res.json.result;
    expect(result.digest).toBe('');
    expect(result.stats).toMatchObject({ rewrite: 'off', purpose: 'coding' });
    expect(result.entries.map((e: { uri: string }) => e.uri)).toEqual(
      expect.arrayContaining([
        'viking://user/u1/memories/preferences/u1/editor.md',
        'viking://user/u1/memories/entities/u1/database.md',
      ]),
    );
    const first = result.entries[0];
    expect(first).toEqual({
      uri: expect.any(String),
      category: expect.any(String),
      score: expect.any(Number),
      detail: expect.any(String),
      text: expect.any(String),
      origin: 'self',
    });
    expect(result.rendered.split('\n')[0]).toBe(
      `<memory uri="${first.uri}" type="${first.category}" score="${first.score.toFixed(2)}" detail="${first.detail}">`,
    );
  });

  it('score_threshold filters entries', async () => {
    const loose = (await context({ score_threshold: 0 })).json.result.entries.length;
    const strict = (await context({ score_threshold: 0.99 })).json.result.entries.length;
    expect(loose).toBeGreaterThan(strict);
  });

  it('max_tokens bounds used_tokens by degrading detail', async () => {
    const res = await api.post(SEARCH, { query: 'database schema migration', mode: 'context', max_tokens: 64 });
    const stats = res.json.result.stats;
    expect(stats.used_tokens).toBeLessThanOrEqual(64);
    const migration = res.json.result.entries.find((e: { uri: string }) => e.uri.endsWith('migration.md'));
    expect(migration.detail).not.toBe('full');
  });

  it('dedup ledger: a URI injected in this session is cooled until dedup_turns messages pass', async () => {
    const body = { session_id: 'cc-dedup', dedup_turns: 2, query_expansion: 'off' };
    const first = await context(body);
    expect(first.json.result.entries.length).toBeGreaterThan(0);
    expect(first.json.result.stats.dedup).toEqual({ turns: 2, status: 'new', cooled: 0, turn: 0 });
    expect(server.session('cc-dedup')).toBeDefined(); // auto-created by the search
    const again = await context(body);
    expect(again.json.result.entries).toEqual([]);
    expect(again.json.result.stats.dedup).toMatchObject({
      turns: 2,
      status: 'ok',
      cooled: first.json.result.entries.length,
    });
    await api.post('/api/v1/sessions/cc-dedup/messages/batch', {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
    });
    expect((await context(body)).json.result.entries.length).toBe(first.json.result.entries.length);
  });

  it('rewrite:true yields an "OpenViking memory digest:" with URI bullets; nothing relevant → no_relevant', async () => {
    const res = await context({ rewrite: true, rewrite_max_bullets: 1 });
    expect(res.json.result.stats.rewrite).toBe('ok');
    expect(res.json.result.digest).toMatch(/^OpenViking memory digest:\n- .*viking:\/\/\S+\)$/);
    const none = await api.post(SEARCH, {
      query: 'zebra quantum',
      mode: 'context',
      rewrite: 'auto',
      score_threshold: 0.5,
    });
    expect(none.json.result).toMatchObject({ rendered: '', digest: '', stats: { rewrite: 'no_relevant' } });
  });
});

describe('recall (deprecated tier 2)', () => {
  it('answers the context shape with Deprecation headers and stats.deprecated', async () => {
    const res = await api.post('/api/v1/search/recall', {
      query: 'editor',
      quotas: { events: 5, entities: 4, preferences: 1, experiences: 0 },
      max_chars: 5000,
      min_score: 0.35,
      render: true,
    });
    expect(res.status).toBe(200);
    expect(res.headers['deprecation']).toBe('true');
    expect(res.headers['link']).toBe('</api/v1/search/search>; rel="successor-version"');
    expect(res.json.result.stats.deprecated).toEqual({
      endpoint: '/api/v1/search/recall',
      successor: '/api/v1/search/search',
      successor_body: { mode: 'context' },
      aliases_used: ['max_chars', 'min_score', 'render'],
    });
    expect(res.json.result.rendered).toContain('editor.md');
  });

  it('query is required', async () => {
    expect((await api.post('/api/v1/search/recall', {})).status).toBe(400);
  });
});

describe('find (tier 3)', () => {
  it('buckets memories/resources/skills; items have no overview/category', async () => {
    const res = await api.post('/api/v1/search/find', { query: 'database', score_threshold: 0 });
    const { memories, skills, total } = res.json.result;
    expect(total).toBe(memories.length + skills.length + res.json.result.resources.length);
    expect(skills[0]).toEqual({
      context_type: 'skill',
      uri: 'viking://user/u1/skills/deploy/SKILL.md',
      level: 2,
      score: expect.any(Number),
      abstract: 'Deploy skill',
      tags: [],
    });
    for (const item of memories)
      expect(Object.keys(item).sort()).toEqual(['abstract', 'context_type', 'level', 'score', 'tags', 'uri']);
  });

  it('target_uri narrows; limit and score_threshold apply; scores are best-first', async () => {
    const res = await api.post('/api/v1/search/find', {
      query: 'database schema',
      target_uri: 'viking://user/u1/memories',
      limit: 2,
      score_threshold: 0.1,
    });
    const scores = res.json.result.memories.map((m: { score: number }) => m.score);
    expect(scores.length).toBeLessThanOrEqual(2);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(res.json.result.skills).toEqual([]);
  });
});
