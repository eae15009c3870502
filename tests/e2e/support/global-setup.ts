/**
 * Builds the plugin once before the e2e files run (`node build.mjs`: the
 * scenarios load the built `scripts/hook.cjs` and `servers/mcp-proxy.mjs`
 * through the real CLI). A failed build does not abort the suite — the
 * harness self-test needs no build — it is handed to the scenarios, which
 * fail with the build output as their message. OV_E2E_SKIP_BUILD=1 skips it.
 * It also checks that each pinned Claude Code CLI runs as its version
 * (`claude --version`); when one cannot, every Claude Code scenario of that
 * version fails with the reason — never a silent skip.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { CLAUDE_CODE_VERSIONS, claudeBinaryProblem, type ClaudeCodeVersion } from './claude-cli.js';
import { REPO_ROOT } from './repo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Empty when the plugin was built (or the build was skipped); else the build's output. */
    pluginBuildError: string;
    /** Per pinned Claude Code version: empty when its binary runs as that version; else why not. */
    claudeCliErrors: Record<ClaudeCodeVersion, string>;
  }
}

export default function setup(project: TestProject): void {
  const versionOf = (bin: string) => spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  project.provide(
    'claudeCliErrors',
    Object.fromEntries(
      CLAUDE_CODE_VERSIONS.map((version) => [version, claudeBinaryProblem(version, versionOf)]),
    ) as Record<ClaudeCodeVersion, string>,
  );
  if (process.env.OV_E2E_SKIP_BUILD === '1') {
    project.provide('pluginBuildError', '');
    return;
  }
  const build = spawnSync(process.execPath, ['build.mjs'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  const failed = build.status !== 0;
  project.provide(
    'pluginBuildError',
    failed ? `node build.mjs failed (status ${build.status}):\n${build.stdout}\n${build.stderr}` : '',
  );
}
