/**
 * Retrieval routes (contract §2.2): `/search/search` in list and context
 * mode with the mode rules, the deprecated `/search/recall` (folded onto
 * the context face, `Deprecation` headers), `/search/find`, plus grep and
 * glob. The `legacyContextFace` and `noRecallRoute` faults live here.
 *
 * @module
 */
import { OvError } from '../errors.js';
import { parseOrThrow, validationError, bodyIssue } from '../validation.js';
import { ok, okCompact, route, type RequestContext, type Route } from '../router.js';
import { resolveRequestUri } from '../uri.js';
import { findResult, rankCandidates } from '../retrieval.js';
import { defaultRoots, visibleToActor } from '../peers.js';
import { DEFAULT_LIMIT, DEFAULT_MAX_TOKENS, runContextSearch } from '../context-face.js';
import { globFiles, grepFiles } from '../fsops.js';
import {
  CONTEXT_ONLY_FIELDS,
  findSchema,
  globSchema,
  grepSchema,
  recallSchema,
  searchSchema,
} from '../search-schemas.js';
import type { Identity } from '../types.js';
import type { ServerState } from '../state.js';

/** Recall's default quotas when none are sent (`recall_preset.py`). */
export const RECALL_DEFAULT_QUOTAS = { events: 10, entities: 10, preferences: 3, experiences: 0 };

function rawKeys(body: unknown): string[] {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
}

/** A pre-context-face server: `mode` and every context-only field are unknown extras. */
function legacyRejection(ctx: RequestContext): OvError | undefined {
  const extras = rawKeys(ctx.body).filter(
    (key) => key === 'mode' || (CONTEXT_ONLY_FIELDS as readonly string[]).includes(key),
  );
  if (!ctx.state.faults.legacyContextFace || extras.length === 0) return undefined;
  ctx.markFault('legacy');
  return validationError(extras.map((key) => bodyIssue([key], 'Extra inputs are not permitted', 'extra_forbidden')));
}

/** Find-shaped result over `roots` (find, and search in list mode). */
export function listSearch(
  state: ServerState,
  identity: Identity,
  body: {
    query: string;
    target_uri?: string | string[] | undefined;
    limit?: number | undefined;
    node_limit?: number | null | undefined;
    score_threshold?: number | null | undefined;
    context_type?: string | string[] | null | undefined;
  },
): Record<string, unknown> {
  const targets = [body.target_uri ?? []].flat().filter((uri) => uri !== '');
  // No target: where 0.5.2 looks by default (a ROOT caller: the whole account, no actor view; peers.ts).
  const candidates =
    targets.length === 0
      ? rankCandidates(state.vfs, identity.account, body.query, defaultRoots(identity, identity.actorPeer, false))
      : visibleToActor(
          rankCandidates(
            state.vfs,
            identity.account,
            body.query,
            targets.map((uri) => resolveRequestUri(uri, identity)),
          ),
          identity,
          identity.actorPeer,
        );
  const contextTypes =
    body.context_type === null || body.context_type === undefined ? undefined : [body.context_type].flat();
  return findResult(
    candidates,
    body.node_limit ?? body.limit ?? DEFAULT_LIMIT,
    body.score_threshold ?? undefined,
    contextTypes,
  );
}

function search(ctx: RequestContext): ReturnType<typeof ok> {
  const legacy = legacyRejection(ctx);
  if (legacy !== undefined) throw legacy;
  const body = parseOrThrow(searchSchema, ctx.body ?? {});
  const sent = rawKeys(ctx.body);
  if (body.mode === 'context' && sent.includes('target_uri')) {
    throw validationError([bodyIssue(['target_uri'], "Value error, target_uri is not supported when mode='context'")]);
  }
  if (body.mode === 'list') {
    const misplaced = CONTEXT_ONLY_FIELDS.filter((field) => sent.includes(field));
    if (misplaced.length > 0)
      throw validationError(
        misplaced.map((field) => bodyIssue([field], `Value error, ${field} requires mode='context'`)),
      );
    return okCompact(listSearch(ctx.state, ctx.identity, body));
  }
  return okCompact(
    runContextSearch(ctx.state, ctx.identity, {
      query: body.query,
      sessionId: body.session_id ?? null,
      queryExpansion: body.query_expansion ?? 'auto',
      maxTokens: body.max_tokens ?? DEFAULT_MAX_TOKENS,
      quotas: body.quotas ?? null,
      purpose: body.purpose ?? null,
      limit: body.node_limit ?? body.limit ?? DEFAULT_LIMIT,
      detail: body.detail ?? 'auto',
      dedupTurns: body.dedup_turns ?? 0,
      excludeUris: (body.exclude_uris ?? []).map((uri) => resolveRequestUri(uri, ctx.identity)),
      scoreThreshold: body.score_threshold ?? undefined,
      rewrite: body.rewrite ?? false,
      rewriteMaxBullets: body.rewrite_max_bullets ?? 6,
      ignored: sent.includes('level') ? ['level'] : [],
      peerScope: body.peer_scope,
      otherPeerPenalty: body.other_peer_penalty,
    }),
  );
}

