/**
 * A private copy of the BUILT plugin (scripts/, servers/, hooks/ as
 * `npm run build` left them; `npm test` builds before it runs the suites)
 * for the proof suites and the benchmarks.
 *
 * Why a copy: other work may rebuild scripts/ at any moment, and a detached
 * worker must be attributable to ONE plugin root (the fault suite and the
 * benchmarks find, wait for, or kill workers by their command line, never
 * by a broad name).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT } from '../../support/spawn-hook.js';

export interface PrivatePlugin {
  /** Plugin root: scripts/hook.mjs (+ its lazy files), servers/mcp-proxy.mjs, hooks/. */
  root: string;
  dispose(): Promise<void>;
}

const PRODUCT_DIRS = ['scripts', 'servers', 'hooks'] as const;

export interface CopyOptions {
  /**
   * Replace the copy's capture worker with one built from src/ with the
   * test seams on (`OPENVIKING_TEST_CRASH_AT` kills it at a named point):
   * shipped bundles have none (build.mjs `OV_TEST_SEAMS`).
   */
  testSeams?: boolean;
}

/**
 * Copies the built plugin of `from` into a new temp directory. The default
 * is the repository, or `OV_BUILT_PLUGIN_DIR` when set (to run the suites
 * against a build made elsewhere, e.g. while scripts/ is being rebuilt).
 */
export async function copyBuiltPlugin(
  from: string = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT,
  options: CopyOptions = {},
): Promise<PrivatePlugin> {
  const root = await mkdtemp(join(tmpdir(), 'ov-plugin-'));
  for (const dir of PRODUCT_DIRS) await cp(join(from, dir), join(root, dir), { recursive: true });
  if (options.testSeams === true)
    execFileSync(process.execPath, ['build.mjs', '--test-seams-worker', join(root, 'scripts', 'lazy')], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
      timeout: 60_000,
    });
  return { root, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** A private copy made before the file's tests and removed after them; `root` is valid inside a test. */
export function usePrivatePlugin(options: CopyOptions = {}): { readonly root: string } {
  let plugin: PrivatePlugin | undefined;
  beforeAll(async () => {
    plugin = await copyBuiltPlugin(undefined, options);
  });
  afterAll(async () => {
    await plugin?.dispose();
  });
  return {
    get root(): string {
      if (plugin === undefined) throw new Error('the private plugin copy is made in beforeAll');
      return plugin.root;
    },
  };
}
