/**
 * `node scripts/hook.mjs trust [--revoke]` and `/openviking:trust` (DESIGN
 * D32): the user's approval of the peer a committed workspace file names,
 * for this workspace root and this file's content (project/trust.ts). Run in
 * the workspace (a slash command's shell starts there). Without `--revoke`
 * it approves what the project here does not use yet (peerApproval.ts) and
 * says what changes; with it, it drops this root's approvals.
 *
 * The approval is the user's: the command is user-invoked only (the slash
 * command says `disable-model-invocation`, and the guard refuses the model's
 * Skill or SlashCommand call to it, D27); the session-start line that asks
 * for it is shown to the user, never put in the model's context.
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import { clearProjectCache, projectFor } from '../project/identity.js';
import { approve, revoke } from '../project/trust.js';
import { loadStageConfig } from '../session/stageContext.js';
import { resolveWorkspace } from '../session/workspace.js';
import { resolveDataDir } from '../store/paths.js';

export interface TrustResult {
  text: string;
  code: number;
}

/** Approves what the project here does not use yet, or with `revoke` drops this root's approvals (the command line parsed `--revoke`). */
export function runTrust(revokeAsked: boolean, deps: StageDeps): TrustResult {
  const config = loadStageConfig(deps, { readStoredOptions: true });
  const dataDir = config.dataDir ?? resolveDataDir(deps.env, deps.homeDir);
  const workspace = resolveWorkspace({}, deps.env, deps.cwd);
  const { project } = projectFor(config, workspace, deps.homeDir, deps.now());
  if (revokeAsked) {
    if (project.root === undefined) return { text: `${workspace} is no workspace: nothing to revoke.\n`, code: 0 };
    const dropped = revoke(dataDir, project.root);
    if (dropped < 0) return { text: `Could not write ${dataDir}/trust.json.\n`, code: 1 };
    return {
      text:
        dropped === 0
          ? `No approval was kept for ${project.root}.\n`
          : `Dropped ${dropped} approval${dropped === 1 ? '' : 's'} for ${project.root}: its workspace files no longer name its peer until you run trust there again.\n`,
      code: 0,
    };
  }
  const { unapproved } = project;
  if (unapproved === undefined) return { text: nothingToApprove(project), code: 0 };
  const at = deps.now();
  const ok = approve(
    dataDir,
    unapproved.files.map((file) => ({
      root: unapproved.root,
      file: file.file,
      digest: file.digest,
      peer: unapproved.named,
      at,
    })),
  );
  if (!ok) return { text: `Could not write ${dataDir}/trust.json: nothing was approved.\n`, code: 1 };
  clearProjectCache();
  const now = projectFor(config, workspace, deps.homeDir, deps.now()).project;
  return {
    text: [
      `Approved for ${unapproved.root}: ${unapproved.files.map((file) => file.path).join(' and ')} name${unapproved.files.length === 1 ? 's' : ''} the peer ${unapproved.named}.`,
      `Captured turns and recall here now use ${now.peerId ?? '(none: your own memory space)'} (until now: ${project.peerId ?? '(none)'}).`,
      'A change to that file asks again. Undo with: node scripts/hook.mjs trust --revoke',
      '',
    ].join('\n'),
    code: 0,
  };
}

function nothingToApprove(project: ReturnType<typeof projectFor>['project']): string {
  const peer = `The peer here is ${project.peerId ?? '(none)'} (${project.peerSource}).`;
  if (project.approved !== undefined) return `${peer}\nAlready approved: ${project.approved.join(', ')}.\n`;
  return `${peer}\nNothing to approve: no committed workspace file here names another peer (config.local.json, yours and untracked, needs no approval).\n`;
}
