/**
 * The context face (`mode:"context"`, also behind `/search/recall` and the
 * MCP `search` tool): resolves quotas from `purpose`, auto-creates the
 * session when expansion or dedup needs it, applies the per-session dedup
 * ledger (one turn = one message; a URI injected at turn t is cooled while
 * `turn - t < dedup_turns`; `stats.dedup.status` `new` until the ledger
 * holds something, then `ok`), searches where 0.5.2 does (peers.ts),
 * assembles entries and reports `stats`.
 *
 * @module
 */
import type { Identity } from './types.js';
import type { ServerState } from './state.js';
import { ensureSession } from './state.js';
import { PURPOSE_QUOTAS, assembleContext, rankCandidates, type AssembleOptions, type Quotas } from './retrieval.js';
import { defaultRoots, quotaRoots, ranked, reportedPenalties, type PeerView } from './peers.js';

export interface ContextQuery {
  query: string;
  sessionId?: string | null;
  queryExpansion: 'off' | 'auto';
  maxTokens: number;
  quotas: Quotas | null;
  purpose: 'chat' | 'coding' | null;
  limit: number;
  detail: AssembleOptions['detail'];
  dedupTurns: number;
  excludeUris: string[];
  scoreThreshold: number | undefined;
  rewrite: boolean | 'auto';
  rewriteMaxBullets: number;
  /** Request fields the context face ignores (reported in `stats.ignored`). */
  ignored: string[];
  /** `peer_scope` (default all) and `other_peer_penalty` (peers.ts). */
  peerScope?: PeerView['scope'] | undefined;
  otherPeerPenalty?: PeerView['penalty'];
}

export const DEFAULT_MAX_TOKENS = 1600;
export const DEFAULT_LIMIT = 10;

export function runContextSearch(
  state: ServerState,
  identity: Identity,
  request: ContextQuery,
): Record<string, unknown> {
  const wantsSession =
    typeof request.sessionId === 'string' &&
    request.sessionId !== '' &&
    (request.queryExpansion === 'auto' || request.dedupTurns > 0);
  const session = wantsSession ? ensureSession(state, identity, request.sessionId as string) : undefined;
  const turn = session?.all.length ?? 0;
  const cooled = new Set<string>();
  if (session !== undefined && request.dedupTurns > 0) {
    for (const entry of session.recallLog)
      if (turn - entry.turn < request.dedupTurns) for (const uri of entry.uris) cooled.add(uri);
  }
  const peerView: PeerView = {
    actorPeer: identity.actorPeer,
    scope: request.peerScope ?? 'all',
    penalty: request.otherPeerPenalty,
  };
  const quotas = request.quotas ?? (request.purpose === null ? null : PURPOSE_QUOTAS[request.purpose]);
  // With quotas each category keeps to the caller's folders; without, a ROOT caller sees the account (peers.ts).
  const roots =
    quotas === null
      ? defaultRoots(identity, identity.actorPeer, peerView.scope === 'all')
      : quotaRoots(identity, peerView);
  const candidates = ranked(rankCandidates(state.vfs, identity.account, request.query, roots), identity, peerView);
  const ledgerWasEmpty = session === undefined || session.recallLog.length === 0;
  const assembled = assembleContext(candidates, {
    maxTokens: request.maxTokens,
    quotas,
    limit: request.limit,
    scoreThreshold: request.scoreThreshold,
    detail: request.detail,
    excludeUris: request.excludeUris,
    cooled,
    rewrite: request.rewrite,
    rewriteMaxBullets: request.rewriteMaxBullets,
  });
  if (
    session !== undefined &&
    request.dedupTurns > 0 &&
    assembled.rewrite !== 'no_relevant' &&
    assembled.entries.length > 0
  ) {
    session.recallLog.push({ turn, uris: assembled.entries.map((entry) => entry.uri) });
  }
  const dedupStatus =
    request.dedupTurns === 0 ? 'off' : session === undefined ? 'no_session' : ledgerWasEmpty ? 'new' : 'ok';
  return {
    entries: assembled.entries,
    rendered: assembled.rendered,
    digest: assembled.digest,
    stats: {
      used_tokens: assembled.usedTokens,
      max_tokens: request.maxTokens,
      candidates: candidates.length,
      tier_counts: assembled.tierCounts,
      rewrite: assembled.rewrite,
      query_expansion: session === undefined || request.queryExpansion === 'off' ? 'off' : 'ok',
      planned_queries: [request.query],
      dedup: { turns: request.dedupTurns, status: dedupStatus, cooled: assembled.cooledCount, turn },
      purpose: request.purpose,
      score_threshold: request.scoreThreshold ?? null,
      other_peer_penalties: reportedPenalties(peerView),
      rewrite_usage: null,
      ...(request.ignored.length > 0 ? { ignored: request.ignored } : {}),
    },
  };
}
