import { describe, expect, it } from 'vitest';
import { colorAllowed, formatAge, formatStatusLine, STALE_SERVER_MS } from '../../src/statusline/format.js';
import type { StatusLineFacts } from '../../src/statusline/format.js';

const NOW = 1_800_000_000_000;
const queue = (pending: number, dead = 0) => ({
  pending: { count: pending },
  claimed: { count: 0 },
  dead: { count: dead },
});
const facts = (over: Partial<StatusLineFacts>): StatusLineFacts => ({
  enabled: true,
  snapshot: { recall: {}, capture: {} },
  now: NOW,
  color: false,
  ...over,
});
const ANSI = /\u001b\[/;

describe('formatStatusLine', () => {
  it("shows server up and this session's last recall", () => {
    const line = formatStatusLine(
      facts({
        sessionId: 'me',
        queue: queue(0),
        snapshot: {
          server: { up: true, at: NOW - 1_000 },
          recall: { me: { at: NOW - 120_000, count: 4 }, other: { at: NOW, count: 9 } },
          capture: {},
        },
      }),
    );
    expect(line).toBe('OV ● up · recall 4 memories 2m ago');
  });

  it('shows server down with its age, queued writes and dead letters', () => {
    const line = formatStatusLine(
      facts({ queue: queue(3, 1), snapshot: { server: { up: false, at: NOW - 300_000 }, recall: {}, capture: {} } }),
    );
    expect(line).toBe('OV ○ down 5m ago · 3 queued · 1 dead');
  });

  it('falls back to the newest recall of any session, and says when nothing is known', () => {
    expect(formatStatusLine(facts({ snapshot: { recall: { a: { at: NOW - 10_000, count: 1 } }, capture: {} } }))).toBe(
      'OV not contacted yet · recall 1 memory 10s ago',
    );
    expect(formatStatusLine(facts({ enabled: false }))).toBe('OV off');
  });

  it("says what earlier sessions taught, as this session's start said it, and only for this session (DESIGN D36)", () => {
    const snapshot = {
      server: { up: true, at: NOW },
      recall: {},
      capture: {},
      learned: { me: { at: NOW - 5_000, count: 3 }, other: { at: NOW, count: 1 } },
    };
    expect(formatStatusLine(facts({ sessionId: 'me', snapshot }))).toBe('OV ● up · learned 3 memories');
    expect(formatStatusLine(facts({ sessionId: 'third', snapshot }))).toBe('OV ● up');
  });

  it("shows a running import's progress (DESIGN D35)", () => {
    const line = formatStatusLine(
      facts({
        snapshot: { server: { up: true, at: NOW }, recall: {}, capture: {} },
        importing: { done: 12, total: 340 },
      }),
    );
    expect(line).toBe('OV ● up · importing 12/340');
  });

  it('marks an old "up" with its age', () => {
    const line = formatStatusLine(
      facts({ snapshot: { server: { up: true, at: NOW - STALE_SERVER_MS - 60_000 }, recall: {}, capture: {} } }),
    );
    expect(line).toBe('OV ● up 16m ago');
  });

  it('colours only when allowed', () => {
    const snapshot = { server: { up: false, at: NOW }, recall: {}, capture: {} };
    expect(formatStatusLine(facts({ color: true, queue: queue(2), snapshot }))).toMatch(ANSI);
    expect(formatStatusLine(facts({ color: false, queue: queue(2), snapshot }))).not.toMatch(ANSI);
  });
});

describe('colorAllowed', () => {
  it('honours NO_COLOR (any non-empty value) and TERM=dumb', () => {
    expect(colorAllowed({})).toBe(true);
    expect(colorAllowed({ NO_COLOR: '1' })).toBe(false);
    expect(colorAllowed({ NO_COLOR: '' })).toBe(true);
    expect(colorAllowed({ TERM: 'dumb' })).toBe(false);
  });
});

describe('formatAge', () => {
  it('reads at a glance', () => {
    expect([0, 42_000, 5 * 60_000, 3 * 3_600_000, 2 * 86_400_000].map(formatAge)).toEqual([
      'now',
      '42s ago',
      '5m ago',
      '3h ago',
      '2d ago',
    ]);
  });
});
