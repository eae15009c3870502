// Bundles src/ into the committed, install-free plugin files.
//
// Hooks are fresh processes on every host event, so the hook entry's load
// cost is the product's latency. Three builds, because the products differ:
//
// 1. scripts/hook.cjs — ONE self-contained file holding only what every
//    event needs (stdin, parse, route, encode, deps, the HTTP/1.1 transport,
//    whose socket modules load on its first request). Each stage, the
//    doctor and the worker are loaded lazily (`require`) from scripts/lazy/.
//    A single code-split build would make the entry statically import every
//    small module it shares with a lazy chunk (measured: six extra files,
//    ~18% of the no-op path), so the entry is built apart and the lazy
//    modules are external to it.
//    CommonJS, because node starts its ESM loader for any ES entry, and that
//    was the floor of every node hook path (D38). scripts/hook.mjs is an ES
//    shim that imports it, so `node scripts/hook.mjs <command>` (a person's
//    command line, the docs') keeps working (HOOK_SHIM, below).
// 2. scripts/lazy/ — the lazy modules (`.cjs`), each one self-contained (no
//    shared chunks): an event then loads exactly its entry plus one lazy
//    file, instead of a tree of small chunks at ~2-3 ms each.
//    The cost is duplicated code across lazy files, which nobody loads twice.
// 3. scripts/statusline.mjs and servers/mcp-proxy.mjs — separate products
//    (ES modules: each starts once per status refresh or session).
// 4. hooks/register.mjs — the hooks module a host with Mods loads into its
//    worker (src/mod/, D30): one self-contained ES module, platform
//    neutral (the worker has no node: a `node:*` import, a package or a
//    dynamic import fails the build or the host's load), not minified (it
//    loads once per session; the host's source check and a reader both see
//    the names).
//    The proxy answers `initialize` itself; the MCP SDK (~40 ms to parse)
//    sits in a chunk loaded afterwards, because CodeBuddy waits for MCP
//    servers before the first model request.
//
// 5. THIRD_PARTY_NOTICES.md — what each bundle includes of others' code (from
//    esbuild's metafile) with every licence text; bundles that include any
//    carry a one-line pointer to it (writeThirdPartyNotices, below).
//
// Hook bundles take node builtins through process.getBuiltinModule, never
// through an ESM `import` (see builtinsWithoutFacades below).
//
// Test seams are compiled out of every shipped bundle: `OV_TEST_SEAMS` is
// defined false, so the code behind it (the worker's crash points,
// `OPENVIKING_TEST_CRASH_AT`) is dropped by the minifier. The fault tests
// build their own worker with it true, straight into a private copy of the
// plugin (`node build.mjs --test-seams-worker <dir>`, tests/faults/support/
// plugin.ts): nothing seamed is ever written under scripts/.
//
// Output is deterministic (content-hashed chunk names, no timestamps), so CI
// can prove that a rebuild leaves `git diff` empty.
//
// Every build is made in memory and only the files whose bytes differ are
// written, each atomically (temp + rename); bundles (.mjs, .cjs) under scripts/ and
// servers/ that no build made any more (an old chunk) are removed, never the
// repository's own files there (servers/mcp.json). So an unchanged
// tree rewrites nothing, and a test run elsewhere in the checkout never sees
// a bundle half-written. Every test run builds this way first
// (tests/support/build-before-test.ts, vitest's globalSetup; D37).
import * as esbuild from 'esbuild';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository: every path here is taken from it, whatever the caller's working directory. */
const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * The folders whose bundles a build makes: a bundle there (`.mjs`, `.cjs`,
 * or a build's `.tmp`) that no build made is stale and removed. Other files
 * are the repository's own (servers/mcp.json, which both manifests name: D34).
 */
const BUILT_DIRS = ['scripts', 'servers'];
const BUILT_FILE = /\.(mjs|cjs|tmp)$/;

/** Source module → its file under scripts/lazy/ (without extension). */
export const LAZY_MODULES = {
  'src/stages/start.ts': 'start',
  'src/stages/prompt.ts': 'prompt',
  'src/stages/capture.ts': 'capture',
  'src/doctor/main.ts': 'doctor',
  'src/capture/worker.ts': 'worker',
  // Pending-queue replay at session start: only when writes are waiting.
  'src/capture/replay.ts': 'replay',
  'src/capture/env.ts': 'capture-env',
  // The resident helper (DESIGN D16): started in the background, never on a hook's clock.
  'src/hook/resident.ts': 'resident',
  // The user's memory controls (why, recall-preview): shell and slash commands only.
  'src/controls/main.ts': 'controls',
  // Past sessions into OpenViking (DESIGN D35): the user's command only.
  'src/import/main.ts': 'import',
  // A person's command line (--help, doctor, why, …): never a hook's (issue 30).
  'src/hook/cli.ts': 'cli',
  // The HTTP transport and the transcript's last exchange: only a stage that runs in the hook loads them (D44).
  'src/openviking/socketHttp.ts': 'http',
  'src/transcript/lastExchange.ts': 'last-exchange',
};

/** Options every bundle shares; tests that bundle a single entry reuse them. */
export const COMMON_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};

