/**
 * A prompt that asks for a live measurement gets no recall (D43,
 * src/recall/liveValue.ts): an amount or a measured value AND the present,
 * both; a decided target or a choice "these days" is recalled for as
 * before, and no search is sent for the live ones (skip.ts).
 */
import { describe, expect, it } from 'vitest';
import { asksLiveValue } from '../../src/recall/liveValue.js';
import { decideRecall } from '../../src/recall/skip.js';
import type { UserPromptSubmitInput } from '../../src/protocol/input.js';

const SETTINGS = {
  enabled: true,
  autoRecall: true,
  bypassSession: false,
  bypassPatterns: [],
  minQueryLength: 3,
  recallPrefix: '',
};

function decide(prompt: string) {
  const input = { hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt } as unknown as UserPromptSubmitInput;
  return decideRecall(input, SETTINGS, '/work/project');
}

describe('asksLiveValue', () => {
  it.each([
    'how many tenants are on the enterprise plan right now',
    "what's the p99 latency of POST /v1/payments these days",
    'How big is the release binary for linux right now?',
    "what's the weather like in berlin today",
    'how many rows did mart_orders_daily get yesterday',
    'what is the current error rate of the ingest job at the moment',
    'how much did we spend on CI this month',
  ])('is true for %j', (prompt) => {
    expect(asksLiveValue(prompt)).toBe(true);
  });

  it.each([
    // An amount, but a decided one: no present.
    'how fast is kelp supposed to be',
    'how long do we keep the raw webhook payloads around',
    'how many calls per minute does an API key get',
    // The present, but no amount.
    'which dataframe lib do we use these days',
    'i want to ship this to customers today, what is the process',
    'quick way to watch what the live app is printing right now',
    'how can I find everything one request did yesterday',
    // Neither.
    'how do I run the integration tests',
  ])('is false for %j', (prompt) => {
    expect(asksLiveValue(prompt)).toBe(false);
  });
});

describe('decideRecall', () => {
  it('skips a live measurement with its own reason, and recalls for a decided amount', () => {
    expect(decide('how many tenants are on the enterprise plan right now')).toEqual({
      recall: false,
      reason: 'live-value',
    });
    expect(decide('how fast is kelp supposed to be')).toEqual({
      recall: true,
      query: 'how fast is kelp supposed to be',
    });
  });
});