/** `stats.deprecated` of 0.5.2's recall: where to go instead, and which of its own names the request used. */
function deprecation(ctx: RequestContext): Record<string, unknown> {
  const aliases = ['max_chars', 'min_score', 'render'].filter((key) => rawKeys(ctx.body).includes(key));
  return {
    endpoint: '/api/v1/search/recall',
    successor: '/api/v1/search/search',
    successor_body: { mode: 'context' },
    aliases_used: aliases,
  };
}

function recall(ctx: RequestContext): ReturnType<typeof ok> {
  if (ctx.state.faults.noRecallRoute) {
    ctx.markFault('no-recall');
    throw new OvError('NOT_FOUND', 'Not Found').asResponse();
  }
  const body = parseOrThrow(recallSchema, ctx.body);
  const hasSession = typeof body.session_id === 'string' && body.session_id !== '';
  const result = runContextSearch(ctx.state, ctx.identity, {
    query: body.query,
    sessionId: body.session_id ?? null,
    queryExpansion: body.query_expansion ?? 'auto',
    maxTokens: body.max_tokens ?? Math.max(64, Math.floor((body.max_chars ?? 6500) / 4)),
    quotas: body.quotas ?? (body.purpose === undefined || body.purpose === null ? RECALL_DEFAULT_QUOTAS : null),
    purpose: body.purpose ?? 'coding',
    limit: DEFAULT_LIMIT,
    detail: body.detail ?? 'auto',
    dedupTurns: body.dedup_turns ?? (hasSession ? 5 : 0),
    excludeUris: (body.exclude_uris ?? []).map((uri) => resolveRequestUri(uri, ctx.identity)),
    scoreThreshold: body.score_threshold ?? body.min_score ?? 0.1,
    rewrite: body.rewrite ?? false,
    rewriteMaxBullets: body.rewrite_max_bullets ?? 6,
    ignored: [],
    peerScope: body.peer_scope,
    otherPeerPenalty: body.other_peer_penalty,
  });
  const rendered = body.render === false ? '' : result['rendered'];
  return okCompact(
    { ...result, rendered, stats: { ...(result['stats'] as Record<string, unknown>), deprecated: deprecation(ctx) } },
    { Deprecation: 'true', Link: '</api/v1/search/search>; rel="successor-version"' },
  );
}

export const searchRoutes: readonly Route[] = [
  route('POST', '/api/v1/search/search', 'tenant', search),
  route('POST', '/api/v1/search/recall', 'tenant', recall),
  route('POST', '/api/v1/search/find', 'tenant', (ctx) =>
    okCompact(listSearch(ctx.state, ctx.identity, parseOrThrow(findSchema, ctx.body ?? {}))),
  ),
  route('POST', '/api/v1/search/grep', 'tenant', (ctx) => {
    const body = parseOrThrow(grepSchema, ctx.body);
    const matches = grepFiles(
      ctx.state,
      ctx.identity,
      resolveRequestUri(body.uri, ctx.identity),
      [body.pattern].flat(),
      body.case_insensitive,
      body.node_limit,
    );
    return ok({ matches, count: matches.length });
  }),
  route('POST', '/api/v1/search/glob', 'tenant', (ctx) => {
    const body = parseOrThrow(globSchema, ctx.body);
    const matches = globFiles(
      ctx.state,
      ctx.identity,
      body.pattern,
      resolveRequestUri(body.uri, ctx.identity),
      body.node_limit,
    );
    return ok({ matches, count: matches.length });
  }),
];