/** Bundled CommonJS dependencies (the MCP SDK's) may call require(). */
const REQUIRE_SHIM = {
  js: "import { createRequire as __ovCreateRequire } from 'node:module';\nconst require = __ovCreateRequire(import.meta.url);",
};

/**
 * Licence notices of what the bundles include (issue 30): every package
 * esbuild puts into a bundle (read from its metafile) and the code ported
 * into src/ from elsewhere (PORTED_CODE), each with its licence text, in
 * NOTICES_FILE at the plugin root, generated here and committed with the
 * bundles. A bundle that includes any carries NOTICE_POINTER (its banner)
 * to that file; tests/build/notices.test.ts holds both to the metafile.
 */
export const NOTICES_FILE = 'THIRD_PARTY_NOTICES.md';
export const NOTICE_POINTER = `/*! openviking-codebuddy (Apache-2.0, LICENSE) bundles third-party code here: its licences are in ${NOTICES_FILE} at the plugin root. */`;

/** Code in src/ ported from elsewhere, by its source file: what it is and the file holding its licence. */
export const PORTED_CODE = {
  'src/mod/files/posixPath.ts': {
    name: 'Node.js lib/path.js (POSIX functions, ported)',
    license: 'MIT',
    url: 'https://github.com/nodejs/node/blob/main/lib/path.js',
    licenseFile: 'src/mod/files/posixPath.LICENSE',
  },
};

/**
 * What each output of a metafile includes of others' code: `{ output → [component] }`, a component
 * being a package (`name@version`, its licence and text from its own files) or ported code.
 */
export function thirdPartyByOutput(metafile, root = process.cwd()) {
  const byOutput = {};
  for (const [output, facts] of Object.entries(metafile.outputs)) {
    const components = new Map();
    for (const input of Object.keys(facts.inputs)) {
      const component = componentOf(input, root);
      if (component !== undefined) components.set(component.id, component);
    }
    if (components.size > 0)
      byOutput[relative(root, resolve(root, output))] = [...components.values()].sort((a, b) =>
        a.id.localeCompare(b.id),
      );
  }
  return byOutput;
}

