/**
 * Test-only copies of the shipped plugin whose hooks module misbehaves: the
 * module is built from the same src/mod/register.ts with the same options
 * as hooks/register.mjs (build.mjs MODULE_BUILD_OPTIONS, its plugins
 * included), except that some hooks are wrapped by ones that misbehave
 * before calling the real ones.
 * - Throwing (`writeThrowingPluginCopy`): the guard's `tool.call` for the
 *   `Read` tool, the prompt's recall (`classic.UserPromptSubmit`) and the
 *   start block (`classic.SessionStart`) throw.
 * - Wedging (`writeWedgingPluginCopy`): the guard's `tool.call` for a Read
 *   of a file named `wedge.txt` sets `OPENVIKING_MODULE_GUARD` to the host's
 *   `CLAUDE_PID` (the flag the guard's hand-off set before D31) and then
 *   spins: the host finds its worker wedged and unloads the module for the
 *   rest of the session, the variable still set (FC13).
 * The host refuses a module that re-registers another's hooks through a
 * forwarded `on` (it reads the source first), so the wrapping happens when
 * the copy's module is bundled; the shipped bundle carries no switch for it.
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
/** What the wedging guard logs (to the debug log) once the flag is set, just before it spins. */
export const MODULE_WEDGE_MARK = 'E2E-MODULE-WEDGE';

/** A wrapped hook: its source, its exported name, and what runs first (TypeScript with `$` and `e` in scope). */
interface Wrapped {
  file: string;
  name: string;
  before: string;
}

const THROWING: Wrapped[] = [
  { file: 'guard.ts', name: 'guardToolCall', when: "e.tool === 'Read'" },
  { file: 'prompt.ts', name: 'onPrompt', when: 'true' },
  { file: 'start.ts', name: 'onSessionStart', when: 'true' },
].map(({ file, name, when }) => ({
  file,
  name,
  before: `if (${when}) throw new Error('${MODULE_THROW_MARK} in ${name}');`,
}));

const WEDGING: Wrapped[] = [
  {
    file: 'guard.ts',
    name: 'guardToolCall',
    before: [
      "if (String(e.file_path ?? '').endsWith('/wedge.txt')) {",
      '  const pid = (await $.process.hookEnv()).CLAUDE_PID;',
      "  await $.env.set('OPENVIKING_MODULE_GUARD', pid);",
      `  $.ui.log('${MODULE_WEDGE_MARK}: OPENVIKING_MODULE_GUARD=' + pid, { to: 'debug' });`,
      '  for (;;) {}',
      '}',
    ].join('\n'),
  },
];

function wrapHooks(wrappedHooks: readonly Wrapped[]): Plugin {
  return {
    name: 'wrap-hooks',
    setup(b) {
      b.onLoad({ filter: /[/\\]src[/\\]mod[/\\][a-z]+\.ts$/ }, (args) => {
        const wrapped = wrappedHooks.find((one) => resolve(args.path) === resolve(REPO_ROOT, 'src', 'mod', one.file));
        if (wrapped === undefined) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const renamed = source.replace(
          `export async function ${wrapped.name}(`,
          `async function shipped_${wrapped.name}(`,
        );
        if (renamed === source) throw new Error(`${wrapped.name} not found in src/mod/${wrapped.file}`);
        const wrapper = `\nexport async function ${wrapped.name}($: Engine, e: any, next: any): Promise<any> {\n${wrapped.before}\n  return shipped_${wrapped.name}($, e, next);\n}\n`;
        return { contents: renamed + wrapper, loader: 'ts', resolveDir: join(REPO_ROOT, 'src', 'mod') };
      });
    },
  };
}

/** Copies the shipped plugin to `target` and replaces its module with a build whose `wrapped` hooks misbehave. */
async function writeWrappedPluginCopy(target: string, wrapped: readonly Wrapped[]): Promise<void> {
  copyShippedPlugin(REPO_ROOT, target);
  const { MODULE_BUILD_OPTIONS } = (await import(pathToFileURL(join(REPO_ROOT, 'build.mjs')).href)) as {
    MODULE_BUILD_OPTIONS: BuildOptions;
  };
  await build({
    ...MODULE_BUILD_OPTIONS,
    absWorkingDir: REPO_ROOT,
    outdir: join(target, 'hooks'),
    plugins: [...(MODULE_BUILD_OPTIONS.plugins ?? []), wrapHooks(wrapped)],
  });
}

/** The copy whose start, recall and guard (for Read) throw. */
export function writeThrowingPluginCopy(target: string): Promise<void> {
  return writeWrappedPluginCopy(target, THROWING);
}

/** The copy whose guard, on a Read of `…/wedge.txt`, sets the old guard flag and wedges the host's worker. */
export function writeWedgingPluginCopy(target: string): Promise<void> {
  return writeWrappedPluginCopy(target, WEDGING);
}
