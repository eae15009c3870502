/**
 * The project a hook event belongs to (DESIGN D24): its peer id, the ids
 * its memories had before, and what its workspace files switch off.
 *
 * Peer id, first that applies (the order of OpenViking's own plugins):
 * 1. `OPENVIKING_PEER_ID` (the environment is the most deliberate);
 * 2. the workspace files' `peer.id` / `peerId` (`false`: none), a committed
 *    file's only once the user approved it (peerApproval.ts, D32);
 * 3. ovcli.conf `actor_peer_id` / `peer_id`, ov.conf `codebuddy.peerId`;
 * 4. unless `OPENVIKING_WORKSPACE_PEER=false`: derived by the peer source
 *    (`OPENVIKING_PEER_SOURCE`, else the workspace's `peer.source`, else
 *    ovcli.conf's, else `git`: the `origin` remote, else the repository's
 *    path; peerTemplate.ts) from the workspace (workspaceRoot.ts);
 * 5. none.
 *
 * Earlier ids: a derived peer also names the ids this project's memories
 * were written under before: this plugin's own `git-…-<8 hex>` (remote.ts)
 * and OpenViking's plugins' first one, the working folder's path in the
 * legacy form. Recall asks for them too under `peer_scope: actor`
 * (recall/cascade.ts); under `all` the server's sweep already covers them,
 * and recall names them only to keep their hits (recall/projectScope.ts).
 *
 * Cost: the scan reads a few small files (no `git` process), cached per
 * workspace (scan.ts). Never throws.
 *
 * @module
 */
import { resolve } from 'node:path';
import type { Credentials, PluginConfig, Settings } from '../config/types.js';
import { mainCheckout } from './gitRepo.js';
import { firstRendered, legacyPeerForm, templatesOf, type TemplateVariables } from './peerTemplate.js';
import { isValidPeerId } from './remote.js';
import {
  applyWorkspace,
  switchesOff,
  originText,
  type ProjectSwitch,
  type WorkspaceConfig,
} from './workspaceConfig.js';
import { approvedPeer, type UnapprovedPeer } from './peerApproval.js';
import { cachedScan, earlierGitIdOf, NO_VARIABLES, type Scan } from './scan.js';
import { errorMessage } from '../util/errors.js';

export { clearProjectCache } from './scan.js';

export interface ProjectInput {
  workspace: string;
  homeDir: string;
  /** Where the user's approvals of workspace files' peers are kept (project/trust.ts); none: no file's peer is approved. */
  dataDir?: string;
  credentials: Pick<Credentials, 'peerId' | 'sources'>;
  settings: Pick<Settings, 'workspacePeer' | 'peerSource'>;
  /** Where `settings.peerSource` came from (`env:…`, `file:…`, `default`): the environment's beats the workspace's, ovcli.conf's does not. */
  peerSourceOrigin?: string;
  /** Also name the earlier ids (an extra read of git's config: only recall under `peer_scope: actor` and doctor need them). */
  earlierIds?: boolean;
  now: number;
}

export interface Project {
  peerId?: string;
  /** Where the peer id came from, for doctor and `why` (never a remote's credentials). */
  peerSource: string;
  /** Ids this project's memories were written under before (derived peers only, when asked for: `earlierIds`), asked for too under `peer_scope: actor`. */
  earlierPeerIds: string[];
  /** Switches the workspace files turn off, each with the key and file that did it. */
  off: Partial<Record<ProjectSwitch, string>>;
  /** The workspace root (nearest marked folder, else the repository's checkout). */
  root?: string;
  /** The workspace files read (merged), when there are any. */
  config?: WorkspaceConfig;
  /** A peer the workspace files name that is not used until the user approves it (D32); the project has the one it would have without them. */
  unapproved?: UnapprovedPeer;
  /** The workspace files whose peer is used because the user approved it (D32). */
  approved?: string[];
  warnings: string[];
}

/**
 * The project of `workspace` under `config`, and the settings with what its
 * workspace files may change applied. Its earlier ids are named when recall
 * will ask for them (`peer_scope: actor`, perhaps set by the workspace), or
 * `always` (doctor).
 */
export function projectFor(
  config: PluginConfig,
  workspace: string,
  homeDir: string,
  now: number,
  earlierIds: 'for-recall' | 'always' = 'for-recall',
): { project: Project; settings: Settings; ignored: string[] } {
  const input: ProjectInput = {
    workspace,
    homeDir,
    ...(config.dataDir !== undefined ? { dataDir: config.dataDir } : {}),
    credentials: config.credentials,
    settings: config.settings,
    ...originOf(config),
    now,
  };
  const project = resolveProject({ ...input, earlierIds: earlierIds === 'always' || isActorScope(config.settings) });
  const applied = applyWorkspace(config.settings, project.config);
  // The workspace narrowed the scope to actor: the scan is cached, naming the earlier ids costs one read.
  const named =
    earlierIds === 'for-recall' && !isActorScope(config.settings) && isActorScope(applied.settings)
      ? resolveProject({ ...input, earlierIds: true })
      : project;
  return { project: named, settings: applied.settings, ignored: applied.ignored };
}

function isActorScope(settings: Pick<Settings, 'recallPeerScope'>): boolean {
  return settings.recallPeerScope.trim().toLowerCase() === 'actor';
}

function originOf(config: PluginConfig): { peerSourceOrigin?: string } {
  const origin = config.settingSources?.peerSource;
  return origin === undefined ? {} : { peerSourceOrigin: origin };
}

