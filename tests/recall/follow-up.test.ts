/**
 * A short prompt's recall query carries the exchange before it (D43,
 * src/recall/followUp.ts), a long one is searched as typed, and the earlier
 * turns leave the machine only through the privacy filter. The measured
 * effect (recall benchmark, real server, real embeddings) is in D43; the
 * transcript side is tests/transcript/last-exchange.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { EXCHANGE_TURN_CHARS, FOLLOW_UP_MAX_WORDS, followUpQuery } from '../../src/recall/followUp.js';

const PREVIOUS = {
  user: 'I opened a pull request for the checkout page',
  assistant: 'Vercel made a preview deployment for it.',
};

describe('followUpQuery', () => {
  it('puts the previous user message and answer before a short prompt', () => {
    expect(followUpQuery('and how does that go out to prod?', PREVIOUS, 4000)).toBe(
      'I opened a pull request for the checkout page\nVercel made a preview deployment for it.\nand how does that go out to prod?',
    );
  });

  it('searches a long prompt as typed', () => {
    const long = Array.from({ length: FOLLOW_UP_MAX_WORDS + 1 }, (_, i) => `word${i}`).join(' ');
    expect(followUpQuery(long, PREVIOUS, 4000)).toBe(long);
  });

  it('keeps the prompt alone without a previous exchange', () => {
    expect(followUpQuery('so why does it see nothing', {}, 4000)).toBe('so why does it see nothing');
  });

  it('sends no private section and no secret of the earlier turns', () => {
    const query = followUpQuery(
      'and now?',
      {
        user: 'deploy with <private>my home address</private> the token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        assistant: 'Done.',
      },
      4000,
    );
    expect(query).not.toContain('home address');
    expect(query).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(query.endsWith('\nDone.\nand now?')).toBe(true);
  });

  it('clips each earlier turn and never passes the query cap', () => {
    const query = followUpQuery('and then?', { user: 'u'.repeat(5000), assistant: 'a'.repeat(5000) }, 4000);
    expect(query).toBe(`${'u'.repeat(EXCHANGE_TURN_CHARS)}\n${'a'.repeat(EXCHANGE_TURN_CHARS)}\nand then?`);
    expect(followUpQuery('and then?', PREVIOUS, 20)).toBe('and then?');
  });
});
