/**
 * Recall through the tiers of openviking-api.md §2.2: the context face
 * (`search/search`, mode `context`, with the session id so the server can
 * expand the query and skip what it injected in recent turns), else the
 * deprecated `search/recall`, else two raw finds ranked here.
 *
 * The common path is ONE round trip. A tier falls through only when the
 * server says it does not have it (a validation error naming the
 * context-face fields, or a missing route); that decision is cached per
 * server URL for an hour (tierCache.ts). Any other failure (down, slow,
 * 401, 500) ends the run at once: the next tier would fail the same way and
 * the prompt is waiting.
 *
 * No file here: the caller reads what is known (the tier to start with, the
 * cached user space; known.ts) when it plans, and writes what this run
 * learned (`RecallRun.learned`) after its answer.
 *
 * Earlier ids (DESIGN D24): under `peer_scope: actor` a project whose
 * memories were also written under other ids (this plugin's `git-…` ids,
 * OpenViking's plugins' first one) asks for them too, in parallel, each
 * request speaking as that id; the answers merge by URI. Actor scope applies
 * no other-peer penalty, so every answer's scores are the server's own for
 * the same query: a URI found twice keeps its higher score, the merged list
 * is ordered by score and cut to `recallLimit`. Any answer with memories is
 * enough; when none has any, the project's own answer stands. Another
 * project's memories never reach the block, under either scope
 * (projectScope.ts); when one of them outscores all of the project's by a
 * margin, the prompt is about that project and nothing is injected
 * (otherProject.ts). The candidates are then re-ranked here by what the
 * entries' text shares with the query, the project's own memories first
 * (rerank.ts), cut to `recallLimit`, and a tail scoring well below the
 * first memories is cut (tailMargin.ts, D43): no extra round trip. What
 * each tier's request holds is requests.ts's.
 *
 * @module
 */
import type { Credentials, Settings } from '../config/types.js';
import type { ContextEntry, OpenVikingClient, OvFailure, OvResult, ContextSearchResult } from '../openviking/types.js';
import { lookUpUserSpace } from '../openviking/userSpace.js';
import type { RecallKnown, RecallLearned } from './known.js';
import { isMemoryFolder } from './memoryFolder.js';
import { aboutAnotherProject } from './otherProject.js';
import { projectScope } from './projectScope.js';
import { rankFindItems } from './rank.js';
import { contextBody, isExcluded, peerFields, recallBody } from './requests.js';
import { anchoredEnough, relevantEnough } from './relevanceGate.js';
import { rerank } from './rerank.js';
import { trimTail } from './tailMargin.js';
import type { RecallTier } from './tierCache.js';
import type { RecallOutcome, RecalledItem } from './types.js';

export interface RecallRequest {
  client: OpenVikingClient;
  settings: Pick<
    Settings,
    | 'scoreThreshold'
    | 'recallMinRelevance'
    | 'recallMaxTokens'
    | 'recallDedupTurns'
    | 'recallLimit'
    | 'recallMaxContentChars'
    | 'recallPeerScope'
    | 'recallOtherPeerPenalty'
    | 'recallExcludeUris'
  >;
  credentials: Pick<Credentials, 'baseUrl' | 'apiKey' | 'account' | 'user'>;
  /** What the caches said when the recall was planned (known.ts `readRecallKnown`). */
  known: RecallKnown;
  /** `cb-…`, or '' when unknown (then no session-aware features). */
  ovSessionId: string;
  query: string;
  /** The project's peer (DESIGN D24), sent by the client as `X-OpenViking-Actor-Peer`; scopes and penalises other projects' memories. */
  actorPeer?: string;
  /** Under `peer_scope: actor`: the project's earlier ids, each with a client speaking as it. */
  earlierPeers?: ReadonlyArray<{ peer: string; client: OpenVikingClient }>;
  /** The project's earlier ids, looked up only when an answer holds another peer's memory (projectScope.ts). */
  earlierPeerIds?: () => readonly string[];
}

/** Fields only a context-face server knows; a legacy server names them in its 400. */
const CONTEXT_FIELDS = /\b(?:mode|purpose|dedup_turns|max_tokens|session_id|query_expansion|quotas)\b/;
const UNKNOWN_FIELD = /extra|forbid|not permitted|unexpected|unrecognized|unknown field/i;

/** The most candidates a context search returns with `purpose: coding` (its quotas' total, openviking-api.md §2.2), all re-ranked. */
const SERVER_CANDIDATES = 10;

