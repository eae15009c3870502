import { defineConfig } from 'vitest/config';

// Tests spawn real processes and sockets; keep them isolated per file and
// give spawned hooks room on a loaded 2-core CI machine. Most run the built
// bundles, so every run builds first (tests/support/build-before-test.ts).
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    globalSetup: ['tests/support/build-before-test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
