/**
 * The project of a workspace with its workspace files' peer approved, as
 * the user approves it with `node scripts/hook.mjs trust` (DESIGN D32): for
 * the tests of OpenViking's convention (a team file names the peer), which
 * hold once the user trusts the repository. What happens before is
 * tests/project/peer-approval.test.ts and tests/security/workspace-peer.test.ts.
 *
 * @module
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PluginConfig } from '../../../src/config/types.js';
import {
  clearProjectCache,
  projectFor,
  resolveProject,
  type Project,
  type ProjectInput,
} from '../../../src/project/identity.js';
import { approve } from '../../../src/project/trust.js';

/** A data dir of its own for the approvals of one test file. */
export const APPROVALS_DIR = join(mkdtempSync(join(tmpdir(), 'ov-approvals-')), 'data');

/** Approves what `project` leaves unapproved; whether there was anything. */
function approveAll(project: Project, dataDir: string): boolean {
  const { unapproved } = project;
  if (unapproved === undefined) return false;
  approve(
    dataDir,
    unapproved.files.map((file) => ({ ...file, root: unapproved.root, peer: unapproved.named, at: Date.now() })),
  );
  clearProjectCache();
  return true;
}

/** `resolveProject(input)` once whatever its workspace files name is approved. */
export function resolveApproved(input: ProjectInput, dataDir = APPROVALS_DIR): Project {
  const first = resolveProject({ ...input, dataDir });
  return approveAll(first, dataDir) ? resolveProject({ ...input, dataDir }) : first;
}

/** Approves what the workspace files of `workspace` name under `config` (its `dataDir`). */
export function approveWorkspace(config: PluginConfig, workspace: string, homeDir: string): void {
  if (config.dataDir !== undefined)
    approveAll(projectFor(config, workspace, homeDir, Date.now()).project, config.dataDir);
}
