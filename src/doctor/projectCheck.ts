/**
 * Doctor check `project` (DESIGN D24): which project the current directory
 * is, as the hooks will see it: the peer id and where it came from, the ids
 * its memories had before (and whether recall asks for them), the workspace
 * root and its `.openviking/` files, what they switch off or change, and
 * what in them was ignored and why. No network.
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import { projectFor } from '../project/identity.js';
import { workspaceGitignoreProblem } from './gitignoreCheck.js';
import type { Check } from './types.js';

export function checkProject(config: PluginConfig, workspace: string, homeDir: string, now: number): Check {
  const { project, settings, ignored } = projectFor(config, workspace, homeDir, now, 'always');
  const actor = settings.recallPeerScope.trim().toLowerCase() === 'actor';
  const files = project.config?.files ?? [];
  const changed = project.config === undefined ? [] : changedSettings(config, settings);
  const gitignore =
    project.root === undefined || files.length === 0 ? undefined : workspaceGitignoreProblem(project.root);
  const lines = [
    `workspace: ${workspace}${project.root !== undefined && project.root !== workspace ? ` (root ${project.root})` : ''}`,
    `peer: ${project.peerId ?? '(none)'}  (${project.peerSource})`,
    ...(project.earlierPeerIds.length > 0
      ? [
          `earlier ids of this project: ${project.earlierPeerIds.join(', ')} (${actor ? 'recall asks for them too (peer_scope actor)' : "recall's peer_scope all reaches them; the block keeps them as this project's"})`,
        ]
      : []),
    ...files.map((file) => `workspace file: ${file}`),
    ...Object.values(project.off).map((reason) => `off here: ${reason}`),
    ...changed,
    ...(project.config?.notes ?? []),
    ...ignored,
    ...project.warnings,
    ...(gitignore ? [gitignore] : []),
  ];
  const data = {
    ...(project.peerId ? { peerId: project.peerId } : {}),
    earlierPeerIds: project.earlierPeerIds,
    off: Object.keys(project.off),
    files,
  };
  if (project.warnings.length > 0 || gitignore !== undefined) {
    return {
      id: 'project',
      title: 'Project',
      status: 'warn',
      lines,
      fix: 'Fix the value named above in its file (a peer id matches ^[a-zA-Z0-9_.@-]+$; switches are true or false; numbers within their bounds; no server, key or account in a workspace file).',
      data,
    };
  }
  return { id: 'project', title: 'Project', status: 'info', lines, data };
}

/** `recallLimit: 10 → 5 (workspace)` for each number or scope the workspace files changed. */
function changedSettings(config: PluginConfig, settings: PluginConfig['settings']): string[] {
  const keys = ['recallLimit', 'scoreThreshold', 'recallPeerScope', 'recallDedupTurns'] as const;
  return keys
    .filter((key) => settings[key] !== config.settings[key])
    .map((key) => `set here: ${key} ${String(config.settings[key])} → ${String(settings[key])}`);
}
