import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../src/protocol/input.js';
import { isHookEventName, parseHookInput } from '../../src/protocol/parse.js';

describe('parseHookInput', () => {
  it('returns null for empty, invalid JSON, non-objects and unknown or missing events', () => {
    for (const text of [
      '',
      '   ',
      '{',
      'null',
      '42',
      '"PreToolUse"',
      '[{"hook_event_name":"Stop"}]',
      '{}',
      '{"hook_event_name":"Bogus"}',
      '{"hook_event_name":7}',
    ]) {
      expect(parseHookInput(text), text).toBeNull();
    }
  });

  it('accepts every known event, a BOM, surrounding whitespace and a trailing newline', () => {
    for (const event of HOOK_EVENTS)
      expect(parseHookInput(`\n {"hook_event_name":"${event}"}\n`)?.hook_event_name).toBe(event);
    expect(parseHookInput('\ufeff{"hook_event_name":"Stop"}')?.hook_event_name).toBe('Stop');
    expect(isHookEventName('toString')).toBe(false);
  });

  it('keeps unknown keys and drops known optional fields of the wrong type', () => {
    const input = parseHookInput(
      JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        prompt: 42,
        session_id: 's1',
        cwd: null,
        is_internal_continuation: 'false',
        stop_hook_active: true,
        future_field: { x: 1 },
        tool_input: 'kept as is',
      }),
    );
    expect(input).toEqual({
      hook_event_name: 'UserPromptSubmit',
      session_id: 's1',
      stop_hook_active: true,
      future_field: { x: 1 },
      tool_input: 'kept as is',
    });
  });

  it('a __proto__ key does not change the prototype', () => {
    const input = parseHookInput('{"hook_event_name":"Stop","__proto__":{"polluted":true}}');
    expect(input).not.toBeNull();
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect((input as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses every payload shape the real 2.117 CLI sent (one per event and key set, from the samples)', () => {
    const lines = readFileSync(new URL('./fixtures/stdin-2.117.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) expect(parseHookInput(line)).toEqual(JSON.parse(line));
  });
});
