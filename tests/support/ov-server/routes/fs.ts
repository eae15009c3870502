/**
 * Filesystem and content routes (contract §2.3): `GET /api/v1/fs/ls` with
 * its query parameters, `GET /api/v1/content/{read,abstract,overview}`.
 *
 * @module
 */
import { listEntries, readText } from '../fsops.js';
import { invalidArgument, notFound } from '../errors.js';
import { ok, queryBool, queryInt, requireQuery, route, type RequestContext, type Route } from '../router.js';
import { resolveRequestUri } from '../uri.js';
import { OVERVIEW_CHARS } from '../retrieval.js';

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
  route('GET', '/api/v1/fs/ls', 'tenant', (ctx) =>
    ok(
      listEntries(ctx.state, ctx.identity, uriParam(ctx), {
        recursive: queryBool(ctx, 'recursive', false),
        output: lsOutput(ctx),
        absLimit: queryInt(ctx, 'abs_limit', 256),
        nodeLimit: queryInt(ctx, 'node_limit', queryInt(ctx, 'limit', 1000)),
        simple: queryBool(ctx, 'simple', false),
        showAllHidden: queryBool(ctx, 'show_all_hidden', false),
      }),
    ),
  ),
  route('GET', '/api/v1/content/read', 'tenant', (ctx) => {
    queryBool(ctx, 'raw', false);
    return ok(readText(ctx.state, ctx.identity, uriParam(ctx), queryInt(ctx, 'offset', 0), queryInt(ctx, 'limit', -1)));
  }),
  route('GET', '/api/v1/content/abstract', 'tenant', (ctx) => ok(fileOf(ctx).abstract)),
  route('GET', '/api/v1/content/overview', 'tenant', (ctx) => ok(fileOf(ctx).content.slice(0, OVERVIEW_CHARS))),
];
