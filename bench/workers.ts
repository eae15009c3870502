/**
 * Waiting for capture to land in the benchmarks: until the server stored a
 * given message, timed. (Waiting for the private plugin's detached workers
 * to be gone lives in tests/faults/support/procfs.ts and is re-exported.)
 *
 * @module
 */
import type { OvTestServer } from '../tests/support/ov-server/index.js';
export { waitForWorkersGone } from '../tests/faults/support/procfs.js';

/**
 * True when a write carrying `marker` was answered 200 (so the server stored
 * it). Read from the request log, not from session snapshots: a snapshot
 * copies every stored message, and with a 50 MB session in the same process
 * the polling itself would slow the server being measured. Clear the log
 * before a timed round to keep this cheap.
 */
export function markerStored(server: OvTestServer, marker: string): boolean {
  return server
    .requests({ method: 'POST', path: /\/messages(\/batch)?$/, status: 200 })
    .some((request) => request.rawBody.includes(marker));
}

/** Polls every 2 ms until `check()` holds; the elapsed ms, or undefined after `timeoutMs`. */
export async function msUntil(
  check: () => boolean,
  timeoutMs: number,
  startedAt = performance.now(),
): Promise<number | undefined> {
  for (;;) {
    if (check()) return performance.now() - startedAt;
    if (performance.now() - startedAt > timeoutMs) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
