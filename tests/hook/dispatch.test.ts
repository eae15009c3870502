import { describe, expect, it } from 'vitest';
import { dispatchHook } from '../../src/hook/dispatch.js';
import type { Route } from '../../src/hook/routes.js';
import type { Stage } from '../../src/protocol/stage.js';
import { routeFor } from '../../src/hook/routes.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';

function only(event: string, stage: Stage, safetyMs = 2_000): (e: string) => Route | undefined {
  return (e) => (e === event ? { load: async () => stage, safetyMs } : undefined);
}

describe('dispatchHook', () => {
  it('routes by hook_event_name and encodes the stage result', async () => {
    const deps = createTestDeps();
    const out = await dispatchHook('{"hook_event_name":"UserPromptSubmit","prompt":"hi"}', {
      routeFor: only('UserPromptSubmit', async (input) => ({ kind: 'context', text: `saw ${String(input.prompt)}` })),
      createDeps: () => deps,
      elapsedMs: () => 0,
    });
    expect(out).toBe('{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"saw hi"}}');
  });

  it('a value the stdin reader already parsed is used instead of parsing the text again, with the same rules', async () => {
    const deps = createTestDeps();
    const stage: Stage = async (input) => ({
      kind: 'context',
      text: `saw ${String(input.prompt)} ${typeof input.session_id}`,
    });
    const options = { routeFor: only('UserPromptSubmit', stage), createDeps: () => deps, elapsedMs: () => 0 };
    // The text is never read when a parsed value comes along; a wrong-typed field is dropped either way.
    const parsedJson = { hook_event_name: 'UserPromptSubmit', prompt: 'from the value', session_id: 42 };
    expect(await dispatchHook('not json', { ...options, parsedJson })).toBe(
      await dispatchHook(JSON.stringify(parsedJson), options),
    );
    expect(await dispatchHook('not json', { ...options, parsedJson })).toContain('saw from the value undefined');
    expect(
      await dispatchHook('{"hook_event_name":"UserPromptSubmit"}', { ...options, parsedJson: ['not', 'an', 'object'] }),
    ).toBe('');
  });

  it('builds no deps and loads nothing for bad input or an unrouted event', async () => {
    let built = 0;
    for (const text of ['', 'nope', '[]', '{"hook_event_name":"Notification"}', '{"hook_event_name":"PostToolUse"}']) {
      const out = await dispatchHook(text, {
        routeFor,
        createDeps: () => (built++, createTestDeps()),
        elapsedMs: () => 0,
      });
      expect(out).toBe('');
    }
    expect(built).toBe(0);
  });

  it('a throwing, rejecting or failing-to-load stage answers pass-through and logs a warning', async () => {
    const failing: ((e: string) => Route | undefined)[] = [
      only('Stop', () => {
        throw new Error('sync');
      }),
      only('Stop', async () => {
        throw new Error('async');
      }),
      () => ({ load: async () => Promise.reject(new Error('chunk missing')), safetyMs: 1_000 }),
    ];
    for (const routes of failing) {
      const deps = createTestDeps();
      expect(
        await dispatchHook('{"hook_event_name":"Stop"}', {
          routeFor: routes,
          createDeps: () => deps,
          elapsedMs: () => 0,
        }),
      ).toBe('');
      expect(deps.logged.map((l) => l.level)).toEqual(['warn']);
    }
  });

  it('a stage past its budget (minus the time already spent) answers pass-through', async () => {
    const deps = createTestDeps();
    const started = Date.now();
    const out = await dispatchHook('{"hook_event_name":"PreToolUse"}', {
      routeFor: only('PreToolUse', () => new Promise(() => undefined), 1_000),
      createDeps: () => deps,
      elapsedMs: () => 950,
    });
    expect(out).toBe('');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(40);
    expect(waited).toBeLessThan(900);
    expect(deps.logged[0]?.message).toMatch(/budget/);
  });

  it('only PreToolUse can deny: a deny from another stage writes nothing', async () => {
    const deny: Stage = async () => ({ kind: 'deny', reason: 'r' });
    expect(
      await dispatchHook('{"hook_event_name":"Stop"}', {
        routeFor: only('Stop', deny),
        createDeps: createTestDeps,
        elapsedMs: () => 0,
      }),
    ).toBe('');
    expect(
      await dispatchHook('{"hook_event_name":"PreToolUse"}', {
        routeFor: only('PreToolUse', deny),
        createDeps: createTestDeps,
        elapsedMs: () => 0,
      }),
    ).toContain('"deny"');
  });

  it('an entry stage that answers synchronously arms no timer; one that returns a promise arms it before the wait', async () => {
    const armed: string[] = [];
    const inline =
      (stage: Stage): ((e: string) => Route | undefined) =>
      () => ({ stage, safetyMs: 2_000 });
    const options = (stage: Stage, name: string) => ({
      routeFor: inline(stage),
      createDeps: createTestDeps,
      elapsedMs: () => 0,
      onRoute: () => armed.push(name),
    });
    expect(
      await dispatchHook(
        '{"hook_event_name":"UserPromptSubmit"}',
        options(() => ({ kind: 'context', text: 'now' }), 'sync'),
      ),
    ).toContain('"additionalContext":"now"');
    expect(
      await dispatchHook(
        '{"hook_event_name":"UserPromptSubmit"}',
        options(async () => ({ kind: 'context', text: 'later' }), 'async'),
      ),
    ).toContain('"additionalContext":"later"');
    const deps = createTestDeps();
    const throwing: Stage = () => {
      throw new Error('sync');
    };
    expect(
      await dispatchHook('{"hook_event_name":"UserPromptSubmit"}', {
        ...options(throwing, 'throwing'),
        createDeps: () => deps,
      }),
    ).toBe('');
    expect(deps.logged.map((l) => l.level)).toEqual(['warn']);
    expect(armed).toEqual(['async']);
  });

  it('tells the caller the route once the event is known', async () => {
    const seen: number[] = [];
    await dispatchHook('{"hook_event_name":"Stop"}', {
      routeFor,
      createDeps: createTestDeps,
      elapsedMs: () => 0,
      onRoute: (r) => seen.push(r.safetyMs),
    });
    expect(seen).toEqual([routeFor('Stop')?.safetyMs]);
  });
});

describe('routeFor', () => {
  it('names the real stages (the guard and the relays of prompt and start in the entry, the rest behind imports)', async () => {
    const expected: Record<string, string> = {
      SessionStart: 'runStartRelay',
      UserPromptSubmit: 'runPromptRelay',
      PreToolUse: 'runGuard',
      Stop: 'runCapture',
      SubagentStop: 'runCapture',
      SubagentStart: 'runCapture',
      PreCompact: 'runCapture',
      SessionEnd: 'runCapture',
    };
    for (const [event, name] of Object.entries(expected)) {
      const route = routeFor(event);
      const stage = route === undefined ? undefined : 'stage' in route ? route.stage : await route.load();
      expect(stage?.name, event).toBe(name);
    }
    for (const event of ['PostToolUse', 'Notification', 'Bogus', 'constructor'])
      expect(routeFor(event)).toBeUndefined();
  });
});
