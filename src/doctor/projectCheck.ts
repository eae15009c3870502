/**
 * Doctor check `project` (DESIGN D24): which project the current directory
 * is, as the hooks will see it: the peer id and where it came from, the
 * workspace `.openviking/config.json` and the switches it turns off, and
 * any problem with either. No network.
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import { projectFor } from '../project/identity.js';
import type { Check } from './types.js';

const PROJECT_FIX =
  'Fix the value named above (a peer id matches ^[a-zA-Z0-9_.@-]+$; switches are true or false). A file "ignored" above is not a regular file ' +
  '(a symlink to a device or a FIFO, which a cloned repository can carry) or is too large: the plugin reads it as absent; replace it with a small regular file or remove it.';

export function checkProject(config: PluginConfig, workspace: string, homeDir: string, now: number): Check {
  const { project } = projectFor(config, workspace, homeDir, now);
  const lines = [
    `workspace: ${workspace}`,
    `peer: ${project.peerId ?? '(none)'}  (${project.peerSource})`,
    ...(project.configPath ? [`workspace config: ${project.configPath}${project.off.length > 0 ? `; off here: ${project.off.join(', ')}` : ''}`] : []),
    ...project.warnings,
  ];
  const data = { ...(project.peerId ? { peerId: project.peerId } : {}), off: project.off };
  if (project.warnings.length > 0) return { id: 'project', title: 'Project', status: 'warn', lines, fix: PROJECT_FIX, data };
  return { id: 'project', title: 'Project', status: 'info', lines, data };
}
