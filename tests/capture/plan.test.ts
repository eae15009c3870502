/**
 * Capture planning (pure): skips, privacy, batches of at most 100, and the
 * rule that the cursor only moves over a contiguous acknowledged prefix.
 */
import { describe, expect, it } from 'vitest';
import { ackedSet, rememberFingerprints } from '../../src/capture/ack.js';
import { MAX_BATCH, nextBatch, planItems, resumeRecordIndex } from '../../src/capture/plan.js';
import { narrowCaptureState } from '../../src/capture/state.js';
import { recordFingerprint } from '../../src/transcript/fingerprint.js';
import type { PlanOptions } from '../../src/capture/plan.js';
import type { DecodedMessage } from '../../src/transcript/index.js';

function decoded(
  index: number,
  role: 'user' | 'assistant' = index % 2 === 0 ? 'user' : 'assistant',
  text = `message ${index}`,
): DecodedMessage {
  return {
    role,
    parts: [{ type: 'text', text }],
    recordId: `r${index}@t`,
    sourceIds: [`r${index}`],
    created_at: '2026-11-30T00:00:00.000Z',
  };
}

const base: PlanOptions = { captureAssistantTurns: true, privacy: {}, acked: new Set() };

describe('planItems', () => {
  it('sends wire messages without the decoder bookkeeping', () => {
    const [item] = planItems([decoded(0)], base);
    expect(item?.message).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'message 0' }],
      created_at: '2026-11-30T00:00:00.000Z',
    });
    expect(item?.firstSourceId).toBe('r0');
  });

  it('skips acknowledged ids, assistant turns when off, and messages the privacy filter empties', () => {
    const items = planItems(
      [
        decoded(0),
        decoded(1),
        decoded(2, 'user', '<private>only this</private>'),
        decoded(3, 'assistant', 'sk-abcdefghijklmnopqrstuvwxyz012345'),
      ],
      { ...base, captureAssistantTurns: false, acked: new Set([recordFingerprint('r0@t')]) },
    );
    expect(items.map((item) => item.skip)).toEqual(['acknowledged', 'assistant-off', 'empty', 'assistant-off']);
  });

  it('redacts secrets in what it sends', () => {
    const [item] = planItems([decoded(0, 'user', 'key sk-abcdefghijklmnopqrstuvwxyz012345 here')], base);
    expect(JSON.stringify(item?.message)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz012345');
  });

  it('after a rescan, skips everything up to the last acknowledged record', () => {
    const items = planItems([decoded(0), decoded(1), decoded(2)], { ...base, skipThrough: 'r1@t' });
    expect(items.map((item) => item.skip ?? 'send')).toEqual(['acknowledged', 'acknowledged', 'send']);
  });
});

describe('nextBatch', () => {
  it('cuts 250 messages into 100 + 100 + 50, covering skips in between', () => {
    const items = planItems(
      Array.from({ length: 250 }, (_, i) => decoded(i)),
      { ...base, acked: new Set([recordFingerprint('r5@t')]) },
    );
    const sizes: number[] = [];
    for (
      let batch = nextBatch(items, 0, MAX_BATCH);
      batch !== undefined;
      batch = nextBatch(items, batch.end, MAX_BATCH)
    )
      sizes.push(batch.messages.length);
    expect(sizes).toEqual([100, 100, 49]);
  });

  it('serial mode sends one message per batch; nothing left gives undefined', () => {
    const items = planItems([decoded(0), decoded(1)], base);
    expect(nextBatch(items, 0, 1)?.recordIds).toEqual(['r0@t']);
    expect(nextBatch(items, 2, 1)).toBeUndefined();
  });
});

describe('resumeRecordIndex', () => {
  // Records: r0, snapshot (no id), r1, r2, r3; messages r0..r3.
  const recordIds = ['r0', undefined, 'r1', 'r2', 'r3'];
  const items = planItems([decoded(0), decoded(1), decoded(2), decoded(3)], base);

  it('resumes at the first record of the first unacknowledged message', () => {
    expect(resumeRecordIndex(items, 0, recordIds, 5)).toBe(0);
    expect(resumeRecordIndex(items, 2, recordIds, 5)).toBe(3);
  });

  it('moves past everything the decoder consumed once all is acknowledged', () => {
    expect(resumeRecordIndex(items, 4, recordIds, 5)).toBe(5);
  });

  it('falls back to an earlier known position when an id cannot be found', () => {
    const odd = planItems([decoded(0), { ...decoded(1), sourceIds: [] }, decoded(2)], base);
    expect(resumeRecordIndex(odd, 1, recordIds, 5)).toBe(0);
  });
});

describe('acknowledged-record fingerprints', () => {
  it('are 8 characters each, kept newest-last up to the limit', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(recordFingerprint);
    expect(a).toHaveLength(8);
    expect(rememberFingerprints(`${a}${b}`, [c as string, d as string], 3)).toBe(`${b}${c}${d}`);
    expect([...ackedSet({ acked: `${a}${b}` })]).toEqual([a, b]);
  });

  it('a state from before them keeps its acknowledged ids, as fingerprints', () => {
    const state = narrowCaptureState({
      ovSessionId: 'cb-x',
      hostSessionId: 'x',
      workspace: '/w',
      recentIds: ['r0@t', 'r1@t'],
    });
    expect(state?.acked).toBe(recordFingerprint('r0@t') + recordFingerprint('r1@t'));
  });

  it('20,000 acknowledged messages stay apart from 20,000 new ones (no fingerprint collision)', () => {
    const acked = ackedSet({
      acked: Array.from({ length: 20_000 }, (_, i) => recordFingerprint(`u-${i}@1796000000000`)).join(''),
    });
    expect(acked.size).toBe(20_000);
    const clashes = Array.from({ length: 20_000 }, (_, i) => recordFingerprint(`chatcmpl-${i}@1796000000001`)).filter(
      (fp) => acked.has(fp),
    );
    expect(clashes).toEqual([]);
  });
});
