/**
 * Locations inside this checkout the e2e suite needs: the repository root
 * (which is the plugin root) and the CodeBuddy CLI shipped in the pinned
 * @tencent-ai/agent-sdk devDependency.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

/** The repository root = the plugin root (`.codebuddy-plugin/`, `hooks/`, `scripts/`, `servers/`). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

/** The agent-sdk's CLI directory (its package `exports` hide the files from require.resolve). */
export const CLI_DIR = join(REPO_ROOT, 'node_modules', '@tencent-ai', 'agent-sdk', 'cli');

/** `cli/bin/codebuddy`: the wrapper that routes `-p` runs to the headless bundle. */
export const CLI_BIN = join(CLI_DIR, 'bin', 'codebuddy');

/** `cli/dist/codebuddy-headless.js`: needed for `plugin …` subcommands (the wrapper fails there). */
export const CLI_HEADLESS_BUNDLE = join(CLI_DIR, 'dist', 'codebuddy-headless.js');

/**
 * Every file git tracks in this checkout, copied from the working tree into `target`: what a clone holds
 * (built bundles included), for scenarios that run a session in the plugin's own folder (D34).
 */
export function copyTrackedFiles(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0');
  for (const file of files.filter(Boolean)) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    try {
      copyFileSync(join(REPO_ROOT, file), join(target, file));
    } catch {
      // Deleted in the working tree and not yet committed: a clone of this tree would not have it either.
    }
  }
}
