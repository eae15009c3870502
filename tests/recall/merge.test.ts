/**
 * How the answers for a project's earlier ids join its own (DESIGN D24,
 * recall/cascade.ts `mergeOutcomes`): by URI, a URI found twice keeps its
 * higher score (actor scope applies no penalty, so the scores are alike),
 * ordered by score, cut to the limit; any answer with memories is enough;
 * none with any leaves the project's own answer.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { mergeOutcomes } from '../../src/recall/cascade.js';
import type { RecallOutcome } from '../../src/recall/types.js';

const hit = (uri: string, score?: number) => ({ uri, text: uri, ...(score === undefined ? {} : { score }) });
const hits = (...items: ReturnType<typeof hit>[]): RecallOutcome => ({ status: 'hits', tier: 'context', items });
const failed: RecallOutcome = {
  status: 'failed',
  tier: 'context',
  failure: { ok: false, status: 0, code: 'NETWORK', message: 'down', retryable: true },
};

describe('mergeOutcomes', () => {
  it('dedupes by URI keeping the higher score, orders by score, cuts to the limit', () => {
    const merged = mergeOutcomes(
      hits(hit('a', 0.5), hit('b', 0.9)),
      [hits(hit('a', 0.7), hit('c', 0.6)), hits(hit('d', 0.1))],
      3,
    );
    expect(merged).toEqual(hits(hit('b', 0.9), hit('a', 0.7), hit('c', 0.6)));
  });

  it("an earlier id's memories stand when the project's own answer failed or was empty; with none anywhere the own answer stays", () => {
    expect(mergeOutcomes(failed, [hits(hit('x', 0.4))], 10)).toEqual(hits(hit('x', 0.4)));
    expect(mergeOutcomes({ status: 'empty', tier: 'context' }, [hits(hit('x'))], 10)).toEqual(hits(hit('x')));
    expect(mergeOutcomes(failed, [{ status: 'empty', tier: 'context' }], 10)).toBe(failed);
    const own = hits(hit('o', 0.3));
    expect(mergeOutcomes(own, [failed], 10)).toBe(own);
  });
});