export function resolveProject(input: ProjectInput): Project {
  let scan: Scan;
  try {
    scan = cachedScan(resolve(input.workspace), input.homeDir, input.now);
  } catch (error) {
    scan = { variables: NO_VARIABLES, remote: '', ignored: [`project not resolved (${errorMessage(error)})`] };
  }
  const warnings = [...scan.ignored, ...(scan.config?.warnings ?? [])];
  const base: Project = {
    peerSource: '',
    earlierPeerIds: [],
    off: switchesOff(scan.config),
    warnings,
    ...(scan.root ? { root: scan.root.root } : {}),
    ...(scan.config ? { config: scan.config } : {}),
  };
  const explicit = explicitPeer(input.credentials, warnings);
  // A peer a committed workspace file names is used only once the user approved it (peerApproval.ts, D32).
  const where =
    scan.root === undefined ? undefined : { root: scan.root.root, ...(scan.root.git ? { git: scan.root.git } : {}) };
  // Each try with its own warnings: the one kept says them once.
  return approvedPeer(scan.config, where, input.dataDir, (config) =>
    peerOf(input, scan, { ...base, warnings: [...base.warnings] }, explicit, config),
  );
}

/** The peer under `config`'s peer values (the workspace files', all or those approved), first that applies. */
function peerOf(
  input: ProjectInput,
  scan: Scan,
  base: Project,
  explicit: ReturnType<typeof explicitPeer>,
  config: WorkspaceConfig | undefined,
): Project {
  const named = config?.values.peerId;
  const namedBy = config === undefined ? '' : originText(config, 'peerId');
  if (explicit?.fromEnv) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (named === false) return { ...base, peerSource: `none (${namedBy})` };
  if (named !== undefined) return { ...base, peerId: named, peerSource: namedBy };
  if (explicit) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (!input.settings.workspacePeer) return { ...base, peerSource: 'none (OPENVIKING_WORKSPACE_PEER off)' };
  return derivedPeer(input, scan, base, config);
}

/** The peer the peer source renders, with the earlier ids of the same project. */
function derivedPeer(input: ProjectInput, scan: Scan, base: Project, config: WorkspaceConfig | undefined): Project {
  const source = peerSourceOf(input, config);
  const templates = templatesOf(source.value, (message) => base.warnings.push(`${source.from}: ${message}`));
  if (templates.length === 0) return { ...base, peerSource: `none (peer source "none" from ${source.from})` };
  const variables: TemplateVariables = { ...scan.variables, cwd: legacyPeerForm(input.workspace) };
  const rendered = firstRendered(templates, variables, (message) => base.warnings.push(`${source.from}: ${message}`));
  if (rendered === undefined)
    return {
      ...base,
      peerSource:
        scan.root?.git === undefined
          ? 'none (not in a git repository)'
          : `none (no template of ${source.from} resolved)`,
    };
  const peer = {
    ...base,
    peerId: rendered.id,
    peerSource: `${rendered.template} of ${describeVariable(rendered.template, scan)} (peer source: ${source.from})`,
  };
  if (input.earlierIds !== true) return peer;
  const earlier = [earlierGitIdOf(scan), variables.cwd].filter(
    (id): id is string => id !== undefined && id !== '' && id !== rendered.id && isValidPeerId(id),
  );
  return { ...peer, earlierPeerIds: [...new Set(earlier)] };
}

/** The peer source that applies: the environment's, else the workspace files', else ovcli.conf's, else `git`. */
function peerSourceOf(
  input: ProjectInput,
  config: WorkspaceConfig | undefined,
): { value: string | readonly string[] | undefined; from: string } {
  const knob = input.settings.peerSource;
  const knobValue = knob.length === 1 ? knob[0] : knob.length === 0 ? undefined : knob;
  const origin = input.peerSourceOrigin ?? (knob.length > 0 ? 'env:OPENVIKING_PEER_SOURCE' : 'default');
  if (origin.startsWith('env:')) return { value: knobValue, from: 'OPENVIKING_PEER_SOURCE' };
  if (config?.values.peerSource !== undefined)
    return { value: config.values.peerSource, from: originText(config, 'peerSource') };
  if (knob.length > 0) return { value: knobValue, from: origin.replace(/^file:/, '') };
  return { value: undefined, from: 'default git' };
}

/** What a template's first variable was read from, for doctor (no credentials: the remote is `host/path`). */
function describeVariable(template: string, scan: Scan): string {
  if (template.includes('{git_remote}')) return `origin ${scan.remote}`;
  if (template.includes('{git_root}'))
    return `the repository at ${scan.root?.git ? mainCheckout(scan.root.git) : '?'} (no usable origin)`;
  if (template.includes('{dir}')) return `the workspace folder ${scan.root?.root ?? '?'}`;
  return template.includes('{cwd}') ? 'the working folder' : 'the template itself';
}

function explicitPeer(
  credentials: ProjectInput['credentials'],
  warnings: string[],
): { peerId: string; source: string; fromEnv: boolean } | undefined {
  const peerId = credentials.peerId?.trim();
  if (!peerId) return undefined;
  const source = credentials.sources.peerId ?? 'configuration';
  if (!isValidPeerId(peerId)) {
    warnings.push(`${source}: peer id "${peerId.slice(0, 40)}" does not match ^[a-zA-Z0-9_.@-]+$; ignoring it`);
    return undefined;
  }
  return { peerId, source, fromEnv: source.startsWith('env:') };
}
