/**
 * The project a hook event belongs to (DESIGN D24): its peer id, the ids
 * its memories had before, and what its workspace files switch off.
 *
 * Peer id, first that applies (the order of OpenViking's own plugins):
 * 1. `OPENVIKING_PEER_ID` (the environment is the most deliberate);
 * 2. the workspace files' `peer.id` / `peerId` (`false`: none);
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
 * (recall/cascade.ts); under `all` the server's sweep already covers them.
 *
 * Cost: the scan reads a few small files (no `git` process); it is cached
 * per workspace in the process (the resident helper serves many
 * workspaces and many prompts) and re-used while none of the files it read
 * (or looked for) changed size, mtime or inode, and for at most a minute.
 * Never throws.
 *
 * @module
 */
import { resolve } from 'node:path';
import type { Credentials, PluginConfig, Settings } from '../config/types.js';
import { realPathNative, statQuietly } from '../store/fsUtil.js';
import { mainCheckout, originUrl, pickRemoteUrl, readGitConfig, type ScanNotes } from './gitRepo.js';
import {
  firstRendered,
  gitRemoteVariable,
  legacyPeerForm,
  normalizeRemote,
  parseRemote,
  remotePort,
  sanitizePeerId,
  templatesOf,
  type TemplateVariables,
} from './peerTemplate.js';
import { canonicalRemote, isValidPeerId, localPeerId, peerIdForRemote } from './remote.js';
import {
  applyWorkspace,
  readWorkspaceConfig,
  switchesOff,
  originText,
  type ProjectSwitch,
  type WorkspaceConfig,
} from './workspaceConfig.js';
import { findWorkspaceRoot, type WorkspaceRoot } from './workspaceRoot.js';
import { errorMessage } from '../util/errors.js';

export interface ProjectInput {
  workspace: string;
  homeDir: string;
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
  warnings: string[];
}

/** What the file scan found; cached. Holds no remote URL (it may carry credentials). */
interface Scan {
  root?: WorkspaceRoot;
  /** The template variables but `{cwd}` (the caller's own text). */
  variables: Omit<TemplateVariables, 'cwd'>;
  /** `origin` as `host/path`, for doctor. */
  remote: string;
  /** The repository's common git dir, where its earlier id is read from when asked for. */
  commonDir?: string;
  /** This plugin's id of the repository before issue 22 (remote.ts), once asked for. */
  earlierGitId?: string;
  config?: WorkspaceConfig;
  ignored: string[];
}

interface CacheEntry {
  scan: Scan;
  signatures: Array<[string, string]>;
  at: number;
}

const MAX_CACHE_AGE_MS = 60_000;
const MAX_CACHE_ENTRIES = 64;
const cache = new Map<string, CacheEntry>();

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
  const named = scan.config?.values.peerId;
  const namedBy = scan.config === undefined ? '' : originText(scan.config, 'peerId');
  if (explicit?.fromEnv) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (named === false) return { ...base, peerSource: `none (${namedBy})` };
  if (named !== undefined) return { ...base, peerId: named, peerSource: namedBy };
  if (explicit) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (!input.settings.workspacePeer) return { ...base, peerSource: 'none (OPENVIKING_WORKSPACE_PEER off)' };
  return derivedPeer(input, scan, base);
}

/** The peer the peer source renders, with the earlier ids of the same project. */
function derivedPeer(input: ProjectInput, scan: Scan, base: Project): Project {
  const source = peerSourceOf(input, scan.config);
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

const NO_VARIABLES: Scan['variables'] = { git_remote: '', git_root: '', dir: '', git_port: '' };

function cachedScan(workspace: string, homeDir: string, now: number): Scan {
  const hit = cache.get(workspace);
  if (
    hit !== undefined &&
    now - hit.at < MAX_CACHE_AGE_MS &&
    hit.signatures.every(([path, signature]) => signatureOf(path) === signature)
  )
    return hit.scan;
  const notes: ScanNotes = { touched: [], ignored: [] };
  const scan = scanWorkspace(workspace, homeDir, notes);
  if (cache.size >= MAX_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(workspace, { scan, signatures: notes.touched.map((path) => [path, signatureOf(path)]), at: now });
  return scan;
}

function scanWorkspace(workspace: string, homeDir: string, notes: ScanNotes): Scan {
  const root = findWorkspaceRoot(workspace, homeDir, notes);
  if (root === undefined) return { variables: NO_VARIABLES, remote: '', ignored: notes.ignored };
  const config = root.hasFiles ? readWorkspaceConfig(root.root, notes.touched) : undefined;
  const dir = sanitizePeerId(root.root.split(/[/\\]/).filter(Boolean).pop() ?? '');
  const scan: Scan = {
    root,
    variables: { ...NO_VARIABLES, dir },
    remote: '',
    ignored: notes.ignored,
    ...(config ? { config } : {}),
  };
  if (root.git === undefined) return scan;
  const gitConfig = readGitConfig(root.git.commonDir, notes);
  const origin = originUrl(gitConfig);
  const parts = origin === undefined ? undefined : parseRemote(origin);
  scan.variables = {
    dir,
    git_remote: gitRemoteVariable(origin),
    git_root: legacyPeerForm(mainCheckout(root.git)),
    git_port: remotePort(parts),
  };
  scan.remote = normalizeRemote(parts);
  scan.commonDir = root.git.commonDir;
  return scan;
}

/**
 * This plugin's id of the scanned repository before issue 22 (remembered in
 * the scan): `git-<host-path>-<8 hex>` of origin, else of the first remote,
 * else `git-local-<name>-<8 hex>` of the real common git dir.
 */
function earlierGitIdOf(scan: Scan): string | undefined {
  if (scan.commonDir === undefined || scan.earlierGitId !== undefined) return scan.earlierGitId;
  const remoteUrl = pickRemoteUrl(readGitConfig(scan.commonDir, { touched: [], ignored: [] }));
  const canonical = remoteUrl === undefined ? undefined : canonicalRemote(remoteUrl);
  scan.earlierGitId =
    canonical !== undefined
      ? peerIdForRemote(canonical)
      : localPeerId(remoteUrl === undefined ? (realPathNative(scan.commonDir) ?? scan.commonDir) : scan.commonDir);
  return scan.earlierGitId;
}

function signatureOf(path: string): string {
  const stat = statQuietly(path);
  return stat === undefined ? '-' : `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
}

/** Forgets every cached scan (tests). */
export function clearProjectCache(): void {
  cache.clear();
}
