/**
 * A prompt that only acknowledges or greets gets no recall (D43,
 * src/recall/smallTalk.ts): no search is sent for it (skip.ts), while a
 * prompt that opens with an acknowledgement and then asks or names
 * something is recalled for as before.
 */
import { describe, expect, it } from 'vitest';
import { decideRecall } from '../../src/recall/skip.js';
import { isSmallTalk, MAX_REST_WORDS } from '../../src/recall/smallTalk.js';
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

describe('isSmallTalk', () => {
  it.each([
    'thanks, looks good',
    'ok do it',
    'cool, merge it',
    'lol ok',
    'hmm',
    'Thanks!',
    'sounds good, thanks for the help',
    'nice, that fixed it',
    'great, ship it',
    'Good morning!',
  ])('an acknowledgement or greeting: %s', (prompt) => expect(isSmallTalk(prompt)).toBe(true));

  it.each([
    'ok and how do I get it out to customers',
    'ok, run the integration tests',
    'thanks, but the deploy fails with a 502 now',
    "good morning! let's pick up where we left off",
    'cool, what port does it listen on?',
    'fix it',
    'fine-tune the ranking weights',
    'kubectl get pods says nothing',
    'run the test suite',
  ])('asks or names something: %s', (prompt) => expect(isSmallTalk(prompt)).toBe(false));

  it('allows at most MAX_REST_WORDS words after the acknowledgement', () => {
    expect(isSmallTalk(`ok ${Array.from({ length: MAX_REST_WORDS }, () => 'it').join(' ')}`)).toBe(true);
    expect(isSmallTalk(`ok ${Array.from({ length: MAX_REST_WORDS + 1 }, () => 'it').join(' ')}`)).toBe(false);
  });
});

describe('decideRecall on small talk', () => {
  it('skips it without a search', () => {
    expect(decide('thanks, looks good')).toEqual({ recall: false, reason: 'small-talk' });
  });

  it('recalls for a question after an acknowledgement', () => {
    expect(decide('ok and how do I get it out to customers')).toEqual({
      recall: true,
      query: 'ok and how do I get it out to customers',
    });
  });
});
