/**
 * Races a promise against a timer that never outlives the race, the one
 * bounded wait of the hook code (stage budgets, executor grace, flushes).
 *
 * @module
 */

/**
 * @param work - the promise to wait for.
 * @param ms - the budget; negative values count as 0.
 * @param onTimeout - the value resolved when the budget runs out first.
 * @returns `work`'s value, `onTimeout`, or `work`'s rejection.
 */
export async function withTimeout<T, F>(work: Promise<T>, ms: number, onTimeout: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
