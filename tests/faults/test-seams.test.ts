/**
 * Test-only switches stay out of what users run. On 8e37669 the shipped
 * worker bundle honoured `OPENVIKING_TEST_CRASH_AT`, which SIGKILLs the
 * capture worker mid-send when set. Now every shipped bundle is built with
 * `OV_TEST_SEAMS` false (build.mjs), and only the fault tests' private copy
 * gets a worker with the seam (support/plugin.ts `testSeams`), which the
 * crash tests (worker-kill, kill-mid-request, capture/exactly-once) use.
 * `OV_BUILT_PLUGIN_DIR` checks another build's bundles.
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { copyBuiltPlugin, type PrivatePlugin } from './support/plugin.js';

const BUILT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;

function bundles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? bundles(path) : /\.[cm]js$/.test(entry.name) ? [path] : [];
  });
}

let seamed: PrivatePlugin;
beforeAll(async () => {
  seamed = await copyBuiltPlugin(REPO_ROOT, { testSeams: true });
}, 60_000);
afterAll(async () => seamed?.dispose());

describe('test seams', () => {
  it('no shipped bundle (scripts/, servers/) reads a test-only variable', () => {
    const offenders = [...bundles(join(BUILT, 'scripts')), ...bundles(join(BUILT, 'servers'))].filter((file) =>
      readFileSync(file, 'utf8').includes('OPENVIKING_TEST_'),
    );
    expect(offenders).toEqual([]);
  });

  it("the fault tests' private copy has a worker with the crash seam", () => {
    expect(readFileSync(join(seamed.root, 'scripts', 'lazy', 'worker.cjs'), 'utf8')).toContain(
      'OPENVIKING_TEST_CRASH_AT',
    );
  });
});
