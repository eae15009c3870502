/**
 * Retrieval, as recall's three tiers and doctor call it (openviking-api.md
 * §2.2; docs/host-facts.md F37, F38): the context face (entries' fields,
 * `rendered`, the profile never an entry, validation, the dedup ledger,
 * `exclude_uris`), the deprecated `/search/recall`, and `/search/find`
 * (the find tier's body, items' fields). Scores are the servers' own
 * (words here, embeddings there), so a case checks only what both share:
 * types, which memory a query finds, and what is never returned.
 *
 * @module
 */
import { expect } from 'vitest';
import { as, home, newTenant, request, uniqueName, writeFile, type ContractTarget, type Tenant } from '../target.js';
import { errorOf, okResult, validationErrorOf, type ContractCase } from './case.js';

const CATEGORIES = ['events', 'entities', 'preferences', 'experiences', 'resources', 'skills', 'memories'];
const DETAILS = ['full', 'overview', 'abstract', 'uri'];
const ORIGINS = ['actor_peer', 'self', 'other_peer'];

/** A tenant with a profile, a preference and an event. */
async function seeded(
  target: ContractTarget,
  label: string,
): Promise<{ tenant: Tenant; editor: string; deploy: string }> {
  const tenant = await newTenant(target, label);
  const editor = home(tenant, `memories/preferences/${tenant.user}/editor.md`);
  const deploy = home(tenant, 'memories/events/billing-deploy.md');
  await writeFile(target, tenant, home(tenant, 'memories/profile.md'), 'Backend engineer who deploys billing.');
  await writeFile(target, tenant, editor, 'Uses the Helix editor with two-space indentation.');
  await writeFile(target, tenant, deploy, 'Deployed the billing service on Friday evening.');
  return { tenant, editor, deploy };
}

/** The plugin's context-face body (recall/requests.ts `contextBody`). */
function contextBody(query: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { query, mode: 'context', purpose: 'coding', score_threshold: 0.1, max_tokens: 1600, ...extra };
}

/** Every entry well-formed; the URIs of those that are files (0.5.2 adds folders: F38). */
function entryFiles(result: Record<string, any>): string[] {
  expect(Array.isArray(result.entries)).toBe(true);
  for (const entry of result.entries) {
    expect(typeof entry.uri).toBe('string');
    expect(CATEGORIES).toContain(entry.category);
    expect(typeof entry.score).toBe('number');
    expect(DETAILS).toContain(entry.detail);
    expect(typeof entry.text).toBe('string');
    expect(ORIGINS).toContain(entry.origin);
    expect(result.rendered).toContain(`<memory uri="${entry.uri}" type="${entry.category}"`);
  }
  expect(typeof result.digest).toBe('string');
  return result.entries.map((entry: { uri: string }) => entry.uri).filter((uri: string) => /\.md$/.test(uri));
}

