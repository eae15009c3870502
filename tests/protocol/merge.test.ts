import { describe, expect, it } from 'vitest';
import { mergeHookOutputs } from '../support/host-sim/protocol/index.js';
import type { HookOutput } from '../support/host-sim/protocol/index.js';

const out = (over: Partial<HookOutput>): HookOutput => ({ exitCode: 0, stdout: '', stderr: '', status: 'ok', ...over });

describe('mergeHookOutputs', () => {
  it('no outputs: nothing to say', () => {
    expect(mergeHookOutputs([])).toEqual({ decision: 'none', stop: false, additionalContext: [], systemMessages: [] });
  });

  it('deny beats ask beats allow, and only the winning reasons surface', () => {
    const merged = mergeHookOutputs([
      out({ decision: 'allow', reason: 'fine' }),
      out({ decision: 'ask', reason: 'sure?' }),
      out({ decision: 'deny', reason: 'no' }),
      out({ decision: 'block', reason: 'exit 2' }),
    ]);
    expect(merged.decision).toBe('deny');
    expect(merged.reason).toBe('no\n\nexit 2');
    expect(mergeHookOutputs([out({ decision: 'approve' }), out({ decision: 'ask', reason: 'sure?' })])).toMatchObject({
      decision: 'ask',
      reason: 'sure?',
    });
    expect(mergeHookOutputs([out({ decision: 'approve', reason: 'x' })])).toEqual({
      decision: 'allow',
      stop: false,
      additionalContext: [],
      systemMessages: [],
    });
  });

  it('continue:false is sticky and keeps the first stopReason', () => {
    const merged = mergeHookOutputs([
      out({}),
      out({ continue: false, stopReason: 'first' }),
      out({ continue: false, stopReason: 'second' }),
      out({ continue: true }),
    ]);
    expect(merged.stop).toBe(true);
    expect(merged.stopReason).toBe('first');
  });

  it('accumulates contexts and system messages in order; the host view keeps only the last context', () => {
    const merged = mergeHookOutputs([
      out({ additionalContext: 'A', systemMessage: 'm1' }),
      out({}),
      out({ additionalContext: 'B', systemMessage: 'm2' }),
      out({ hookEventName: 'UserPromptSubmit' }),
    ]);
    expect(merged.additionalContext).toEqual(['A', 'B']);
    expect(merged.systemMessages).toEqual(['m1', 'm2']);
    expect(merged.hostAdditionalContext).toBe('B');
  });

  it('the host view is lost when a later hook sets an empty context (shallow merge)', () => {
    const merged = mergeHookOutputs([out({ additionalContext: 'A' }), out({ additionalContext: '' })]);
    expect(merged.additionalContext).toEqual(['A']);
    expect(merged.hostAdditionalContext).toBeUndefined();
  });
});
