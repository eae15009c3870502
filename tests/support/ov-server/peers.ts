/**
 * Peer rules of the test server (openviking-api.md §1.2, §2.1, §2.2, §3),
 * so tests can prove that two projects' memories stay apart:
 *
 * - a message's `peer_id` attributes it; memories extracted at commit from
 *   a peer's messages go under `viking://user/<u>/peers/<peer>/memories/…`
 *   (messages without one: the user's own `memories/`);
 * - `X-OpenViking-Actor-Peer` (non-session routes) is the actor: its own
 *   peer's memories have origin `actor_peer`, the user's own `self`, any
 *   other peer's `other_peer`;
 * - context search: `peer_scope:"actor"` drops `other_peer` entries;
 *   `"all"` (default) keeps them with `other_peer_penalty` (a number or a
 *   per-category object; this server's default 0.2) taken off their score
 *   before the threshold and the ranking;
 * - list search and find: an actor sees its own peer's folder only (the
 *   "filtered peers/ view"); without an actor every peer is visible and no
 *   penalty applies.
 *
 * The real server's default penalties and extraction policy are not in the
 * contract; the numbers here are this server's own (README "Peers").
 *
 * @module
 */
import type { Candidate } from './retrieval.js';
import { uriSegments } from './uri.js';

export type Origin = 'actor_peer' | 'self' | 'other_peer';

/** This server's default `other_peer_penalty`. */
export const DEFAULT_OTHER_PEER_PENALTY = 0.2;

export interface PeerView {
  actorPeer?: string | undefined;
  scope: 'actor' | 'all';
  penalty?: number | Record<string, number> | null | undefined;
}

/** `<peer>` of `viking://user/<u>/peers/<peer>/…`, else undefined. */
export function peerOfUri(uri: string): string | undefined {
  const segments = uriSegments(uri);
  return segments[0] === 'user' && segments[2] === 'peers' ? segments[3] : undefined;
}

export function originOf(uri: string, actorPeer: string | undefined): Origin {
  const peer = peerOfUri(uri);
  if (peer === undefined) return 'self';
  return peer === actorPeer ? 'actor_peer' : 'other_peer';
}

function penaltyFor(view: PeerView, category: string): number {
  const { penalty } = view;
  if (typeof penalty === 'number') return penalty;
  if (penalty && typeof penalty === 'object') return penalty[category] ?? DEFAULT_OTHER_PEER_PENALTY;
  return DEFAULT_OTHER_PEER_PENALTY;
}

/** Context search: scope, then penalties, then re-ranked (best first, ties by URI). */
export function applyPeerView(candidates: Candidate[], view: PeerView): Candidate[] {
  if (view.actorPeer === undefined) return candidates;
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    const origin = originOf(candidate.uri, view.actorPeer);
    if (origin !== 'other_peer') kept.push(candidate);
    else if (view.scope === 'all') {
      const score = Math.max(0, Math.round((candidate.score - penaltyFor(view, candidate.category)) * 10000) / 10000);
      kept.push({ ...candidate, score });
    }
  }
  return kept.sort((a, b) => b.score - a.score || (a.uri < b.uri ? -1 : 1));
}

/** List search and find: an actor sees no other peer's folder. */
export function visibleToActor(candidates: Candidate[], actorPeer: string | undefined): Candidate[] {
  return actorPeer === undefined
    ? candidates
    : candidates.filter((candidate) => originOf(candidate.uri, actorPeer) !== 'other_peer');
}

/** `stats.other_peer_penalties` as reported. */
export function reportedPenalties(view: PeerView): Record<string, number> {
  if (view.actorPeer === undefined || view.scope === 'actor') return {};
  const categories = ['events', 'entities', 'preferences', 'experiences', 'resources', 'skills'];
  return Object.fromEntries(categories.map((category) => [category, penaltyFor(view, category)]));
}
