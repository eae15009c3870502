/**
 * A repository's remote URL → the project's peer id (DESIGN D24).
 *
 * Every spelling of one remote must give one id, and no credential may ever
 * reach it: `git@host:owner/repo.git`, `ssh://git@host:22/owner/repo`,
 * `https://user:token@host/owner/repo.git` and `git://host/owner/repo/` all
 * reduce to `host/owner/repo` (user, password, port, scheme, a trailing
 * `.git` or `/` dropped, lower-cased: the big forges treat repository paths
 * case-insensitively). The id is `git-<host-owner-repo, sanitised, ≤ 64
 * chars>-<8 hex of the canonical form>`: readable in doctor and on the
 * server, and two remotes that sanitise alike still differ by the hash.
 * A remote that is a local path (a clone of a directory) is hashed as the
 * path. Pure functions: no I/O.
 *
 * @module
 */
import { hash64Hex } from '../store/fastHash.js';

/** The server's identifier rule (openviking-api.md §1.2): one segment, at most one `@`, not `.`/`..`. */
export const PEER_ID_PATTERN = /^[a-zA-Z0-9_.@-]+$/;

/** Longest peer id accepted from configuration. */
export const MAX_PEER_ID_LENGTH = 128;

/** True when the server would accept `value` as a peer id. */
export function isValidPeerId(value: string): boolean {
  return value.length <= MAX_PEER_ID_LENGTH && PEER_ID_PATTERN.test(value) && value !== '.' && value !== '..' && value.split('@').length <= 2;
}

/** `host/owner/repo` for a remote URL (no credentials, no port, no `.git`), or undefined when it names nothing. */
export function canonicalRemote(url: string): string | undefined {
  const text = url.trim();
  if (text === '') return undefined;
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(text);
  let host: string;
  let path: string;
  if (withScheme) {
    const scheme = (withScheme[1] as string).toLowerCase();
    const rest = withScheme[2] as string;
    if (scheme === 'file') return `local${normalisePath(rest)}`;
    const slash = rest.indexOf('/');
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    path = slash === -1 ? '' : rest.slice(slash);
    host = hostOf(authority);
  } else {
    // scp-like `[user@]host:path`; a colon before any slash, and not a Windows drive letter.
    const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.*)$/.exec(text);
    if (!scp || /^[a-z]$/i.test(scp[1] as string)) return `local${normalisePath(text)}`;
    host = (scp[1] as string).toLowerCase();
    path = scp[2] as string;
  }
  const cleanPath = normalisePath(path);
  if (host === '' || cleanPath === '') return undefined;
  return `${host}${cleanPath}`;
}

/** The peer id of a canonical remote. */
export function peerIdForRemote(canonical: string): string {
  return `git-${readable(canonical)}-${hash64Hex(canonical).slice(0, 8)}`;
}

/** The peer id of a repository without a remote, from its common git directory's path. */
export function localPeerId(commonDir: string): string {
  const name = commonDir.replace(/\/+$/, '').replace(/\/\.git$/, '').split('/').pop() ?? '';
  return `git-local-${readable(name) || 'repo'}-${hash64Hex(commonDir).slice(0, 8)}`;
}

/** Host without user info or port, lower-cased; IPv6 brackets kept. */
function hostOf(authority: string): string {
  const at = authority.lastIndexOf('@');
  const hostPort = at === -1 ? authority : authority.slice(at + 1);
  const bracketed = /^\[[^\]]*\]/.exec(hostPort);
  return (bracketed ? bracketed[0] : (hostPort.split(':')[0] ?? '')).toLowerCase();
}

/** `/owner/repo`: leading `/` added, `~user` kept, duplicate and trailing slashes and `.git` dropped, lower-cased. */
function normalisePath(path: string): string {
  const segments = path
    .split(/[/\\]+/)
    .filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) return '';
  const last = segments.length - 1;
  segments[last] = (segments[last] as string).replace(/\.git$/i, '');
  if (segments[last] === '') segments.pop();
  return segments.length === 0 ? '' : `/${segments.join('/')}`.toLowerCase();
}

/** `host-owner-repo` with every character outside `[a-z0-9_.-]` as `-`, runs collapsed, at most 64 characters. */
function readable(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64)
    .replace(/[-.]+$/, '');
}