/** A run's outcome, and what it learned for the caches (written by the caller after its answer). */
export interface RecallRun {
  outcome: RecallOutcome;
  learned: RecallLearned;
}

export async function recallMemories(request: RecallRequest): Promise<RecallRun> {
  const learned: RecallLearned = {};
  const outcome = withoutExcluded(await recallByTier(request, learned), request.settings.recallExcludeUris);
  return { outcome: outcome.status === 'hits' ? forBlock(outcome, request) : outcome, learned };
}

/**
 * The hits the block shows: the server's candidates re-ranked (rerank.ts),
 * none when the best is below `recallMinRelevance` (relevanceGate.ts), at
 * most `recallLimit`, without a low tail (tailMargin.ts). The find tier
 * was ranked here already (rank.ts) and keeps its order.
 */
function forBlock(outcome: Extract<RecallOutcome, { status: 'hits' }>, request: RecallRequest): RecallOutcome {
  if (outcome.tier === 'find') return { ...outcome, items: trimTail(outcome.items) };
  const candidates = rerank(outcome.items, request.query);
  if (!relevantEnough(candidates, request.settings.recallMinRelevance) || !anchoredEnough(candidates, request.query))
    return { status: 'empty', tier: outcome.tier };
  const ranked = candidates.slice(0, request.settings.recallLimit);
  return {
    ...outcome,
    items: trimTail(
      ranked.map((entry) => entry.item),
      ranked.map((entry) => entry.relevance),
    ),
  };
}

/** The first tier the server supports answers (a tier it lacks goes into `learned`). */
async function recallByTier(request: RecallRequest, learned: RecallLearned): Promise<RecallOutcome> {
  const earlier = asksEarlierPeers(request) ? (request.earlierPeers ?? []) : [];
  let tier = request.known.tier;
  if (tier === 'context') {
    const answered = await askTier(request, earlier, 'context', (client) => client.searchContext(contextBody(request)));
    if (answered !== undefined) return answered;
    tier = learned.fallbackTier = 'recall';
  }
  if (tier === 'recall') {
    const answered = await askTier(request, earlier, 'recall', (client) => client.recall(recallBody(request)));
    if (answered !== undefined) return answered;
    learned.fallbackTier = 'find';
  }
  return findTier(
    request,
    earlier.map((entry) => entry.peer),
    learned,
  );
}

/** One tier's search for every peer, merged; undefined when the server says it has no such tier. */
async function askTier(
  request: RecallRequest,
  earlier: NonNullable<RecallRequest['earlierPeers']>,
  tier: 'context' | 'recall',
  call: (client: OpenVikingClient) => Promise<OvResult<ContextSearchResult>>,
): Promise<RecallOutcome | undefined> {
  const { own, others } = await askEveryPeer(request.client, earlier, call);
  if (!own.ok && isUnsupported(own)) return undefined;
  // Every candidate the server gave: the cut to `recallLimit` comes after the re-rank (forBlock).
  const limit = Math.max(request.settings.recallLimit, SERVER_CANDIDATES);
  const inScope = projectScope(request.actorPeer, request.earlierPeerIds);
  return mergeOutcomes(
    fromContextResult(tier, own, limit, inScope),
    others.map((other) => fromContextResult(tier, other, limit, inScope)),
    limit,
  );
}

/** `call` with the project's client and, in parallel, each earlier id's. */
async function askEveryPeer<T>(
  own: OpenVikingClient,
  earlier: NonNullable<RecallRequest['earlierPeers']>,
  call: (client: OpenVikingClient) => Promise<T>,
): Promise<{ own: T; others: T[] }> {
  const [ownResult, ...others] = await Promise.all([own, ...earlier.map((entry) => entry.client)].map(call));
  return { own: ownResult as T, others };
}

/** Whether this recall also asks for the project's earlier ids: only under actor scope (under `all` the server's sweep reaches them). */
function asksEarlierPeers(request: RecallRequest): boolean {
  return (
    request.earlierPeers !== undefined && request.earlierPeers.length > 0 && peerFields(request).peer_scope === 'actor'
  );
}

