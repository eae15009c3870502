/**
 * Races a promise against a timer that never outlives the race: the one
 * bounded wait of the plugin's code, the hook commands' (stage budgets,
 * executor grace, flushes) and the hooks module's (mod/deadline.ts, whose
 * timer is the host's `$.clock.sleep`: a module has no timers of its own).
 *
 * @module
 */

/** Starts a wait of `ms` that calls `expire` at its end; the function it returns stops the wait. */
export type StartTimer = (ms: number, expire: () => void) => () => void;

/** node's timer. */
const nodeTimer: StartTimer = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

/**
 * @param work - the promise to wait for.
 * @param ms - the budget; negative values count as 0.
 * @param onTimeout - the value resolved when the budget runs out first.
 * @param startTimer - the timer (node's unless given).
 * @returns `work`'s value, `onTimeout`, or `work`'s rejection.
 */
export async function withTimeout<T, F>(
  work: Promise<T>,
  ms: number,
  onTimeout: F,
  startTimer: StartTimer = nodeTimer,
): Promise<T | F> {
  let stop: (() => void) | undefined;
  const expired = new Promise<F>((resolve) => {
    stop = startTimer(Math.max(0, ms), () => resolve(onTimeout));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    stop?.();
  }
}
