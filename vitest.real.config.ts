import { defineConfig } from 'vitest/config';

// The real OpenViking server (tests/real/): the globalSetup installs the pinned wheel when
// needed, builds the plugin and starts a dev-mode and an api_key-mode server for every file
// (tests/real/support/global-setup.ts). Commits run the server's extraction pipeline through
// the fake model provider, which takes seconds, so waits are generous; two files at a time,
// as the unit suite (most of a test's time is waiting on the server).
export default defineConfig({
  test: {
    include: ['tests/real/**/*.real.test.ts'],
    globalSetup: ['tests/real/support/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
