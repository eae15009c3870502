import { defineConfig } from 'vitest/config';

/**
 * Files that keep a CPU budget of their own over hundreds of spawned hooks
 * (the fuzzers) or a load model (the soak): they run after the rest, one at
 * a time, so a neighbour's processes never eat into their budgets.
 */
const ALONE = ['tests/fuzz/**/*.test.ts', 'tests/faults/soak.test.ts'];

// Tests spawn real processes and sockets; keep them isolated per file and
// give spawned hooks room on a loaded 2-core CI machine. Most of a test's
// time is waiting (on a deadline, a child, a socket), so the other files run
// two at a time even on 2 cores. Most run the built bundles, so every run
// builds first (tests/support/build-before-test.ts).
const shared = { testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    globalSetup: ['tests/support/build-before-test.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', 'tests/real/**', 'node_modules/**', ...ALONE],
          maxWorkers: 2,
        },
      },
      { test: { ...shared, name: 'alone', include: ALONE, fileParallelism: false } },
    ],
  },
});
