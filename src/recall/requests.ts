/**
 * What each recall tier sends (openviking-api.md §2.2): the context face's
 * body, the deprecated `search/recall` body, and the fields both share (the
 * project's peer scope, the excluded URIs). The tiers themselves, and when
 * one falls through to the next, are cascade.ts's; this file only says what
 * a request holds, so the two bodies cannot drift apart. Pure.
 *
 * @module
 */
import type { Settings } from '../config/types.js';
import type { ContextSearchBody } from '../openviking/types.js';

/** The part of a recall request the bodies are built from. */
export interface TierQuery {
  settings: Pick<
    Settings,
    | 'scoreThreshold'
    | 'recallMaxTokens'
    | 'recallDedupTurns'
    | 'recallLimit'
    | 'recallMaxContentChars'
    | 'recallPeerScope'
    | 'recallOtherPeerPenalty'
    | 'recallExcludeUris'
  >;
  /** `cb-…`, or '' when unknown (then no session-aware fields). */
  ovSessionId: string;
  query: string;
  /** The project's peer (DESIGN D24); absent or '' when the request speaks for no project. */
  actorPeer?: string;
}

/** Recall's reference quotas for the deprecated route (openviking-api.md §2.2 tier 2). */
const RECALL_ROUTE_QUOTAS = { events: 5, entities: 4, preferences: 1, experiences: 0 };

/** The context-face body; optional fields only when they mean something. */
export function contextBody(request: TierQuery): ContextSearchBody {
  const { settings, ovSessionId, query } = request;
  const body: ContextSearchBody = {
    query,
    mode: 'context',
    purpose: 'coding',
    score_threshold: settings.scoreThreshold,
    max_tokens: settings.recallMaxTokens,
  };
  if (ovSessionId !== '') {
    body.session_id = ovSessionId;
    if (settings.recallDedupTurns > 0) body.dedup_turns = settings.recallDedupTurns;
  }
  return { ...body, ...peerFields(request), ...excludeFields(settings) };
}

/** `peer_scope` / `other_peer_penalty` when the request speaks for a project (openviking-api.md §2.2). */
export function peerFields(request: Pick<TierQuery, 'settings' | 'actorPeer'>): {
  peer_scope?: 'actor' | 'all';
  other_peer_penalty?: number;
} {
  if (request.actorPeer === undefined || request.actorPeer === '') return {};
  if (request.settings.recallPeerScope.trim().toLowerCase() === 'actor') return { peer_scope: 'actor' };
  return { peer_scope: 'all', other_peer_penalty: request.settings.recallOtherPeerPenalty };
}

/** The server takes at most 200 excluded URIs. */
function excludeFields(settings: Pick<Settings, 'recallExcludeUris'>): { exclude_uris?: string[] } {
  return settings.recallExcludeUris.length === 0 ? {} : { exclude_uris: settings.recallExcludeUris.slice(0, 200) };
}

/** True when `uri` is one of `excluded` or below one of them (also applied here: the find tier has no server-side exclusion). */
export function isExcluded(uri: string, excluded: readonly string[]): boolean {
  return excluded.some((entry) => {
    const base = entry.replace(/\/+$/, '');
    return base !== '' && (uri === base || uri.startsWith(`${base}/`));
  });
}

export function recallBody(request: TierQuery) {
  const { settings, query } = request;
  return {
    query,
    quotas: RECALL_ROUTE_QUOTAS,
    max_chars: Math.max(settings.recallMaxContentChars * settings.recallLimit, 1000),
    min_score: settings.scoreThreshold,
    render: false,
    ...peerFields(request),
    ...excludeFields(settings),
  };
}
