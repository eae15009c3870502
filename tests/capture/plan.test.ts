/**
 * Capture planning (pure): skips, privacy, batches of at most 100, and the
 * rule that the cursor only moves over a contiguous acknowledged prefix.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BATCH, nextBatch, planItems, rememberIds, resumeRecordIndex } from '../../src/capture/plan.js';
import type { PlanOptions } from '../../src/capture/plan.js';
import type { DecodedMessage } from '../../src/transcript/index.js';

function decoded(index: number, role: 'user' | 'assistant' = index % 2 === 0 ? 'user' : 'assistant', text = `message ${index}`): DecodedMessage {
  return { role, parts: [{ type: 'text', text }], recordId: `r${index}@t`, sourceIds: [`r${index}`], created_at: '2026-11-30T00:00:00.000Z' };
}

const base: PlanOptions = { captureAssistantTurns: true, privacy: {}, recentIds: new Set() };

describe('planItems', () => {
  it('sends wire messages without the decoder bookkeeping', () => {
    const [item] = planItems([decoded(0)], base);
    expect(item?.message).toEqual({ role: 'user', parts: [{ type: 'text', text: 'message 0' }], created_at: '2026-11-30T00:00:00.000Z' });
    expect(item?.firstSourceId).toBe('r0');
  });

  it('skips acknowledged ids, assistant turns when off, and messages the privacy filter empties', () => {
    const items = planItems(
      [decoded(0), decoded(1), decoded(2, 'user', '<private>only this</private>'), decoded(3, 'assistant', 'sk-abcdefghijklmnopqrstuvwxyz012345')],
      { ...base, captureAssistantTurns: false, recentIds: new Set(['r0@t']) },
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
    const items = planItems(Array.from({ length: 250 }, (_, i) => decoded(i)), { ...base, recentIds: new Set(['r5@t']) });
    const sizes: number[] = [];
    for (let batch = nextBatch(items, 0, MAX_BATCH); batch !== undefined; batch = nextBatch(items, batch.end, MAX_BATCH)) sizes.push(batch.messages.length);
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

it('rememberIds keeps the newest ids only', () => {
  expect(rememberIds(['a', 'b'], ['c', 'd'], 3)).toEqual(['b', 'c', 'd']);
});