function componentOf(input, root) {
  const ported = PORTED_CODE[input.replace(/^\.\//, '')];
  if (ported !== undefined)
    return { id: ported.name, ...ported, text: readFileSync(resolve(root, ported.licenseFile), 'utf8').trim() };
  const at = input.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const name = /^((?:@[^/]+\/)?[^/]+)/.exec(input.slice(at + 'node_modules/'.length))?.[1];
  if (name === undefined) return undefined;
  const dir = resolve(root, input.slice(0, at + 'node_modules/'.length) + name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenseName = readdirSync(dir).find((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file));
  if (licenseName === undefined)
    throw new Error(`${name} is bundled but ships no licence file: add its notice by hand`);
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  return {
    id: `${name}@${manifest.version}`,
    name: `${name} ${manifest.version}`,
    license: manifest.license ?? 'see its licence text',
    url: repositoryUrl(name, repository),
    text: readFileSync(join(dir, licenseName), 'utf8').trim(),
  };
}

/** A package's repository as a browsable address (`owner/repo` shorthand, `git+…`, `ssh://git@…` normalised). */
function repositoryUrl(name, repository) {
  if (repository === undefined) return `https://www.npmjs.com/package/${name}`;
  if (/^[\w.-]+\/[\w.-]+$/.test(repository)) return `https://github.com/${repository}`;
  return repository
    .replace(/^git\+/, '')
    .replace(/^ssh:\/\/git@/, 'https://')
    .replace(/\.git$/, '');
}

/** The notices file for the outputs of `metafiles`, written at the root (only when it changes). */
function writeThirdPartyNotices(metafiles, root = process.cwd()) {
  const byOutput = Object.assign({}, ...metafiles.map((metafile) => thirdPartyByOutput(metafile, root)));
  const outputs = Object.keys(byOutput).sort();
  const components = new Map(
    outputs.flatMap((output) => byOutput[output]).map((component) => [component.id, component]),
  );
  const lines = [
    '# Third-party notices',
    '',
    `Generated by build.mjs from esbuild's metafile; do not edit. openviking-codebuddy is under the Apache License 2.0`,
    '(LICENSE). The built files below include code of others, under the licences reproduced here.',
    '',
    '| Built file | Includes |',
    '|---|---|',
    ...outputs.map(
      (output) => `| \`${output}\` | ${byOutput[output].map((c) => `${c.name} (${c.license})`).join(', ')} |`,
    ),
    '',
  ];
  for (const component of [...components.values()].sort((a, b) => a.id.localeCompare(b.id)))
    lines.push(
      `## ${component.name} (${component.license})`,
      '',
      component.url,
      '',
      '```text',
      component.text,
      '```',
      '',
    );
  const path = resolve(root, NOTICES_FILE);
  const text = lines.join('\n');
  let current;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== text) writeFileSync(path, text);
}

/**
 * An ESM `import … from 'node:fs'` makes node build a facade module that
 * reads every export of fs, and reading `fs.ReadStream` loads the whole
 * stream stack (~20 internal modules, ~3 ms of a ~75 ms hook). So the hook
 * bundles take builtins from `process.getBuiltinModule(id)` and the source
 * keeps ordinary imports (tests run it unbundled):
 * - a static import becomes a small ES module that picks each export off
 *   the builtin, one pure expression per name, so esbuild keeps only the
 *   names the code uses (no facade, no interop helper copying ~100
 *   properties, measured ~1 ms per bundle);
 * - a dynamic `import('node:net')` (a builtin wanted only on some paths)
 *   becomes a CommonJS module esbuild loads when the import runs.
 * getBuiltinModule is node >= 20.16 / 22.3; on an older node the banner
 * defines it with `require` (CommonJS bundles) or createRequire (the ES
 * status line), whose import is only evaluated there.
 */
const BUILTIN_LOADER_BANNER = {
  js: 'process.getBuiltinModule ??= (await import("node:module")).createRequire(import.meta.url);',
};
const BUILTIN_LOADER_BANNER_CJS = { js: "'use strict';process.getBuiltinModule ??= require;" };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The static-import form: `export const name = <pure pick>` for every export of the builtin. */
function builtinPicks(id) {
  const names = Object.getOwnPropertyNames(process.getBuiltinModule(id)).filter(
    (name) => IDENTIFIER.test(name) && name !== 'default',
  );
  const picks = names.map((name) => `export const ${name} = /* @__PURE__ */ (() => builtin.${name})();`);
  return [
    `const builtin = /* @__PURE__ */ process.getBuiltinModule(${JSON.stringify(id)});`,
    'export default builtin;',
    ...picks,
  ].join('\n');
}

const builtinsWithoutFacades = {
  name: 'builtins-without-facades',
  setup(b) {
    // sideEffects: false lets esbuild drop a builtin none of whose picks is used (a static import of
    // node:crypto in a module the stage does not need must not load crypto, ~7 ms; DESIGN D13).
    b.onResolve({ filter: /^node:/ }, (args) => ({
      path: args.path,
      namespace: args.kind === 'import-statement' ? 'node-builtin' : 'node-builtin-lazy',
      sideEffects: false,
    }));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: builtinPicks(args.path),
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin-lazy' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * What every hook-side bundle (entry, lazy files, status line) is built
 * with. Minified, because node compiles every byte of an ES module before
 * running it: compiling the entry and the prompt stage was ~7 ms of the
 * prompt hook, and minifying cut the hook's wall time by ~4.5 ms (−0.06x
 * of a bare node start). Readable code lives in src/; the error classes set
 * their `name` explicitly, so nothing depends on the names minifying drops.
 * `OV_BUILD_READABLE=1 node build.mjs` builds them unminified for profiling
 * (never to commit: the freshness gate compares against the minified build).
 */
const HOOK_BUNDLE_OPTIONS = {
  ...COMMON_OPTIONS,
  banner: BUILTIN_LOADER_BANNER,
  minify: process.env.OV_BUILD_READABLE !== '1',
  define: { OV_TEST_SEAMS: 'false' },
};

/**
 * The hook entry and its lazy files: CommonJS (`.cjs`, the package is
 * `"type": "module"`), so no hook process starts node's ESM loader (D38).
 * A lazy file's `import()` becomes a `require` (`dynamic-import` not
 * supported), which loads it through the same CommonJS loader.
 */
const COMMONJS_HOOK_OPTIONS = {
  ...HOOK_BUNDLE_OPTIONS,
  format: 'cjs',
  banner: BUILTIN_LOADER_BANNER_CJS,
  supported: { 'dynamic-import': false },
  outExtension: { '.js': '.cjs' },
};

/**
 * `node scripts/hook.mjs <command>`: the documented command line, an ES
 * module that runs the CommonJS entry. Hooks never go through it.
 */
const HOOK_SHIM = {
  path: 'scripts/hook.mjs',
  text: "// The hook entry is scripts/hook.cjs (D38): this keeps `node scripts/hook.mjs <command>` working.\nimport './hook.cjs';\n",
};

/**
 * Turns a dynamic `import()` of a lazy module into a load of its built
 * file (`<prefix><name>.cjs`) instead of bundling it: the hook entry loads
 * `./lazy/<name>.cjs`, and lazy files load each other as `./<name>.cjs`
 * (the Stop stage loads the worker only when it runs a capture itself).
 */
function lazyExternals(prefix) {
  return {
    name: 'lazy-externals',
    setup(b) {
      const byPath = new Map(Object.entries(LAZY_MODULES).map(([src, out]) => [resolve(ROOT, src), out]));
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
        const out = byPath.get(target);
        return out === undefined ? undefined : { path: `${prefix}${out}.cjs`, external: true };
      });
    },
  };
}

/** Every bundle `buildAll` makes, in order; tests build them in memory (tests/build/notices.test.ts). */
export function bundleBuilds() {
  const hookBundle = (extra) => ({ ...COMMONJS_HOOK_OPTIONS, metafile: true, ...extra });
  return [
    hookBundle({
      entryPoints: { hook: 'src/hook/main.ts' },
      outdir: 'scripts',
      plugins: [lazyExternals('./lazy/'), builtinsWithoutFacades],
    }),
    hookBundle({
      entryPoints: Object.fromEntries(Object.entries(LAZY_MODULES).map(([src, out]) => [out, src])),
      outdir: 'scripts/lazy',
      plugins: [lazyExternals('./'), builtinsWithoutFacades],
    }),
    {
      ...HOOK_BUNDLE_OPTIONS,
      metafile: true,
      outExtension: { '.js': '.mjs' },
      entryPoints: { statusline: 'src/statusline/main.ts' },
      outdir: 'scripts',
      plugins: [builtinsWithoutFacades],
    },
    MCP_BUILD_OPTIONS,
    MODULE_BUILD_OPTIONS,
  ];
}

/** Every bundle, built in memory: the files the builds make, not yet written, and their metafiles. */
async function bundleAll() {
  const outputs = [];
  const metafiles = [];
  for (const options of bundleBuilds()) {
    const result = await buildInMemory(options);
    outputs.push(...result.outputFiles);
    metafiles.push(result.metafile);
  }
  outputs.push({ path: resolve(ROOT, HOOK_SHIM.path), contents: Buffer.from(HOOK_SHIM.text) });
  return { outputs, metafiles };
}

/**
 * Builds every bundle and writes what changed (see the header): the paths
 * written and removed, relative to the repository; both empty when the
 * committed bundles were already what src/ makes. Throws when a build fails,
 * having written nothing.
 */
async function buildAll() {
  const { outputs, metafiles } = await bundleAll();
  const written = await writeChanged(outputs);
  const removed = await removeStale(new Set(outputs.map((file) => file.path)));
  writeThirdPartyNotices(metafiles, ROOT);
  return { written: written.map((path) => relative(ROOT, path)), removed: removed.map((path) => relative(ROOT, path)) };
}

/** esbuild's build of `options` in memory, paths taken from the repository. */
function buildInMemory(options) {
  return esbuild.build({ absWorkingDir: ROOT, ...options, write: false });
}

/**
 * Writes each output whose bytes differ from the file's, atomically; the
 * deepest first (lazy files and chunks before the entries that load them).
 */
async function writeChanged(outputs) {
  const changed = [];
  for (const file of outputs) {
    const before = await readFile(file.path).catch(() => undefined);
    if (before === undefined || Buffer.compare(before, file.contents) !== 0) changed.push(file);
  }
  changed.sort((a, b) => b.path.split('/').length - a.path.split('/').length || a.path.localeCompare(b.path));
  for (const file of changed) await writeAtomically(file.path, file.contents);
  return changed.map((file) => file.path);
}

async function writeAtomically(path, contents) {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(temp, contents);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** A temp file younger than this may be another build's, about to be renamed: left alone. */
const TEMP_GRACE_MS = 60_000;

/** Removes the files under BUILT_DIRS that are not in `made`, and the folders that leaves empty. */
async function removeStale(made) {
  const removed = [];
  const inFlight = async (path) => path.endsWith('.tmp') && Date.now() - (await stat(path)).mtimeMs < TEMP_GRACE_MS;
  const sweep = async (dir) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await sweep(path);
        await rmdir(path).catch(() => undefined); // only when empty
      } else if (BUILT_FILE.test(entry.name) && !made.has(path) && !(await inFlight(path).catch(() => true))) {
        await rm(path, { force: true });
        removed.push(path);
      }
    }
  };
  for (const dir of BUILT_DIRS) await sweep(join(ROOT, dir));
  return removed;
}

