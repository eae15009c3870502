import { defineConfig } from 'vitest/config';

// End-to-end scenarios: the real CodeBuddy CLI (about 10 s per start) and the
// real Claude Code CLI (claude-*.e2e.test.ts, 1-2 s per run) against scripted
// models and the OpenViking test server. Files run one after another so two
// starts of the same CLI never compete; `npm test` runs the two hosts' files
// as two lanes side by side (scripts/dev/e2e-and-static.sh).
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    globalSetup: ['tests/e2e/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
    maxConcurrency: 1,
  },
});
