/**
 * The files whose content can turn memory off or move it elsewhere: the
 * configuration's files (config/configFiles.ts, their one owner: ovcli.conf
 * and ov.conf wherever the variables put them) and the workspace files (`.openviking/config.json`,
 * `config.local.json`, at every level a walk looked for them). The module
 * looks at these again before every decision (files/fetch.ts `decide`);
 * the other files the rules read (a repository's `.git`, the caches, real
 * paths) after each answer (D30).
 *
 * @module
 */
import { configurationFiles } from '../../config/configFiles.js';
import { WORKSPACE_DIR, WORKSPACE_FILES } from '../../project/workspaceRoot.js';
import type { SessionEnv } from '../env/sessionEnv.js';
import { basename, dirname } from './posixPath.js';

export function switchFiles(view: SessionEnv): (path: string) => boolean {
  const configuration = new Set(configurationFiles(view.env, view.homeDir));
  const workspaceFiles = new Set<string>(WORKSPACE_FILES);
  return (path) =>
    configuration.has(path) || (workspaceFiles.has(basename(path)) && basename(dirname(path)) === WORKSPACE_DIR);
}
