/**
 * The server and identity a write belongs to (DESIGN D33, issue 29 item 6).
 * Conversation text captured while one server and identity were configured
 * goes there or waits: a turn queued while server A was down must never go
 * to server B configured later, nor to another user or account of A (work
 * and personal servers, two accounts). So every queued write and every
 * in-flight batch records its target, and replay sends it only while the
 * configuration names the same one.
 *
 * A target is the server (`config/credentials.ts` `serverIdentity`: any
 * loopback name counts as one host, D6), the account, the user and the API
 * key, folded into an opaque `id` (16 hex of a 64-bit hash: the key itself
 * is never stored; store/fastHash.ts), plus what doctor may show: the
 * server without user info, the account and the user.
 *
 * @module
 */
import { serverIdentity } from '../config/credentialCandidates.js';
import type { Credentials } from '../config/types.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { hash64Hex } from '../store/fastHash.js';
import type { QueueTarget } from '../store/queueFiles.js';

export type WriteTarget = QueueTarget;

/** The target the configuration names now. */
export function writeTargetOf(credentials: Pick<Credentials, 'baseUrl' | 'account' | 'user' | 'apiKey'>): WriteTarget {
  const account = credentials.account?.trim() || undefined;
  const user = credentials.user?.trim() || undefined;
  const id = hash64Hex(
    [
      'openviking-write-target',
      serverIdentity(credentials.baseUrl),
      account ?? '',
      user ?? '',
      credentials.apiKey ?? '',
    ].join('\n'),
  );
  return {
    id,
    server: displayUrl(credentials.baseUrl, true),
    ...(account !== undefined ? { account } : {}),
    ...(user !== undefined ? { user } : {}),
  };
}

/** `https://ov.example.com as account acme, user alice` (never a key). */
export function describeTarget(target: WriteTarget): string {
  const who = [
    target.account !== undefined ? `account ${target.account}` : '',
    target.user !== undefined ? `user ${target.user}` : '',
  ].filter(Boolean);
  return who.length === 0 ? target.server : `${target.server} as ${who.join(', ')}`;
}

/** Why `queued` is not `now`, in words (the same server and identity under another key included). */
export function otherTargetText(queued: WriteTarget, now: WriteTarget): string {
  const sameNames = describeTarget(queued) === describeTarget(now);
  return sameNames
    ? `queued for ${describeTarget(queued)} with another API key than the one configured now`
    : `queued for ${describeTarget(queued)}; the configuration names ${describeTarget(now)} now`;
}
