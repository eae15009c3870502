/**
 * The files whose content can turn memory off or move it elsewhere: the
 * configuration's files (config/configFiles.ts, their one owner: ovcli.conf
 * and ov.conf wherever the variables put them), the workspace files
 * (`.openviking/config.json`, `config.local.json`, at every level a walk
 * looked for them) and the user's approvals of the peer those name
 * (`trust.json`, D32). The module
 * looks at these again before every decision (files/fetch.ts `decide`);
 * the other files the rules read (a repository's `.git`, the caches, real
 * paths) after each answer (D30).
 *
 * @module
 */
import { configurationFiles } from '../../config/configFiles.js';
import { trustFile } from '../../project/trust.js';
import { WORKSPACE_DIR, WORKSPACE_FILES } from '../../project/workspaceRoot.js';
import { resolveDataDir } from '../../store/paths.js';
import type { SessionEnv } from '../env/sessionEnv.js';
import { basename, dirname } from './posixPath.js';

export function switchFiles(view: SessionEnv): (path: string) => boolean {
  const configuration = new Set(configurationFiles(view.env, view.homeDir));
  const approvals = trustFile(resolveDataDir(view.env, view.homeDir));
  const workspaceFiles = new Set<string>(WORKSPACE_FILES);
  return (path) =>
    configuration.has(path) ||
    path === approvals ||
    (workspaceFiles.has(basename(path)) && basename(dirname(path)) === WORKSPACE_DIR);
}
