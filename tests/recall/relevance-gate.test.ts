/**
 * A recall whose best candidate's relevance (score plus re-rank) is below
 * `recallMinRelevance` injects nothing; 0, the default, lets everything
 * through (D43, src/recall/relevanceGate.ts).
 */
import { describe, expect, it } from 'vitest';
import { recallMemories } from '../../src/recall/cascade.js';
import { relevantEnough } from '../../src/recall/relevanceGate.js';
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

describe('recallMemories with a floor', () => {
  const client = {
    searchContext: async () => ({
      ok: true,
      result: {
        entries: [{ uri: 'viking://user/dana/memories/entities/a.md', score: 0.6, text: 'the weekly report' }],
        rendered: '',
        digest: '',
      },
    }),
  } as unknown as OpenVikingClient;
  const recall = (recallMinRelevance: number) =>
    recallMemories({
      client,
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
    expect((await recall(0.69)).outcome).toEqual({ status: 'empty', tier: 'context' });
  });

  it('keeps the memories when it is off', async () => {
    expect((await recall(0)).outcome.status).toBe('hits');
  });
});
