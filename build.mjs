// Bundles src/ into the committed, install-free plugin files.
//
// Two builds, because the two products have opposite needs:
// - scripts/: the hook dispatcher runs as a fresh process on every host event,
//   so its entry must stay tiny. Stages live in lazily imported chunks
//   (esbuild `splitting`) and only the stage an event needs is ever parsed.
// - servers/mcp-proxy.mjs: one long-lived process per CLI run, but CodeBuddy
//   waits for it before the first model request. It answers `initialize`
//   itself; the MCP SDK (~40 ms to parse) sits in a chunk loaded afterwards.
// Output is deterministic (no timestamps, content-hashed chunk names), so CI
// can prove that a rebuild leaves `git diff` empty.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  // Bundled CommonJS dependencies (the MCP SDK's) may call require().
  banner: { js: "import { createRequire as __ovCreateRequire } from 'node:module';\nconst require = __ovCreateRequire(import.meta.url);" },
};

await rm('scripts/chunks', { recursive: true, force: true });

await build({
  ...common,
  entryPoints: {
    hook: 'src/hook/main.ts',
    statusline: 'src/statusline/main.ts',
  },
  outdir: 'scripts',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // The hook entry never uses require(); keep its banner-free first bytes cheap.
  banner: {},
});

await rm('servers/chunks', { recursive: true, force: true });

await build({
  ...common,
  entryPoints: { 'mcp-proxy': 'src/mcp/main.ts' },
  outdir: 'servers',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
