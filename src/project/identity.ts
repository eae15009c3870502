/**
 * The project a hook event belongs to (DESIGN D24): its peer id and the
 * switches its workspace file turns off.
 *
 * Peer id, first that applies:
 * 1. `OPENVIKING_PEER_ID` (the environment is the most deliberate);
 * 2. the workspace's `.openviking/config.json` `peerId` (`false`: none);
 * 3. ovcli.conf `actor_peer_id` / `peer_id`, ov.conf `codebuddy.peerId`;
 * 4. unless `OPENVIKING_WORKSPACE_PEER=false`: derived from git, the
 *    canonical remote (remote.ts) or, without one, the repository's path;
 * 5. none (a folder outside git).
 *
 * Cost: the scan reads a few small files (gitRepo.ts); the answer is cached
 * per workspace in the process (the resident helper serves many workspaces
 * and many prompts) and re-used while none of the files it read (or looked
 * for) changed size or mtime, and for at most a minute, so a `.git` made in
 * a parent folder is noticed too. Never throws.
 *
 * @module
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Credentials, PluginConfig, Settings } from '../config/types.js';
import { findGitRepo, type GitScanNotes } from './gitRepo.js';
import { canonicalRemote, isValidPeerId, localPeerId, peerIdForRemote } from './remote.js';
import { applyProjectSwitches, readWorkspaceConfig, WORKSPACE_CONFIG_PATH } from './workspaceConfig.js';
import type { ProjectSwitch, WorkspaceConfig } from './workspaceConfig.js';
import { errorMessage } from '../util/errors.js';

export interface ProjectInput {
  workspace: string;
  homeDir: string;
  credentials: Pick<Credentials, 'peerId' | 'sources'>;
  /** The `OPENVIKING_WORKSPACE_PEER` knob. */
  workspacePeer: boolean;
  now: number;
}

export interface Project {
  peerId?: string;
  /** Where the peer id came from (doctor, `why`): `env:OPENVIKING_PEER_ID`, `workspace:<file>`, `git remote host/owner/repo`, … */
  peerSource: string;
  /** Settings the workspace file switches off. */
  off: ProjectSwitch[];
  /** The workspace file, when there is one. */
  configPath?: string;
  warnings: string[];
}

/** What the file scan found; cached. Holds no remote URL (it may carry credentials). */
interface Scan {
  derivedPeer?: string;
  derivedSource: string;
  config?: WorkspaceConfig;
  /** Repository files that were there but not read (gitRepo.ts), for doctor. */
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

/** The project of `workspace` under `config`, and the settings with its workspace switches applied. */
export function projectFor(config: PluginConfig, workspace: string, homeDir: string, now: number): { project: Project; settings: Settings } {
  const project = resolveProject({ workspace, homeDir, credentials: config.credentials, workspacePeer: config.settings.workspacePeer, now });
  return { project, settings: applyProjectSwitches(config.settings, project.off) };
}

export function resolveProject(input: ProjectInput): Project {
  let scan: Scan;
  try {
    scan = cachedScan(resolve(input.workspace), input.homeDir, input.now);
  } catch (error) {
    scan = { derivedSource: `not resolved (${errorMessage(error)})`, ignored: [] };
  }
  const warnings = [...scan.ignored, ...(scan.config?.warnings ?? [])];
  const base = { off: scan.config?.off ?? [], ...(scan.config ? { configPath: scan.config.path } : {}), warnings };
  const explicit = explicitPeer(input.credentials, warnings);
  const fromWorkspace = scan.config?.peerId;
  if (explicit?.fromEnv) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (fromWorkspace === false) return { ...base, peerSource: `none (${scan.config?.path ?? WORKSPACE_CONFIG_PATH}: peerId false)` };
  if (fromWorkspace !== undefined) return { ...base, peerId: fromWorkspace, peerSource: `workspace:${scan.config?.path ?? ''}` };
  if (explicit) return { ...base, peerId: explicit.peerId, peerSource: explicit.source };
  if (!input.workspacePeer) return { ...base, peerSource: 'none (OPENVIKING_WORKSPACE_PEER off)' };
  if (scan.derivedPeer === undefined) return { ...base, peerSource: scan.derivedSource };
  return { ...base, peerId: scan.derivedPeer, peerSource: scan.derivedSource };
}

function explicitPeer(credentials: ProjectInput['credentials'], warnings: string[]): { peerId: string; source: string; fromEnv: boolean } | undefined {
  const peerId = credentials.peerId?.trim();
  if (!peerId) return undefined;
  const source = credentials.sources.peerId ?? 'configuration';
  if (!isValidPeerId(peerId)) {
    warnings.push(`${source}: peer id "${peerId.slice(0, 40)}" does not match ^[a-zA-Z0-9_.@-]+$; ignoring it`);
    return undefined;
  }
  return { peerId, source, fromEnv: source.startsWith('env:') };
}

function cachedScan(workspace: string, homeDir: string, now: number): Scan {
  const hit = cache.get(workspace);
  if (hit !== undefined && now - hit.at < MAX_CACHE_AGE_MS && hit.signatures.every(([path, signature]) => signatureOf(path) === signature)) return hit.scan;
  const notes: GitScanNotes = { touched: [], ignored: [] };
  const scan = scanWorkspace(workspace, homeDir, notes);
  if (cache.size >= MAX_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(workspace, { scan, signatures: notes.touched.map((path) => [path, signatureOf(path)]), at: now });
  return scan;
}

function scanWorkspace(workspace: string, homeDir: string, notes: GitScanNotes): Scan {
  const repo = findGitRepo(workspace, notes);
  const config = findWorkspaceConfig(workspace, repo?.topLevel ?? workspace, resolve(homeDir), notes.touched);
  const scan: Scan = { derivedSource: 'none (not in a git repository)', ...(config ? { config } : {}), ignored: notes.ignored };
  if (repo === undefined) return scan;
  const canonical = repo.remoteUrl === undefined ? undefined : canonicalRemote(repo.remoteUrl);
  if (canonical !== undefined) return { ...scan, derivedPeer: peerIdForRemote(canonical), derivedSource: `git remote ${canonical}` };
  return { ...scan, derivedPeer: localPeerId(repo.commonDir), derivedSource: `git repository without a remote (${repo.commonDir})` };
}

/** The nearest `.openviking/config.json` from the workspace up to `top`; the home directory's `.openviking` is the user's, never a project's. */
function findWorkspaceConfig(workspace: string, top: string, homeDir: string, touched: string[]): WorkspaceConfig | undefined {
  for (let dir = workspace; ; dir = dirname(dir)) {
    if (dir !== homeDir) {
      const path = join(dir, WORKSPACE_CONFIG_PATH);
      touched.push(path);
      const config = readWorkspaceConfig(path);
      if (config !== undefined) return config;
    }
    if (dir === top || dirname(dir) === dir || !workspace.startsWith(top)) return undefined;
  }
}

function signatureOf(path: string): string {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined ? '-' : `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return '?';
  }
}

/** Forgets every cached scan (tests). */
export function clearProjectCache(): void {
  cache.clear();
}