export const searchCases: readonly ContractCase[] = [
  {
    name: 'context face: entries {uri, category, score, detail, text, origin}, rendered <memory> elements, the profile never an entry',
    covers: ['POST /api/v1/search/search'],
    async run(target) {
      const { tenant, editor, deploy } = await seeded(target, 'context');
      const result = okResult(
        await as(
          target,
          tenant,
          'POST',
          '/api/v1/search/search',
          contextBody('Uses the Helix editor with two-space indentation'),
        ),
      );
      const files = entryFiles(result);
      expect(files[0]).toBe(editor);
      expect(files).not.toContain(home(tenant, 'memories/profile.md'));
      const entry = result.entries.find((item: { uri: string }) => item.uri === editor);
      expect(entry).toMatchObject({ category: 'preferences', origin: 'self' });
      expect(entry.text).toContain('Helix');
      expect(result.stats).toMatchObject({ rewrite: 'off', purpose: 'coding', score_threshold: 0.1, max_tokens: 1600 });
      const events = okResult(
        await as(
          target,
          tenant,
          'POST',
          '/api/v1/search/search',
          contextBody('Deployed the billing service on Friday evening'),
        ),
      );
      expect(entryFiles(events)[0]).toBe(deploy);
    },
  },
  {
    name: 'context face validation: an unknown key, target_uri in context mode, a context field in list mode are 400s naming them',
    covers: ['POST /api/v1/search/search'],
    async run(target) {
      const tenant = await newTenant(target, 'context-400');
      const search = (body: unknown) => as(target, tenant, 'POST', '/api/v1/search/search', body);
      expect(validationErrorOf(await search(contextBody('x', { bogus: 1 })), 'bogus').message).toContain(
        'Extra inputs are not permitted',
      );
      validationErrorOf(await search(contextBody('x', { target_uri: home(tenant) })), 'target_uri');
      const listMode = validationErrorOf(await search({ query: 'x', mode: 'list', dedup_turns: 5 }), 'dedup_turns');
      expect(listMode.message).toContain("mode='context'");
    },
  },
  {
    name: 'context face with a session: the search creates it; what it returned is cooled for dedup_turns messages, then back',
    covers: ['POST /api/v1/search/search'],
    async run(target) {
      const { tenant, editor } = await seeded(target, 'dedup');
      const id = uniqueName('cb');
      const body = contextBody('Uses the Helix editor with two-space indentation', { session_id: id, dedup_turns: 2 });
      const first = okResult(await as(target, tenant, 'POST', '/api/v1/search/search', body));
      expect(entryFiles(first)).toContain(editor);
      expect(first.stats.dedup).toEqual({ turns: 2, status: 'new', cooled: 0, turn: 0 });
      okResult(await as(target, tenant, 'GET', `/api/v1/sessions/${id}`), 'the session the search made');
      const again = okResult(await as(target, tenant, 'POST', '/api/v1/search/search', body));
      expect(entryFiles(again)).not.toContain(editor);
      expect(again.stats.dedup).toMatchObject({ status: 'ok', turn: 0 });
      expect(again.stats.dedup.cooled).toBeGreaterThanOrEqual(1);
      for (const word of ['one', 'two'])
        okResult(await as(target, tenant, 'POST', `/api/v1/sessions/${id}/messages`, { role: 'user', content: word }));
      const later = okResult(await as(target, tenant, 'POST', '/api/v1/search/search', body));
      expect(later.stats.dedup.turn).toBe(2);
      expect(entryFiles(later)).toContain(editor);
    },
  },
  {
    name: 'context face: exclude_uris drops a folder and everything under it',
    covers: ['POST /api/v1/search/search'],
    async run(target) {
      const { tenant, editor, deploy } = await seeded(target, 'exclude');
      const query = 'Helix editor and the billing deploy on Friday';
      const all = entryFiles(okResult(await as(target, tenant, 'POST', '/api/v1/search/search', contextBody(query))));
      expect(all).toEqual(expect.arrayContaining([editor, deploy]));
      const without = okResult(
        await as(
          target,
          tenant,
          'POST',
          '/api/v1/search/search',
          contextBody(query, { exclude_uris: [home(tenant, 'memories/events')] }),
        ),
      );
      const uris = without.entries.map((entry: { uri: string }) => entry.uri);
      expect(uris).toContain(editor);
      expect(uris.filter((uri: string) => uri.startsWith(home(tenant, 'memories/events')))).toEqual([]);
    },
  },
  {
    name: 'search/recall (deprecated): the plugin’s body answers the context shape, Deprecation headers, rendered "" when render is false',
    covers: ['POST /api/v1/search/recall'],
    async run(target) {
      const { tenant, editor } = await seeded(target, 'recall');
      const answer = await as(target, tenant, 'POST', '/api/v1/search/recall', {
        query: 'Uses the Helix editor with two-space indentation',
        quotas: { events: 5, entities: 4, preferences: 1, experiences: 0 },
        max_chars: 5000,
        min_score: 0.1,
        render: false,
      });
      const result = okResult(answer);
      expect(answer.headers.get('deprecation')).toBe('true');
      expect(answer.headers.get('link')).toBe('</api/v1/search/search>; rel="successor-version"');
      expect(result.rendered).toBe('');
      expect(result.stats.deprecated).toMatchObject({
        endpoint: '/api/v1/search/recall',
        successor: '/api/v1/search/search',
        aliases_used: expect.arrayContaining(['max_chars', 'min_score', 'render']),
      });
      const files = result.entries
        .map((entry: { uri: string }) => entry.uri)
        .filter((uri: string) => uri.endsWith('.md'));
      expect(files[0]).toBe(editor);
      validationErrorOf(
        await as(target, tenant, 'POST', '/api/v1/search/recall', { query: 'x', bogus: true }),
        'bogus',
      );
    },
  },
  {
    name: 'search/find, the find tier’s body: items {uri, context_type, level, score, abstract} under the target only; memories/resources/skills/total',
    covers: ['POST /api/v1/search/find'],
    async run(target) {
      const { tenant, editor } = await seeded(target, 'find');
      const result = okResult(
        await as(target, tenant, 'POST', '/api/v1/search/find', {
          query: 'Uses the Helix editor with two-space indentation',
          target_uri: home(tenant, 'memories'),
          limit: 8,
          score_threshold: 0,
        }),
      );
      expect(Array.isArray(result.resources) && Array.isArray(result.skills)).toBe(true);
      expect(typeof result.total).toBe('number');
      for (const item of result.memories) {
        expect(item).toMatchObject({ context_type: 'memory' });
        expect(typeof item.level).toBe('number');
        expect(typeof item.score).toBe('number');
        expect(typeof item.abstract).toBe('string');
        expect(item.uri.startsWith(home(tenant, 'memories/'))).toBe(true);
      }
      const leaves = result.memories.filter((item: { level: number }) => item.level === 2);
      expect(leaves[0]?.uri).toBe(editor);
      expect(leaves[0]?.abstract).toContain('Helix');
      const home2 = okResult(
        await as(target, tenant, 'POST', '/api/v1/search/find', {
          query: 'Helix editor',
          target_uri: 'viking://~/memories',
        }),
      );
      expect(home2.memories.map((item: { uri: string }) => item.uri)).toContain(editor);
      validationErrorOf(await as(target, tenant, 'POST', '/api/v1/search/find', { query: 'x', bogus: 1 }), 'bogus');
      // doctor's probe: no target, limit 1
      expect(
        okResult(
          await as(target, tenant, 'POST', '/api/v1/search/find', { query: 'openviking doctor probe', limit: 1 }),
        ),
      ).toHaveProperty('memories');
    },
  },
  {
    name: 'dev mode is ROOT: a search without purpose or quotas, or a find without a target, sees every user of the account; the plugin’s bodies keep to the caller',
    covers: ['POST /api/v1/search/search', 'POST /api/v1/search/find'],
    modes: ['dev'],
    async run(target) {
      const { tenant, editor } = await seeded(target, 'root-view');
      const neighbour = { ...tenant, user: uniqueName('neighbour') };
      neighbour.headers = { ...tenant.headers, 'X-OpenViking-User': neighbour.user };
      const theirs = home(neighbour, `memories/preferences/${neighbour.user}/editor.md`);
      await writeFile(target, neighbour, theirs, 'Uses the Helix editor with tabs, never spaces.');
      const query = 'Uses the Helix editor with tabs, never spaces';
      const search = async (body: Record<string, unknown>) =>
        entryFiles(okResult(await as(target, tenant, 'POST', '/api/v1/search/search', body)));
      const find = async (body: Record<string, unknown>) =>
        okResult(
          await as(target, tenant, 'POST', '/api/v1/search/find', { query, score_threshold: 0, ...body }),
        ).memories.map((item: { uri: string }) => item.uri);
      expect(await search({ query, mode: 'context', score_threshold: 0.1 })).toContain(theirs);
      expect(await find({})).toContain(theirs);
      const own = await search(contextBody(query));
      expect(own).toContain(editor);
      expect(own).not.toContain(theirs);
      expect(await find({ target_uri: home(tenant, 'memories') })).not.toContain(theirs);
    },
  },
  {
    name: 'peers with the plugin’s body: actor scope keeps the actor’s own peer; all adds other peers as other_peer; a bad actor is 400',
    covers: ['POST /api/v1/search/search', 'POST /api/v1/search/find'],
    async run(target) {
      const { tenant, deploy } = await seeded(target, 'peers');
      const migration = home(tenant, 'peers/proj-a/memories/events/billing-migration.md');
      await writeFile(target, tenant, migration, 'Migrated the billing database to Postgres 16.');
      const query = 'Migrated the billing database to Postgres 16';
      const asPeer = (peer: string, path: string, body: unknown) =>
        request(target, 'POST', path, { headers: { ...tenant.headers, 'X-OpenViking-Actor-Peer': peer }, body });
      const search = async (peer: string, extra: Record<string, unknown>) =>
        okResult(await asPeer(peer, '/api/v1/search/search', contextBody(query, extra)));
      const originOf = (result: Record<string, any>, uri: string) =>
        result.entries.find((entry: { uri: string }) => entry.uri === uri)?.origin;
      const scoreOf = (result: Record<string, any>, uri: string) =>
        result.entries.find((entry: { uri: string }) => entry.uri === uri)?.score;
      const actorA = await search('proj-a', { peer_scope: 'actor' });
      expect(originOf(actorA, migration)).toBe('actor_peer');
      const actorB = await search('proj-b', { peer_scope: 'actor' });
      expect(originOf(actorB, migration)).toBeUndefined();
      expect(originOf(actorB, deploy)).toBe('self');
      const allB = await search('proj-b', { peer_scope: 'all', other_peer_penalty: 0.1 });
      expect(originOf(allB, migration)).toBe('other_peer');
      // the penalty ranks it lower but the score reported is its own (F38)
      expect(scoreOf(allB, migration)).toBe(scoreOf(actorA, migration));
      expect(allB.stats.other_peer_penalties).toMatchObject({ events: 0.1, preferences: 0.1 });
      const byDefault = await search('proj-b', {});
      expect(byDefault.stats.other_peer_penalties).toMatchObject({ events: 0.1, entities: 0.1, preferences: 0.02 });
      const findOwn = okResult(
        await asPeer('proj-b', '/api/v1/search/find', { query, target_uri: home(tenant), score_threshold: 0 }),
      );
      expect(findOwn.memories.map((item: { uri: string }) => item.uri)).not.toContain(migration);
      errorOf(await asPeer('a/b', '/api/v1/search/find', { query }), 400, 'INVALID_ARGUMENT', 'a bad actor peer');
    },
  },
];
