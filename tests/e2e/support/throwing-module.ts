/**
 * A test-only copy of the shipped plugin whose hooks module throws: the
 * module is built from the same src/mod/register.ts with the same options
 * as hooks/register.mjs (build.mjs MODULE_BUILD_OPTIONS, its plugins
 * included), except that three hooks are wrapped by ones that throw before
 * calling the real ones: the guard's `tool.call` for the `Read` tool, the
 * prompt's recall (`classic.UserPromptSubmit`) and the start block
 * (`classic.SessionStart`). The host refuses a module that re-registers
 * another's hooks through a forwarded `on` (it reads the source first), so
 * the wrapping happens when the copy's module is bundled; the shipped bundle
 * carries no switch for it.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { copyShippedPlugin } from './marketplace.js';
import { REPO_ROOT } from './repo.js';

/** What the wrapped hooks throw: the host logs it, the tests look for it. */
export const MODULE_THROW_MARK = 'E2E-MODULE-THROW';

/** Each wrapped hook: its source, its exported name, and when it throws (a condition on `e`). */
const WRAPPED = [
  { file: 'guard.ts', name: 'guardToolCall', when: "e.tool === 'Read'" },
  { file: 'prompt.ts', name: 'onPrompt', when: 'true' },
  { file: 'start.ts', name: 'onSessionStart', when: 'true' },
];

const wrapHooks: Plugin = {
  name: 'wrap-hooks',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\]mod[/\\][a-z]+\.ts$/ }, (args) => {
      const wrapped = WRAPPED.find((one) => resolve(args.path) === resolve(REPO_ROOT, 'src', 'mod', one.file));
      if (wrapped === undefined) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const renamed = source.replace(
        `export async function ${wrapped.name}(`,
        `async function shipped_${wrapped.name}(`,
      );
      if (renamed === source) throw new Error(`${wrapped.name} not found in src/mod/${wrapped.file}`);
      const wrapper = `\nexport async function ${wrapped.name}($: Engine, e: any, next: any): Promise<any> {\n  if (${wrapped.when}) throw new Error('${MODULE_THROW_MARK} in ${wrapped.name}');\n  return shipped_${wrapped.name}($, e, next);\n}\n`;
      return { contents: renamed + wrapper, loader: 'ts', resolveDir: join(REPO_ROOT, 'src', 'mod') };
    });
  },
};

/** Copies the shipped plugin to `target` and replaces its module with the throwing build. */
export async function writeThrowingPluginCopy(target: string): Promise<void> {
  copyShippedPlugin(REPO_ROOT, target);
  const { MODULE_BUILD_OPTIONS } = (await import(pathToFileURL(join(REPO_ROOT, 'build.mjs')).href)) as {
    MODULE_BUILD_OPTIONS: BuildOptions;
  };
  await build({
    ...MODULE_BUILD_OPTIONS,
    absWorkingDir: REPO_ROOT,
    outdir: join(target, 'hooks'),
    plugins: [...(MODULE_BUILD_OPTIONS.plugins ?? []), wrapHooks],
  });
}
