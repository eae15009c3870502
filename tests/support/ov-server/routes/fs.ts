/**
 * Filesystem and content routes (contract §2.3): `GET /api/v1/fs/ls` with
 * its query parameters (and 0.5.2's top-level `has_more`),
 * `GET /api/v1/content/{read,abstract,overview}`, and
 * `POST /api/v1/content/write`, the write tests seed memories with on both
 * servers (docs/host-facts.md F40).
 *
 * @module
 */
import { z } from 'zod';
import { listEntries, readText, writeText } from '../fsops.js';
import { invalidArgument, notFound, okEnvelope } from '../errors.js';
import { ok, okCompact, queryBool, queryInt, requireQuery, route, type RequestContext, type Route } from '../router.js';
import { parseOrThrow } from '../validation.js';
import { resolveRequestUri, uriSegments } from '../uri.js';
import { OVERVIEW_CHARS } from '../retrieval.js';

const writeSchema = z.object({
  uri: z.string(),
  content: z.string(),
  mode: z.enum(['replace', 'append', 'create']).default('replace'),
  wait: z.boolean().default(false),
});

function contextTypeOf(uri: string): string {
  const segments = uriSegments(uri);
  if (segments.includes('memories')) return 'memory';
  return segments.includes('skills') ? 'skill' : 'resource';
}

function uriParam(ctx: RequestContext): string {
  return resolveRequestUri(requireQuery(ctx, 'uri'), ctx.identity);
}

function lsOutput(ctx: RequestContext): 'agent' | 'original' {
  const output = ctx.query['output'] ?? 'agent';
  if (output !== 'agent' && output !== 'original') throw invalidArgument(`Invalid output: ${output} (agent|original)`);
  return output;
}

function fileOf(ctx: RequestContext): { abstract: string; content: string } {
  const uri = uriParam(ctx);
  const file = ctx.state.vfs.read(ctx.identity.account, uri);
  if (file === undefined) throw notFound(`File not found: ${uri}`);
  return file;
}

export const fsRoutes: readonly Route[] = [
  route('GET', '/api/v1/fs/ls', 'tenant', (ctx) => {
    const entries = listEntries(ctx.state, ctx.identity, uriParam(ctx), {
      recursive: queryBool(ctx, 'recursive', false),
      output: lsOutput(ctx),
      absLimit: queryInt(ctx, 'abs_limit', 256),
      nodeLimit: queryInt(ctx, 'node_limit', queryInt(ctx, 'limit', 1000)),
      simple: queryBool(ctx, 'simple', false),
      showAllHidden: queryBool(ctx, 'show_all_hidden', false),
    });
    return { status: 200, body: { ...okEnvelope(entries), has_more: false } };
  }),
  route('GET', '/api/v1/content/read', 'tenant', (ctx) => {
    queryBool(ctx, 'raw', false);
    return ok(readText(ctx.state, ctx.identity, uriParam(ctx), queryInt(ctx, 'offset', 0), queryInt(ctx, 'limit', -1)));
  }),
  route('GET', '/api/v1/content/abstract', 'tenant', (ctx) => ok(fileOf(ctx).abstract)),
  route('GET', '/api/v1/content/overview', 'tenant', (ctx) => ok(fileOf(ctx).content.slice(0, OVERVIEW_CHARS))),
  route('POST', '/api/v1/content/write', 'tenant', (ctx) => {
    const body = parseOrThrow(writeSchema, ctx.body ?? {});
    const uri = resolveRequestUri(body.uri, ctx.identity);
    const written = writeText(ctx.state, ctx.identity, uri, body.content, body.mode);
    return okCompact({
      uri,
      root_uri: uri.slice(0, uri.lastIndexOf('/')),
      context_type: contextTypeOf(uri),
      mode: body.mode,
      written_bytes: written.bytes,
      content_updated: true,
      semantic_status: 'skipped',
      vector_status: body.wait ? 'complete' : 'queued',
      overview_status: body.wait ? 'complete' : 'queued',
    });
  }),
];
