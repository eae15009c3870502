/**
 * "Exactly once" for captured turns: wait until every expected text has
 * arrived at least once (the capture worker is detached, so it lands after the
 * CLI exits), then until the counts stop changing, and hand back the counts.
 * A scenario then asserts they are all 1 — zero means lost, two means
 * duplicated — with the world's evidence as the failure message.
 *
 * @module
 */
import { waitFor, waitForStable } from '../../support/wait.js';

export type CountProbes = Record<string, () => number>;

function readCounts(probes: CountProbes): Record<string, number> {
  return Object.fromEntries(Object.entries(probes).map(([name, probe]) => [name, probe()]));
}

/** Counts once all are ≥ 1 (or after `arrivalMs`, whatever they are) and stable for `quietMs`. */
export async function settledCounts(
  probes: CountProbes,
  arrivalMs = 20_000,
  quietMs = 2_000,
): Promise<Record<string, number>> {
  await waitFor(() => Object.values(readCounts(probes)).every((count) => count > 0), { timeoutMs: arrivalMs }).catch(
    () => undefined,
  );
  return waitForStable(() => readCounts(probes), { quietMs, timeoutMs: arrivalMs + quietMs * 4 });
}

/** The expected result of `settledCounts` when everything landed exactly once. */
export function onceEach(probes: CountProbes): Record<string, number> {
  return Object.fromEntries(Object.keys(probes).map((name) => [name, 1]));
}
