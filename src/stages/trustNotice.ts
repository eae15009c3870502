/**
 * The session start's line about a peer a committed workspace file names
 * that the user has not approved (DESIGN D32): which file, which peer, what
 * the workspace uses instead, and the command that approves it. Shown to
 * the user (the start's `systemMessage`; the hooks module's `$.ui.log`),
 * never put in the model's context: the approval is the user's to give.
 *
 * @module
 */
import type { Project } from '../project/identity.js';

export function trustLine(project: Pick<Project, 'unapproved' | 'peerId'>): string | undefined {
  const unapproved = project.unapproved;
  if (unapproved === undefined) return undefined;
  const files = unapproved.files.map((file) => file.path).join(' and ');
  return `OpenViking: ${files} names the project peer ${unapproved.named}, which you have not approved; memory here stays with ${project.peerId ?? '(none: your own space)'}. To use it, run /openviking:trust (or node scripts/hook.mjs trust in ${unapproved.root}).`;
}
