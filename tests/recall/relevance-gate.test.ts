/**
 * A recall whose best candidate's relevance (score plus re-rank) is below
 * `recallMinRelevance` injects nothing; 0, the default, lets everything
 * through. Below `UNANCHORED_FLOOR`, the first candidates must also share a
 * word with the query (D43, src/recall/relevanceGate.ts).
 */
import { describe, expect, it } from 'vitest';
import { recallMemories } from '../../src/recall/cascade.js';
import { anchoredEnough, relevantEnough, UNANCHORED_FLOOR } from '../../src/recall/relevanceGate.js';
import type { OpenVikingClient } from '../../src/openviking/types.js';

const ranked = (...relevances: number[]) =>
  relevances.map((relevance, n) => ({ item: { uri: `viking://m${n}`, text: '' }, relevance }));

describe('relevantEnough', () => {
  it('lets everything through at 0', () => {
    expect(relevantEnough(ranked(0.1), 0)).toBe(true);
  });

  it('takes a best relevance at or above the floor, not one below', () => {
    expect(relevantEnough(ranked(0.7, 0.5), 0.69)).toBe(true);
    expect(relevantEnough(ranked(0.69), 0.69)).toBe(true);
    expect(relevantEnough(ranked(0.68, 0.6), 0.69)).toBe(false);
    expect(relevantEnough([], 0.69)).toBe(false);
  });
});

const texts = (...entries: Array<[string, number]>) =>
  entries.map(([text, relevance], n) => ({ item: { uri: `viking://m${n}`, text }, relevance }));

describe('anchoredEnough', () => {
  const weak = UNANCHORED_FLOOR - 0.05;

  it('passes a best relevance at or above the floor whatever the words', () => {
    expect(anchoredEnough(texts(['the weekly report', UNANCHORED_FLOOR]), "what's the weather in berlin")).toBe(true);
  });

  it('drops a weak match that shares no word with the query', () => {
    expect(anchoredEnough(texts(['the weekly report goes out on mondays', weak]), "what's the weather in berlin")).toBe(
      false,
    );
    expect(anchoredEnough([], 'anything')).toBe(false);
  });

  it('keeps a weak match that shares a word, a plural or a five-letter stem', () => {
    const query = 'how do we deploy the billing service';
    expect(anchoredEnough(texts(['Billing runs on Fly', weak]), query)).toBe(true);
    expect(anchoredEnough(texts(['Deployments go through the release train', weak]), query)).toBe(true);
    expect(anchoredEnough(texts(['Two services share one database', weak]), query)).toBe(true);
    expect(anchoredEnough(texts(['The bill arrives monthly', weak]), query)).toBe(false);
  });

  it('looks at the first three candidates only', () => {
    const query = 'which region hosts the database';
    const unrelated = ['Prefers tabs', weak] as [string, number];
    expect(anchoredEnough(texts(unrelated, unrelated, ['The database lives in fra', weak - 0.01]), query)).toBe(true);
    expect(
      anchoredEnough(texts(unrelated, unrelated, unrelated, ['The database lives in fra', weak - 0.01]), query),
    ).toBe(false);
  });

  it('passes a query with no content word (nothing to anchor on)', () => {
    expect(anchoredEnough(texts(['Prefers tabs', weak]), 'what is it')).toBe(true);
  });
});

describe('recallMemories with a floor', () => {
  const serving = (text: string) =>
    ({
      searchContext: async () => ({
        ok: true,
        result: {
          entries: [{ uri: 'viking://user/dana/memories/entities/a.md', score: 0.6, text }],
          rendered: '',
          digest: '',
        },
      }),
    }) as unknown as OpenVikingClient;
  const recall = (recallMinRelevance: number, text = 'the weather report for berlin') =>
    recallMemories({
      client: serving(text),
      settings: {
        scoreThreshold: 0.35,
        recallMinRelevance,
        recallMaxTokens: 1600,
        recallDedupTurns: 0,
        recallLimit: 10,
        recallMaxContentChars: 500,
        recallPeerScope: 'all',
        recallOtherPeerPenalty: 0.3,
        recallExcludeUris: [],
      },
      credentials: { baseUrl: 'http://ov', apiKey: '', account: '', user: 'dana' },
      known: { tier: 'context' },
      ovSessionId: '',
      query: "what's the weather in berlin",
    });

  it('injects nothing when the best memory is below it', async () => {
    expect((await recall(0.8)).outcome).toEqual({ status: 'empty', tier: 'context' });
  });

  it('keeps the memories when it is off', async () => {
    expect((await recall(0)).outcome.status).toBe('hits');
  });

  it('injects nothing for a weak match that shares no word with the query, even when it is off', async () => {
    expect((await recall(0, 'the weekly report goes out on mondays')).outcome).toEqual({
      status: 'empty',
      tier: 'context',
    });
  });
});