/** The MCP proxy: the only bundle with packages in it (the MCP SDK, zod, ajv), so it carries the notice pointer. */
export const MCP_BUILD_OPTIONS = {
  ...COMMON_OPTIONS,
  metafile: true,
  banner: { js: `${NOTICE_POINTER}\n${REQUIRE_SHIM.js}` },
  entryPoints: { 'mcp-proxy': 'src/mcp/main.ts' },
  outdir: 'servers',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
};

/**
 * The hooks module shares the rules of the hook processes (config, project,
 * recall, start, the why and status records), whose leaf I/O is node's. In
 * hooks/register.mjs only, that leaf is the module's own (src/mod/files/,
 * D30): `node:path` is a POSIX port of node's, and the store's three file
 * leaves are answered from the module's `$.fs` snapshot. Both sides of each
 * leaf implement the file seam (src/store/fileSeam.ts, which the compiler
 * holds them to; tests/store/file-seam.test.ts runs its contract on both,
 * D37). Every other node
 * builtin is left out as long as nothing the module runs uses it
 * (`sideEffects: false`); one still imported fails the build here, not the
 * host's load (FC8).
 */
const MODULE_LEAVES = {
  'src/store/smallFile.ts': 'src/mod/files/smallFile.ts',
  'src/store/fsUtil.ts': 'src/mod/files/fsUtil.ts',
  'src/store/atomic.ts': 'src/mod/files/atomic.ts',
};

