/**
 * The files whose content can turn memory off or move it elsewhere: the
 * configuration files (ovcli.conf, ov.conf, wherever the variables put them)
 * and the workspace files (`.openviking/config.json`,
 * `config.local.json`, at every level a walk looked for them). The module
 * looks at these again before every decision (files/fetch.ts `decide`);
 * the other files the rules read (a repository's `.git`, the caches, real
 * paths) after each answer (D30).
 *
 * @module
 */
import { credentialFilePaths } from '../../config/credentials.js';
import { WORKSPACE_DIR, WORKSPACE_FILES } from '../../project/workspaceRoot.js';
import type { SessionEnv } from '../env/sessionEnv.js';
import { basename, dirname } from './posixPath.js';

export function switchFiles(view: SessionEnv): (path: string) => boolean {
  const { cli, ov } = credentialFilePaths(view.env, view.homeDir);
  const workspaceFiles = new Set<string>(WORKSPACE_FILES);
  return (path) =>
    path === cli || path === ov || (workspaceFiles.has(basename(path)) && basename(dirname(path)) === WORKSPACE_DIR);
}
