/**
 * The server's candidates are re-ranked before the block is cut (D43,
 * src/recall/rerank.ts): what the entry's text shares with the query (rare
 * words count, words every candidate has do not), the project's own
 * memories over the user's general ones, an experience a little lower;
 * then cut to `recallLimit` (recall/cascade.ts). The measured effect is in
 * D43.
 */
import { describe, expect, it } from 'vitest';
import { recallMemories } from '../../src/recall/cascade.js';
import { RERANK_WEIGHTS, queryTrigrams, rerank } from '../../src/recall/rerank.js';
import type { RecalledItem } from '../../src/recall/types.js';
import type { OpenVikingClient } from '../../src/openviking/types.js';

const OWN = 'viking://user/dana/peers/github.com-acme-api/memories/entities/command';
const USER = 'viking://user/dana/memories/preferences/dana';

const item = (uri: string, score: number, text: string, category = 'entities'): RecalledItem => ({
  uri,
  text,
  category,
  score,
});

describe('rerank', () => {
  it("lifts a memory that shares the query's rarer words above a slightly better-scored one", () => {
    const items = [
      item(`${OWN}/a.md`, 0.7, 'The API logs JSON to stdout and ships it to Loki.'),
      item(`${OWN}/b.md`, 0.69, 'The API logs every request id; the dev server starts with doppler run -- pnpm dev.'),
      item(`${OWN}/c.md`, 0.68, 'The API rate limit is 100 requests per minute.'),
    ];
    expect(rerank(items, 'how do I start the dev server').map((ranked) => ranked.item.uri)).toEqual([
      `${OWN}/b.md`,
      `${OWN}/a.md`,
      `${OWN}/c.md`,
    ]);
  });

  it('leaves the order to the scores when every candidate has the same words', () => {
    const items = [item(`${OWN}/a.md`, 0.7, 'api one'), item(`${OWN}/b.md`, 0.69, 'api two')];
    expect(rerank(items, 'the api').map((ranked) => ranked.item.uri)).toEqual([`${OWN}/a.md`, `${OWN}/b.md`]);
  });

  it("puts the project's own memory over the user's general one, and an experience lower", () => {
    const items = [
      item(`${USER}/general.md`, 0.7, 'prefers small functions', 'preferences'),
      item(`${OWN}/own.md`, 0.7 - RERANK_WEIGHTS.project / 2, 'the worker runs under pg-boss'),
      item(`${USER}/lesson.md`, 0.7 + RERANK_WEIGHTS.experience / 2, 'situation and approach', 'experiences'),
    ];
    const ranked = rerank(items, 'zzz');
    expect(ranked.map((entry) => entry.item.uri)).toEqual([`${OWN}/own.md`, `${USER}/general.md`, `${USER}/lesson.md`]);
    expect(ranked[0]!.relevance).toBeCloseTo(0.7 + RERANK_WEIGHTS.project / 2, 6);
  });

  it('keeps the order when an item has no score', () => {
    const items: RecalledItem[] = [{ uri: 'a', text: 'x' }, item('b', 0.9, 'dev server')];
    expect(rerank(items, 'dev server').map((ranked) => ranked.item.uri)).toEqual(['a', 'b']);
  });

  it('takes trigrams of the words of three letters or more, stop words out', () => {
    expect([...queryTrigrams('how do I run CI')]).toEqual([' ru', 'run', 'un ']);
  });
});

describe('recallMemories re-ranks the candidates, then cuts to recallLimit', () => {
  it('keeps the re-ranked first ones', async () => {
    const entries = [
      { uri: `${USER}/a.md`, category: 'preferences', score: 0.72, text: 'prefers tests against a real database' },
      { uri: `${USER}/b.md`, category: 'preferences', score: 0.71, text: 'writes commit subjects in the imperative' },
      {
        uri: `${OWN}/c.md`,
        category: 'entities',
        score: 0.7,
        text: 'the dev server starts with doppler run -- pnpm dev',
      },
    ];
    const client = {
      searchContext: async () => ({ ok: true, result: { entries, rendered: '', digest: '' } }),
    } as unknown as OpenVikingClient;
    const { outcome } = await recallMemories({
      client,
      settings: {
        scoreThreshold: 0.35,
        recallMinRelevance: 0,
        recallMaxTokens: 1600,
        recallDedupTurns: 0,
        recallLimit: 2,
        recallMaxContentChars: 500,
        recallPeerScope: 'all',
        recallOtherPeerPenalty: 0.3,
        recallExcludeUris: [],
      },
      credentials: { baseUrl: 'http://ov', apiKey: '', account: '', user: 'dana' },
      known: { tier: 'context' },
      ovSessionId: '',
      query: 'how do I start the dev server',
    });
    expect(outcome.status === 'hits' ? outcome.items.map((hit) => hit.uri) : outcome).toEqual([
      `${OWN}/c.md`,
      `${USER}/a.md`,
    ]);
  });
});
