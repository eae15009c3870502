/**
 * Doctor's check of a workspace's ignore rules (as OpenViking's own
 * doctor does): a blanket `.openviking` rule in `.gitignore` (or
 * `.git/info/exclude`) keeps the team's `.openviking/config.json` from ever
 * being committed. Only the exact blanket spellings are caught
 * (`.openviking`, `/.openviking`, `**\/.openviking`, with or without a
 * trailing `/`); nested `.gitignore` files and global excludes are not read.
 *
 * @module
 */
import { join } from 'node:path';
import { readSmallFile } from '../store/smallFile.js';

const BLANKET = new Set(['.openviking', '/.openviking', '**/.openviking']);

/** The problem line, or undefined when no ignore file of `root` hides all of `.openviking/`. */
export function workspaceGitignoreProblem(root: string): string | undefined {
  for (const file of [join(root, '.gitignore'), join(root, '.git', 'info', 'exclude')]) {
    const text = readSmallFile(file, 256 * 1024).text;
    if (text === undefined) continue;
    if (text.split('\n').some((line) => BLANKET.has(line.trim().replace(/\/$/, '')))) {
      return `${file} ignores all of .openviking/: config.json is meant to be committed (the team's settings); ignore .openviking/config.local.json only`;
    }
  }
  return undefined;
}
