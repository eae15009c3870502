/**
 * Which workspace files may name a project's peer without the user's
 * approval (DESIGN D32, issue 29 item 1). A cloned repository's committed
 * `.openviking/config.json` could otherwise point memory at any of the
 * user's other projects: `peer.id` (or a `peer.source` template, or
 * `peer.id: false`, the user's own space) makes every captured turn that
 * project's memory and recall speak as it. So a peer a committed file
 * names, that differs from the one the workspace has without it, is used
 * only once `node scripts/hook.mjs trust` approved that file's content for
 * that workspace root (project/trust.ts); until then the workspace keeps the
 * peer it would have without the file, and the session start, doctor and
 * the status line say so. `config.local.json` is the user's own and needs
 * no approval, unless git tracks it (project/gitTracked.ts): then it came
 * with the clone as well.
 *
 * The other values a workspace file sets only ever make the plugin do less
 * (workspaceConfig.ts), so they need no approval.
 *
 * @module
 */
import type { JsonRecord } from '../util/json.js';
import type { GitDir } from './gitRepo.js';
import { trackedByGit } from './gitTracked.js';
import { contentDigest, isApproved, readApprovals } from './trust.js';
import { mergeLayers, type WorkspaceConfig } from './workspaceConfig.js';
import type { WorkspaceLayer } from './workspaceFile.js';
import { WORKSPACE_FILES } from './workspaceRoot.js';

/** A workspace file whose peer is not approved, and what approving it would record. */
export interface GatedFile {
  path: string;
  /** Its name in `.openviking/` (an approval's `file`). */
  file: string;
  digest: string;
}

/** The peer the workspace files name that is not used until approved. */
export interface UnapprovedPeer {
  /** The workspace root the approval is for. */
  root: string;
  files: GatedFile[];
  /** The peer they name (`(none)`: the user's own space). */
  named: string;
}

/**
 * The peer `peerOf` gives for the workspace files as far as the user
 * approved them: with every file's peer values when they change nothing or
 * are approved (`approved` then names the files), else without those of the
 * files that need an approval (`unapproved` says which, and what they name).
 * Costs nothing more where no file names a peer; the approvals are read, and
 * a local file's tracking looked up, only when a file's peer would change
 * the outcome.
 */
export function approvedPeer<P extends { peerId?: string }>(
  config: WorkspaceConfig | undefined,
  where: { root: string; git?: GitDir } | undefined,
  dataDir: string | undefined,
  peerOf: (config: WorkspaceConfig | undefined) => P,
): P & { unapproved?: UnapprovedPeer; approved?: string[] } {
  const full = peerOf(config);
  const naming = (config?.layers ?? []).filter(
    (layer) => layer.values.peerId !== undefined || layer.values.peerSource !== undefined,
  );
  if (config === undefined || where === undefined || naming.length === 0) return full;
  const withoutAny = peerOf(withoutPeers(config, naming));
  if (withoutAny.peerId === full.peerId) return full;
  const gated = naming.filter((layer) => nameOf(layer) === WORKSPACE_FILES[0] || tracked(layer, where.git));
  if (gated.length === 0) return full;
  const without = gated.length === naming.length ? withoutAny : peerOf(withoutPeers(config, gated));
  if (without.peerId === full.peerId) return full;
  const files = gated.map((layer) => ({
    path: layer.path,
    file: nameOf(layer),
    digest: contentDigest(layer.parsed ?? ({} as JsonRecord)),
  }));
  if (allApproved(files, where.root, dataDir)) return { ...full, approved: files.map((file) => file.path) };
  return { ...without, unapproved: { root: where.root, files, named: full.peerId ?? '(none)' } };
}

function nameOf(layer: WorkspaceLayer): string {
  return layer.path.split(/[/\\]/).pop() ?? '';
}

/** A local file git tracks came with the clone too (no repository: it did not). */
function tracked(layer: WorkspaceLayer, git: GitDir | undefined): boolean {
  return git !== undefined && trackedByGit(git, layer.path);
}

/** `config` without the peer values of `layers` (what the workspace names without them). */
function withoutPeers(config: WorkspaceConfig, layers: readonly WorkspaceLayer[]): WorkspaceConfig {
  const stripped = config.layers.map((layer): WorkspaceLayer => {
    if (!layers.includes(layer)) return layer;
    const { peerId: _id, peerSource: _source, ...values } = layer.values;
    const { peerId: _idFrom, peerSource: _sourceFrom, ...origins } = layer.origins;
    return { ...layer, values, origins };
  });
  return mergeLayers(stripped, { warnings: config.warnings, notes: config.notes });
}

/** Whether every file's content is approved for `root` (no data dir: none is). */
function allApproved(files: readonly GatedFile[], root: string, dataDir: string | undefined): boolean {
  if (dataDir === undefined) return false;
  const approvals = readApprovals(dataDir);
  return files.every((file) => isApproved(approvals, root, file.file, file.digest));
}