const moduleFiles = {
  name: 'module-files',
  setup(b) {
    const root = b.initialOptions.absWorkingDir ?? process.cwd();
    const leaves = new Map(Object.entries(MODULE_LEAVES).map(([from, to]) => [resolve(root, from), resolve(root, to)]));
    b.onResolve({ filter: /^node:path$/ }, () => ({ path: resolve(root, 'src/mod/files/posixPath.ts') }));
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true, sideEffects: false }));
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const twin = leaves.get(resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      // The twins themselves name the leaves they stand for (types and the shared JSON reader): those stay.
      return twin === undefined || args.importer === twin ? undefined : { path: twin };
    });
    b.onEnd((result) => {
      const imports = Object.values(result.metafile?.outputs ?? {}).flatMap((output) =>
        output.imports.map((entry) => entry.path),
      );
      if (imports.length > 0)
        return {
          errors: [
            { text: `the hooks module still imports ${imports.join(', ')}: nothing it runs may use node (FC8)` },
          ],
        };
      return undefined;
    });
  },
};

/** The hooks module: neutral platform, so anything that would need node fails here instead of in the host. */
export const MODULE_BUILD_OPTIONS = {
  metafile: true,
  plugins: [moduleFiles],
  bundle: true,
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: `// The hooks module (Claude Code's, named by .claude-plugin/module-hooks.json): built by build.mjs from src/mod/register.ts; do not edit.\n${NOTICE_POINTER}`,
  },
  entryPoints: { register: 'src/mod/register.ts' },
  outdir: 'hooks',
  outExtension: { '.js': '.mjs' },
};

/**
 * The capture worker with its test seams on (the crash points of
 * src/capture/worker.ts), as `<lazyDir>/worker.cjs`: for a private copy of
 * the built plugin in the fault tests, never for scripts/.
 */
async function buildWorkerWithTestSeams(lazyDir) {
  if (resolve(lazyDir) === resolve(ROOT, 'scripts/lazy'))
    throw new Error('the seamed worker never goes into scripts/lazy');
  const { outputFiles } = await buildInMemory({
    ...COMMONJS_HOOK_OPTIONS,
    define: { OV_TEST_SEAMS: 'true' },
    entryPoints: { worker: 'src/capture/worker.ts' },
    outdir: resolve(lazyDir),
    plugins: [lazyExternals('./'), builtinsWithoutFacades],
  });
  await writeChanged(outputFiles);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seamed = process.argv.indexOf('--test-seams-worker');
  if (seamed === -1) await buildAll();
  else await buildWorkerWithTestSeams(process.argv[seamed + 1] ?? '');
}
export { buildAll, REQUIRE_SHIM };
