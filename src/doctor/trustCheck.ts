/**
 * Doctor check `trust` (DESIGN D32): a peer this workspace's files name
 * that the user has not approved (which file, which peer, what is used
 * instead, the command), or the approved files whose peer is used. Shown
 * only when a workspace file names a peer of its own. No network.
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import { projectFor } from '../project/identity.js';
import { readApprovals } from '../project/trust.js';
import type { Check } from './types.js';

export function checkTrust(config: PluginConfig, workspace: string, homeDir: string, now: number): Check | undefined {
  const { project } = projectFor(config, workspace, homeDir, now);
  const base = { id: 'trust', title: 'Workspace peer approval' };
  const { unapproved, approved } = project;
  if (unapproved !== undefined) {
    return {
      ...base,
      status: 'warn',
      lines: [
        ...unapproved.files.map((file) => `${file.path} names the peer ${unapproved.named}: not approved`),
        `used instead: ${project.peerId ?? '(none: your own space)'} (${project.peerSource})`,
      ],
      fix: `If this repository is yours to trust, run /openviking:trust, or node scripts/hook.mjs trust in ${unapproved.root}: captured turns and recall here then use ${unapproved.named}. Until then memory stays with ${project.peerId ?? 'your own space'}.`,
      data: { root: unapproved.root, named: unapproved.named, files: unapproved.files.map((file) => file.path) },
    };
  }
  if (approved === undefined || project.root === undefined) return undefined;
  const root = project.root;
  const when = readApprovals(config.dataDir ?? '')
    .filter((approval) => approval.root === root)
    .map((approval) => new Date(approval.at).toISOString().slice(0, 10));
  return {
    ...base,
    status: 'info',
    lines: [
      `${approved.join(' and ')}: peer ${project.peerId ?? '(none)'} approved by you${when.length > 0 ? ` on ${when.join(', ')}` : ''}`,
      'undo: node scripts/hook.mjs trust --revoke (in the workspace)',
    ],
    data: { root, peer: project.peerId ?? null, files: approved },
  };
}
