/**
 * Where a search looks, and what a peer's memories count for: 0.5.2's
 * `retrieve/context_assembler/gather.py` and `core/retrieval_targets.py`
 * (docs/host-facts.md F37, F38), on this server's keyword scores.
 *
 * - a message's `peer_id` attributes it; memories extracted at commit from
 *   a peer's messages go under `viking://user/<u>/peers/<peer>/memories/…`;
 * - origin of a hit, seen from the caller's user root: under its `peers/`,
 *   `actor_peer` for the request's `X-OpenViking-Actor-Peer`, else
 *   `other_peer`; anything else `self` (another user's memory too);
 * - the context face with quotas (`purpose` or `quotas`, the plugin's
 *   bodies): each category searches the caller's own folder and the actor
 *   peer's; `peer_scope:"all"` (default) also sweeps every peer, whose
 *   hits rank `other_peer_penalty` lower (per category; defaults below)
 *   but report their own score; `"actor"` sweeps none;
 * - a search without quotas, and find or list search without a target:
 *   a ROOT caller (every request in dev mode) sees the whole account,
 *   every user and peer, no actor view; a user or admin sees its own root
 *   and `viking://resources`, an actor only its own peer (plus the sweep
 *   under `"all"` in context mode);
 * - a target of find or list search is searched as given, an actor then
 *   seeing no other peer's folder.
 *
 * @module
 */
import type { Identity } from './types.js';
import type { Candidate } from './retrieval.js';
import { joinUri, uriSegments } from './uri.js';

export type Origin = 'actor_peer' | 'self' | 'other_peer';

/** 0.5.2's default `other_peer_penalty` per category (`params.py`). */
export const DEFAULT_OTHER_PEER_PENALTIES: Readonly<Record<string, number>> = {
  events: 0.1,
  entities: 0.1,
  preferences: 0.02,
  experiences: 0.02,
  resources: 0.02,
  skills: 0.02,
  memories: 0.1,
};

export interface PeerView {
  actorPeer?: string | undefined;
  scope: 'actor' | 'all';
  penalty?: number | Record<string, number> | null | undefined;
}

/** `<peer>` of `viking://user/<user>/peers/<peer>/…` of `user`, else undefined. */
function peerUnder(uri: string, user: string): string | undefined {
  const segments = uriSegments(uri);
  return segments[0] === 'user' && segments[1] === user && segments[2] === 'peers' ? (segments[3] ?? '') : undefined;
}

export function originOf(uri: string, identity: Pick<Identity, 'user'>, actorPeer: string | undefined): Origin {
  const peer = peerUnder(uri, identity.user);
  if (peer === undefined) return 'self';
  return actorPeer !== undefined && peer === actorPeer ? 'actor_peer' : 'other_peer';
}

/** The effective penalties, as `stats.other_peer_penalties` reports them. */
export function reportedPenalties(view: PeerView): Record<string, number> {
  const { penalty } = view;
  if (typeof penalty === 'number')
    return Object.fromEntries(Object.keys(DEFAULT_OTHER_PEER_PENALTIES).map((category) => [category, penalty]));
  return { ...DEFAULT_OTHER_PEER_PENALTIES, ...(penalty && typeof penalty === 'object' ? penalty : {}) };
}

const user = (identity: Identity, ...rest: string[]): string => joinUri(['user', identity.user, ...rest]);

/** Roots of a context search with quotas: the caller's own folders, the actor's peer, every peer under `all`. */
export function quotaRoots(identity: Identity, view: PeerView): string[] {
  return [
    user(identity, 'memories'),
    user(identity, 'resources'),
    user(identity, 'skills'),
    joinUri(['resources']),
    joinUri(['agent', 'skills']),
    ...(view.actorPeer !== undefined ? [user(identity, 'peers', view.actorPeer)] : []),
    ...(view.scope === 'all' ? [user(identity, 'peers')] : []),
  ];
}

/** Roots of a search without quotas or target (`default_target_directories`); `sweep`: the context face's peer sweep. */
export function defaultRoots(identity: Identity, actorPeer: string | undefined, sweep: boolean): string[] {
  if (identity.role === 'root') return ['viking://'];
  if (actorPeer === undefined) return [user(identity), joinUri(['resources'])];
  return [
    user(identity, 'memories'),
    user(identity, 'resources'),
    user(identity, 'skills'),
    user(identity, 'peers', actorPeer),
    joinUri(['resources']),
    ...(sweep ? [user(identity, 'peers')] : []),
  ];
}

/** Each candidate's origin and its ranking score (an other peer's lowered by its penalty); best first. */
export function ranked(candidates: Candidate[], identity: Identity, view: PeerView): Candidate[] {
  const penalties = reportedPenalties(view);
  return candidates
    .map((candidate) => {
      const origin = originOf(candidate.uri, identity, view.actorPeer);
      const penalty = origin === 'other_peer' ? (penalties[candidate.category] ?? 0) : 0;
      return { ...candidate, origin, rankedScore: candidate.score - penalty };
    })
    .sort((a, b) => b.rankedScore - a.rankedScore || (a.uri < b.uri ? -1 : 1));
}

/** Find and list search on an explicit target: an actor sees no other peer's folder. */
export function visibleToActor(
  candidates: Candidate[],
  identity: Identity,
  actorPeer: string | undefined,
): Candidate[] {
  return actorPeer === undefined
    ? candidates
    : candidates.filter((candidate) => originOf(candidate.uri, identity, actorPeer) !== 'other_peer');
}
