/**
 * This plugin's EARLIER peer ids (before issue 22, DESIGN D24): a
 * repository's remote URL → `git-<host-path>-<8 hex>`, kept byte for byte so
 * that memories written under them stay reachable (identity.ts names them,
 * recall asks for them under `peer_scope: actor`). Today's ids come from
 * peerTemplate.ts, as OpenViking's own plugins derive them. Also the
 * server's id rule (`isValidPeerId`) and where user info ends in a URL
 * (`userInfoEnd`), which both derivations share.
 *
 * Every spelling of one remote must give one id, and no credential may ever
 * reach it: `git@host:owner/repo.git`, `ssh://git@host:22/owner/repo`,
 * `https://user:token@host/owner/repo.git` and `git://host/owner/repo/` all
 * reduce to `host/owner/repo` (user, password, port, scheme, a trailing
 * `.git` or `/`, a query and a fragment dropped, lower-cased: the big forges
 * treat repository paths case-insensitively). The id is `git-<host-owner-repo,
 * sanitised, ≤ 64 chars>-<8 hex of the canonical form>`: readable in doctor
 * and on the server, and two remotes that sanitise alike still differ by
 * the hash. A remote that is a local path (a clone of a directory) is
 * hashed as the path and shows only its last segment (`git-local-<name>-…`).
 * Pure functions: no I/O.
 *
 * Where user info ends (issue 20 item 6): a password written with an
 * unencoded `/`, `?`, `#` or `@` (`https://u:pa/ss@host/o/r`) puts the
 * `@` after the first `/`, where a URL parser would read the user's words
 * as host and path. So the user info runs to the LAST `@` that is followed
 * by a host and a `/`; a query or fragment (`?access_token=…`) is cut after
 * the path. An `@` in a path or query that a `/` follows later is misread as
 * the end of user info: then nothing before it can reach the id.
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
  return (
    value.length <= MAX_PEER_ID_LENGTH &&
    PEER_ID_PATTERN.test(value) &&
    value !== '.' &&
    value !== '..' &&
    value.split('@').length <= 2
  );
}

/** `host/owner/repo` for a remote URL (no credentials, no port, no `.git`, no query), or undefined when it names nothing. */
export function canonicalRemote(url: string): string | undefined {
  const text = url.trim();
  if (text === '') return undefined;
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/is.exec(text);
  let host: string;
  let path: string;
  if (withScheme) {
    const scheme = (withScheme[1] as string).toLowerCase();
    const rest = withScheme[2] as string;
    if (scheme === 'file') return `local${normalisePath(withoutQuery(rest))}`;
    const hostAndPath = rest.slice(userInfoEnd(rest));
    const hostEnd = hostAndPath.search(/[/?#]/);
    host = hostOf(hostEnd === -1 ? hostAndPath : hostAndPath.slice(0, hostEnd));
    path = hostEnd === -1 ? '' : withoutQuery(hostAndPath.slice(hostEnd));
  } else {
    // scp-like `[user@]host:path` (git's rule: a colon before any slash; not a Windows drive letter); the user runs to the last `@` before the host.
    const colon = text.indexOf(':');
    const slash = text.indexOf('/');
    const scp =
      colon !== -1 && (slash === -1 || colon < slash) ? /^(?:.*@)?([^:/@\s]+):(?!\/\/)(.*)$/s.exec(text) : null;
    if (!scp || /^[a-z]$/i.test(scp[1] as string)) return `local${normalisePath(withoutQuery(text))}`;
    host = (scp[1] as string).toLowerCase();
    path = withoutQuery(scp[2] as string);
  }
  const cleanPath = normalisePath(path);
  if (host === '' || cleanPath === '') return undefined;
  return `${host}${cleanPath}`;
}

/**
 * Where the host starts in `rest` (the URL after `scheme://`): after the last
 * `@` that a host and then a `/` follow (user info may hold `/`, `?`, `#`
 * and `@`), else after an `@` in the authority, else 0.
 */
export function userInfoEnd(rest: string): number {
  for (let at = rest.lastIndexOf('@'); at !== -1; at = at === 0 ? -1 : rest.lastIndexOf('@', at - 1)) {
    if (/^[^/?#@\s]+\//.test(rest.slice(at + 1))) return at + 1;
  }
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  return authority.lastIndexOf('@') + 1;
}

/** The path without its query and fragment. */
function withoutQuery(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/** The peer id of a canonical remote; a local path shows only its last segment. */
export function peerIdForRemote(canonical: string): string {
  const shown = canonical.startsWith('local/') ? `local-${canonical.split('/').pop() ?? ''}` : canonical;
  return `git-${readable(shown)}-${hash64Hex(canonical).slice(0, 8)}`;
}

/** The peer id of a repository without a remote, from its common git directory's path. */
export function localPeerId(commonDir: string): string {
  const name =
    commonDir
      .replace(/\/+$/, '')
      .replace(/\/\.git$/, '')
      .split('/')
      .pop() ?? '';
  return `git-local-${readable(name) || 'repo'}-${hash64Hex(commonDir).slice(0, 8)}`;
}

/** Host without port, lower-cased; IPv6 brackets kept. */
function hostOf(hostPort: string): string {
  const bracketed = /^\[[^\]]*\]/.exec(hostPort);
  return (bracketed ? bracketed[0] : (hostPort.split(':')[0] ?? '')).toLowerCase();
}

/** `/owner/repo`: leading `/` added, `~user` kept, duplicate and trailing slashes and `.git` dropped, lower-cased. */
function normalisePath(path: string): string {
  const segments = path.split(/[/\\]+/).filter((segment) => segment !== '' && segment !== '.');
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
