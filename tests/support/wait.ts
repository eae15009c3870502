/**
 * Polling instead of fixed sleeps, the one copy for every test: effects (a
 * detached capture worker's POST, a Stop hook finishing after the `result`
 * line, a child's lock) land at unpredictable times on a loaded machine, so
 * tests wait for the effect itself. The older helpers (capture's `until`,
 * the MCP harness's and the store fixtures' `waitFor`) keep their
 * signatures and call this one.
 *
 * @module
 */

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the timeout error, e.g. "2 messages in session cb-…"; a function is evaluated at the timeout (for evidence). */
  what?: string | (() => string);
}

function describe(what: WaitOptions['what'], fallback: string): string {
  if (what === undefined) return fallback;
  return typeof what === 'function' ? what() : what;
}

/** Resolves with the first truthy value of `probe`; rejects after `timeoutMs` naming `what`. */
export async function waitFor<T>(
  probe: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${describe(options.what, 'a condition')}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Waits until `probe` has returned the same value for `quietMs` in a row — for
 * "nothing more arrives" assertions (no duplicate capture after the first one).
 */
export async function waitForStable<T>(
  probe: () => T | Promise<T>,
  options: WaitOptions & { quietMs?: number } = {},
): Promise<T> {
  const quietMs = options.quietMs ?? 1_500;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  let last = JSON.stringify(await probe());
  let stableSince = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const value = await probe();
    const encoded = JSON.stringify(value);
    if (encoded !== last) {
      last = encoded;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= quietMs) {
      return value;
    }
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${describe(options.what, 'a stable value')}`);
  }
}
