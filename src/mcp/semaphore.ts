/**
 * Bounds how many requests the proxy has in flight upstream at once.
 *
 * A model can fire many tool calls in parallel; OpenViking takes path locks
 * and runs embeddings per call, so an unbounded burst only queues on the
 * server and times out there. The reference proxy allows 16 (openviking-api.md
 * §4.2); callers past the limit wait here, in arrival order.
 *
 * @module
 */

export interface Semaphore {
  /** Runs `task` once a slot is free; the slot is released however the task ends. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

export function createSemaphore(limit: number): Semaphore {
  const capacity = Math.max(1, Math.floor(limit));
  const queue: Array<() => void> = [];
  let active = 0;

  const acquire = (): Promise<void> => {
    if (active < capacity) {
      active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(resolve));
  };
  const release = (): void => {
    const next = queue.shift();
    if (next) next();
    else active -= 1;
  };

  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
