/**
 * The request and reply formats between a hook and its resident
 * (src/resident/wire.ts): each side treats the other's message as untrusted.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { RESIDENT_PROTOCOL_VERSION } from '../../src/resident/identity.js';
import { decodeReply, decodeRequest, encodeReply, encodeRequest } from '../../src/resident/wire.js';

const input = { hook_event_name: 'UserPromptSubmit' as const, session_id: 's1', prompt: 'how do I deploy?' };

describe('requests', () => {
  it('round-trip as one line of JSON (no raw newline, whatever the prompt holds)', () => {
    const request = {
      input: { ...input, prompt: 'line one\nline two\r\n' },
      cwd: '/work/a',
      env: { CODEBUDDY_PROJECT_DIR: '/work/a' },
    };
    const text = encodeRequest(request);
    expect(text).not.toMatch(/[\r\n]/);
    expect(decodeRequest(text)).toEqual(request);
  });

  it('are refused when they are not what a hook writes', () => {
    const good = JSON.parse(encodeRequest({ input, cwd: '/w', env: {} })) as Record<string, unknown>;
    for (const bad of [
      'not json',
      '[]',
      JSON.stringify({ ...good, v: RESIDENT_PROTOCOL_VERSION + 1 }),
      JSON.stringify({ ...good, cwd: 7 }),
      JSON.stringify({ ...good, env: 'x' }),
      JSON.stringify({ ...good, input: { hook_event_name: 'NoSuchEvent' } }),
    ]) {
      expect(decodeRequest(bad), bad).toBeUndefined();
    }
  });

  it('keep only string variables', () => {
    const text = JSON.stringify({ v: RESIDENT_PROTOCOL_VERSION, input, cwd: '/w', env: { A: 'a', B: 2, C: null } });
    expect(decodeRequest(text)?.env).toEqual({ A: 'a' });
  });
});

describe('replies', () => {
  it('carry a pass-through or a context block', () => {
    expect(decodeReply(encodeReply({ kind: 'pass' }))).toEqual({ kind: 'pass' });
    expect(decodeReply(encodeReply({ kind: 'context', text: '<openviking-context>…' }))).toEqual({
      kind: 'context',
      text: '<openviking-context>…',
    });
  });

  it("carry the start's line for the user (notice) with either", () => {
    for (const result of [
      { kind: 'pass', notice: 'OpenViking memory is off: the server did not answer.' },
      { kind: 'context', text: '<openviking-context>…', notice: 'Learned 2 memories.' },
    ] as const)
      expect(decodeReply(encodeReply(result))).toEqual(result);
    const odd = JSON.stringify({ v: RESIDENT_PROTOCOL_VERSION, result: { kind: 'pass', notice: 7 } });
    expect(decodeReply(odd)).toEqual({ kind: 'pass' });
  });

  it('can never carry a deny, another version, or a partial file', () => {
    const deny = encodeReply({ kind: 'deny', reason: 'no' });
    for (const bad of [
      deny,
      encodeReply({ kind: 'pass' }).replace(`"v":${RESIDENT_PROTOCOL_VERSION}`, '"v":99'),
      '',
      '{"v":1,"result":{"kind":"cont',
      '{"v":1,"result":{"kind":"context","text":5}}',
    ]) {
      expect(decodeReply(bad), bad).toBeUndefined();
    }
  });
});