/** The project's own outcome, joined by the hits of its earlier ids (see the module comment). */
export function mergeOutcomes(own: RecallOutcome, earlier: readonly RecallOutcome[], limit: number): RecallOutcome {
  const withHits = [own, ...earlier].filter(
    (outcome): outcome is Extract<RecallOutcome, { status: 'hits' }> => outcome.status === 'hits',
  );
  if (withHits.length === 0 || (withHits.length === 1 && withHits[0] === own)) return own;
  const best = new Map<string, { item: RecalledItem; order: number }>();
  let order = 0;
  for (const item of withHits.flatMap((outcome) => outcome.items)) {
    const seen = best.get(item.uri);
    if (seen === undefined) best.set(item.uri, { item, order: order++ });
    else if ((item.score ?? -Infinity) > (seen.item.score ?? -Infinity))
      best.set(item.uri, { item, order: seen.order });
  }
  const items = [...best.values()]
    .sort((a, b) => (b.item.score ?? -Infinity) - (a.item.score ?? -Infinity) || a.order - b.order)
    .slice(0, limit)
    .map((entry) => entry.item);
  return { status: 'hits', tier: own.tier, items };
}

function withoutExcluded(outcome: RecallOutcome, excluded: readonly string[]): RecallOutcome {
  if (outcome.status !== 'hits' || excluded.length === 0) return outcome;
  const items = outcome.items.filter((item) => !isExcluded(item.uri, excluded));
  return items.length === 0 ? { status: 'empty', tier: outcome.tier } : { ...outcome, items };
}

/** True when the failure says "this server has no such tier" rather than "this call failed". */
export function isUnsupported(failure: OvFailure): boolean {
  if (failure.status === 404 || failure.status === 405 || failure.status === 501) return true;
  if (failure.status !== 400 && failure.status !== 422) return false;
  const text = `${failure.message} ${JSON.stringify(failure.details ?? {})}`;
  return CONTEXT_FIELDS.test(text) && UNKNOWN_FIELD.test(text);
}

function fromContextResult(
  tier: RecallTier,
  result: OvResult<ContextSearchResult>,
  limit: number,
  inScope: (uri: string) => boolean,
): RecallOutcome {
  if (!result.ok) return { status: 'failed', tier, failure: result };
  if (result.result.stats?.rewrite === 'no_relevant') return { status: 'empty', tier };
  if (aboutAnotherProject(result.result.entries, inScope)) return { status: 'empty', tier };
  const items = result.result.entries
    .filter((entry) => !isMemoryFolder(entry.uri) && inScope(entry.uri))
    .slice(0, limit)
    .map(fromEntry);
  return items.length === 0 ? { status: 'empty', tier } : { status: 'hits', tier, items };
}

function fromEntry(entry: ContextEntry): RecalledItem {
  return {
    uri: entry.uri,
    text: entry.text ?? '',
    ...(entry.category !== undefined ? { category: entry.category } : {}),
    ...(entry.score !== undefined ? { score: entry.score } : {}),
  };
}

async function findTier(
  request: RecallRequest,
  earlierPeers: readonly string[],
  learned: RecallLearned,
): Promise<RecallOutcome> {
  const { client, settings, query } = request;
  let space = request.known.space;
  if (space === undefined) {
    space = await lookUpUserSpace(client);
    if (space !== undefined) learned.space = space;
  }
  if (space === undefined)
    return {
      status: 'failed',
      tier: 'find',
      failure: {
        ok: false,
        status: 0,
        code: 'NO_USER_SPACE',
        message: 'user space could not be resolved',
        retryable: true,
      },
    };
  const limit = Math.max(2 * settings.recallLimit, 8);
  const find = (folder: string) =>
    client.find({ query, target_uri: `viking://user/${space}/${folder}`, limit, score_threshold: 0 });
  // The project's own memories too, under its earlier ids as well (DESIGN D24); another project's are not searched at all on this tier.
  const ownPeers = request.actorPeer ? [request.actorPeer, ...earlierPeers] : [];
  const folders = ['memories', 'skills', ...ownPeers.map((peer) => `peers/${peer}/memories`)];
  const results = await Promise.all(folders.map(find));
  const answered = results.flatMap((result) => (result.ok ? [result.result] : []));
  if (answered.length === 0)
    return {
      status: 'failed',
      tier: 'find',
      failure: results.find((result): result is OvFailure => !result.ok) as OvFailure,
    };
  const items = rankFindItems(answered, {
    query,
    scoreThreshold: settings.scoreThreshold,
    limit: settings.recallLimit,
    maxContentChars: settings.recallMaxContentChars,
  });
  return items.length === 0 ? { status: 'empty', tier: 'find' } : { status: 'hits', tier: 'find', items };
}
