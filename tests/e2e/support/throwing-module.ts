/**
 * A test-only copy of the shipped plugin whose hooks module throws in one
 * handler: the module is built from the same src/mod/register.ts with the
 * same options as hooks/register.mjs (build.mjs MODULE_BUILD_OPTIONS), except
 * that the guard's `tool.call` hook is wrapped by one that throws for the
 * `Read` tool before calling the real one. The host refuses a module that
 * re-registers another's hooks through a forwarded `on` (it reads the source
 * first), so the wrapping happens when the copy's module is bundled; the
 * shipped bundle carries no switch for it.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { copyShippedPlugin } from './marketplace.js';
import { REPO_ROOT } from './repo.js';

/** What the wrapped guard throws: the host logs it, the tests look for it. */
export const MODULE_THROW_MARK = 'E2E-MODULE-THROW';

const GUARD_SOURCE = resolve(REPO_ROOT, 'src', 'mod', 'guard.ts');

const wrapGuard: Plugin = {
  name: 'wrap-guard',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\]mod[/\\]guard\.ts$/ }, (args) => {
      if (resolve(args.path) !== GUARD_SOURCE) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const renamed = source.replace('export async function guardToolCall(', 'async function shippedGuardToolCall(');
      if (renamed === source) throw new Error('guardToolCall not found in src/mod/guard.ts');
      const wrapper = `\nexport async function guardToolCall($: Engine, e: ToolCallInput, next: Next<ToolCallInput, ToolCallResult>): Promise<ToolCallResult> {\n  if (e.tool === 'Read') throw new Error('${MODULE_THROW_MARK} in the guard');\n  return shippedGuardToolCall($, e, next);\n}\n`;
      return { contents: renamed + wrapper, loader: 'ts', resolveDir: join(REPO_ROOT, 'src', 'mod') };
    });
  },
};

/** Copies the shipped plugin to `target` and replaces its module with the throwing build. */
export async function writeThrowingPluginCopy(target: string): Promise<void> {
  copyShippedPlugin(REPO_ROOT, target);
  const { MODULE_BUILD_OPTIONS } = (await import(pathToFileURL(join(REPO_ROOT, 'build.mjs')).href)) as { MODULE_BUILD_OPTIONS: BuildOptions };
  await build({ ...MODULE_BUILD_OPTIONS, absWorkingDir: REPO_ROOT, outdir: join(target, 'hooks'), plugins: [wrapGuard] });
}
