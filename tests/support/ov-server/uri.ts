/**
 * The `viking://` namespace rules the server enforces (contract §3): the home
 * alias `~` expanded for every role, ROOT too (so in dev mode: 0.5.2,
 * docs/host-facts.md F37; 6e944cc rejected it for ROOT), the legacy
 * `session/` alias, the removed uid-less `user/memories/...` shorthand,
 * internal scopes, and per-user visibility. Also the identifier rule shared
 * by user ids, peer ids and the actor-peer header.
 *
 * @module
 */
import type { Identity } from './types.js';
import { invalidArgument, invalidUri, permissionDenied } from './errors.js';

export const ROOT_URI = 'viking://';
const SCHEME = 'viking://';
const IDENTIFIER = /^[a-zA-Z0-9_.@-]+$/;
const UIDLESS_SEGMENTS = new Set(['memories', 'resources', 'skills', 'peers', 'privacy', 'sessions']);
const INTERNAL_SCOPES = new Set(['temp', 'queue', 'upload']);

/** `^[a-zA-Z0-9_.@-]+$`, at most one `@`, not `.` or `..` (`identifiers.py`). */
export function isValidIdentifier(value: string): boolean {
  return IDENTIFIER.test(value) && value !== '.' && value !== '..' && value.split('@').length <= 2;
}

/** Validates a peer id (header or message field); throws 400 INVALID_ARGUMENT. */
export function assertPeerId(value: string, field: string): string {
  if (!isValidIdentifier(value)) throw invalidArgument(`Invalid ${field}: ${JSON.stringify(value)}`);
  return value;
}

/** `viking://a/b` → `['a','b']`. */
export function uriSegments(uri: string): string[] {
  return uri
    .slice(SCHEME.length)
    .split('/')
    .filter((segment) => segment !== '');
}

export function joinUri(segments: readonly string[]): string {
  return SCHEME + segments.join('/');
}

export function userRootUri(user: string): string {
  return joinUri(['user', user]);
}

/**
 * Canonicalises a request URI for `identity` and checks the caller may see
 * it. Throws 400 INVALID_URI for malformed, internal or non-canonical URIs,
 * 403 for another user's space.
 */
export function resolveRequestUri(raw: string, identity: Identity): string {
  const segments = canonicalSegments(raw, identity);
  assertVisible(segments, identity);
  return joinUri(segments);
}

function canonicalSegments(raw: string, identity: Identity): string[] {
  const trimmed = raw.trim();
  if (!trimmed.startsWith(SCHEME)) throw invalidUri(`Invalid URI (expected viking://...): ${raw}`);
  const segments = uriSegments(trimmed);
  if (segments.some((segment) => segment === '.' || segment === '..')) throw invalidUri(`Invalid URI path: ${raw}`);
  const [scope, second] = segments;
  if (scope === undefined) return [];
  if (INTERNAL_SCOPES.has(scope)) throw invalidUri(`Internal scope is not accessible: ${raw}`);
  if (scope === '~') return ['user', identity.user, ...segments.slice(1)];
  if (scope === 'session') return ['user', identity.user, 'sessions', ...segments.slice(1)];
  if (scope === 'user' && second !== undefined && identity.role !== 'root') {
    if (UIDLESS_SEGMENTS.has(second) && second !== identity.user) {
      throw invalidUri(`URI ${raw} omits the user id; use viking://~/${segments.slice(1).join('/')}`);
    }
  }
  if (scope !== 'user' && scope !== 'resources' && scope !== 'agent') throw invalidUri(`Unknown scope in URI: ${raw}`);
  return segments;
}

function assertVisible(segments: readonly string[], identity: Identity): void {
  if (identity.role === 'root' || segments[0] !== 'user') return;
  const owner = segments[1];
  if (owner !== undefined && owner !== identity.user) throw permissionDenied(`No access to ${joinUri(segments)}`);
}
