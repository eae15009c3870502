/**
 * Vitest's globalSetup for every unit test run (vitest.config.ts): builds
 * the plugin before any test file runs, so a test that runs the bundles
 * (scripts/hook.mjs, servers/mcp-proxy.mjs, hooks/register.mjs: most of the
 * suites spawn them) tests today's src/, never the last build's (D37).
 *
 * The build is build.mjs's own, made in memory: only the files whose bytes
 * differ are written (each atomically) and stale chunks removed, so an
 * unchanged tree costs about a second and rewrites nothing (another vitest
 * run in the same checkout keeps running on the same files). A build that
 * fails stops the run before any test, with the reason: the bundles on disk
 * may then be yesterday's code.
 *
 * `npm test` still proves, before vitest, that the committed bundles are what
 * src/ builds (tests/support/check-fresh-build.mjs); this setup then finds
 * nothing to write.
 *
 * @module
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface BuildModule {
  buildAll(): Promise<{ written: string[]; removed: string[] }>;
}

export default async function buildBeforeTest(): Promise<void> {
  const started = Date.now();
  const { buildAll } = (await import(pathToFileURL(join(REPO_ROOT, 'build.mjs')).href)) as BuildModule;
  let changed: Awaited<ReturnType<BuildModule['buildAll']>>;
  try {
    changed = await buildAll();
  } catch (error) {
    throw new Error(
      'Not running the tests: src/ does not build, so the bundles they run (scripts/, servers/, ' +
        `hooks/register.mjs) would be an older build's.\n${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  console.log(describeBuild(changed, Date.now() - started));
}

/** One line: whether the bundles were stale, and which files the build wrote or removed. */
export function describeBuild(changed: { written: string[]; removed: string[] }, ms: number): string {
  const { written, removed } = changed;
  if (written.length === 0 && removed.length === 0) return `bundles fresh: src/ builds to the files on disk (${ms} ms)`;
  const parts = [
    ...(written.length > 0 ? [`rebuilt ${written.join(', ')}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : []),
  ];
  return `bundles were stale: ${parts.join('; ')} (${ms} ms)`;
}
