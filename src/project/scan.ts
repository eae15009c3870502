/**
 * What a workspace's files say, read once and kept (DESIGN D24): the
 * workspace root and repository (workspaceRoot.ts, gitRepo.ts), the
 * template variables of the peer source (peerTemplate.ts), the workspace
 * files (workspaceConfig.ts), and, once asked for, this plugin's earlier
 * id of the repository (remote.ts). Cached per workspace in the process
 * (the resident helper and the MCP proxy serve many prompts) and re-used
 * while none of the files it read or looked for changed size, mtime or
 * inode, and for at most a minute. identity.ts decides the project from it.
 *
 * @module
 */
import { realPathNative, statQuietly } from '../store/fsUtil.js';
import { mainCheckout, originUrl, pickRemoteUrl, readGitConfig, type ScanNotes } from './gitRepo.js';
import {
  gitRemoteVariable,
  legacyPeerForm,
  normalizeRemote,
  parseRemote,
  remotePort,
  sanitizePeerId,
  type TemplateVariables,
} from './peerTemplate.js';
import { canonicalRemote, localPeerId, peerIdForRemote } from './remote.js';
import { readWorkspaceConfig, type WorkspaceConfig } from './workspaceConfig.js';
import { findWorkspaceRoot, type WorkspaceRoot } from './workspaceRoot.js';

/** What the file scan found; cached. Holds no remote URL (it may carry credentials). */
export interface Scan {
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

export const NO_VARIABLES: Scan['variables'] = { git_remote: '', git_root: '', dir: '', git_port: '' };

/** The scan of `workspace` (a real path or as given), from the cache while its files are unchanged. */
export function cachedScan(workspace: string, homeDir: string, now: number): Scan {
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
export function earlierGitIdOf(scan: Scan): string | undefined {
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
