/**
 * The assertion every fault case ends with: nothing lost, nothing
 * duplicated (with `committed`, every turn inside a commit too), and every
 * hook the host ran answered inside its timeout (a hook killed at its
 * timeout BLOCKS on CodeBuddy).
 *
 * @module
 */
import { expect } from 'vitest';
import type { FaultSession, FaultWorld } from './world.js';

export async function expectExactlyOnceWithinDeadlines(
  world: FaultWorld,
  label: string,
  sessions: readonly FaultSession[],
  extra: readonly string[] = [],
  options: { committed?: boolean } = {},
): Promise<void> {
  const report = await world.report(label, sessions, extra);
  expect(report.lost, `${label}: turns lost`).toEqual([]);
  expect(report.duplicated, `${label}: turns duplicated`).toEqual([]);
  if (options.committed === true) expect(report.uncommitted, `${label}: turns in no commit`).toEqual([]);
  for (const event of world.events) {
    expect(event.result.timedOut, `${label}: ${event.label} was killed at its timeout`).toBe(false);
    expect(event.ms, `${label}: ${event.label} host-visible time`).toBeLessThan(event.deadlineMs);
  }
}
