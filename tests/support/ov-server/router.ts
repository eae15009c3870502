/**
 * Route table vocabulary: a route is (method, path template, auth kind,
 * handler), a handler is a function of the request context returning a
 * reply, and the helpers that read query parameters with FastAPI-shaped 400s.
 * Matching distinguishes an unknown path (404) from a known path with the
 * wrong method (405).
 *
 * @module
 */
import type { Identity } from './types.js';
import type { ServerState } from './state.js';
import type { HeaderBag, RouteAuth } from './auth.js';
import { okEnvelope } from './errors.js';
import { validationError } from './validation.js';

export type Method = 'GET' | 'POST' | 'DELETE' | 'PATCH';

export interface RequestContext {
  state: ServerState;
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: HeaderBag;
  body: unknown;
  /** The resolved caller; a placeholder ROOT identity on `auth: 'none'` routes. */
  identity: Identity;
  /** Records which fault shaped this answer in the request log. */
  markFault(fault: 'legacy' | 'no-recall'): void;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  method: Method;
  pattern: RegExp;
  auth: RouteAuth;
  handler: Handler;
}

/** `'/api/v1/sessions/{session_id}'` → a route whose params carry `session_id`. */
export function route(method: Method, template: string, auth: RouteAuth, handler: Handler): Route {
  const source = template.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_match, name: string) => `(?<${name}>[^/]+)`);
  return { method, pattern: new RegExp(`^${source}$`), auth, handler };
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { missing: 404 | 405; allow: string[] };

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const onPath = routes
    .map((candidate) => ({ candidate, match: candidate.pattern.exec(path) }))
    .filter((hit): hit is { candidate: Route; match: RegExpExecArray } => hit.match !== null);
  const hit = onPath.find(({ candidate }) => candidate.method === method);
  if (hit !== undefined) {
    const params = Object.fromEntries(
      Object.entries(hit.match.groups ?? {}).map(([key, value]) => [key, decodeSegment(value)]),
    );
    return { route: hit.candidate, params };
  }
  return { missing: onPath.length === 0 ? 404 : 405, allow: onPath.map(({ candidate }) => candidate.method) };
}

/** Percent-decodes a path segment; a malformed escape stays as sent. */
function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // malformed percent-escape: keep the raw segment
    return value;
  }
}

/** A 200 `{status:"ok", result, error: null, telemetry: null, profile: null}` reply (errors.ts `okEnvelope`). */
export function ok(result: unknown, headers?: Record<string, string>): Reply {
  return headers === undefined
    ? { status: 200, body: okEnvelope(result) }
    : { status: 200, body: okEnvelope(result), headers };
}

/** A 200 `{status:"ok", result}` reply: a route 0.5.2 dumps with `exclude_none`. */
export function okCompact(result: unknown, headers?: Record<string, string>): Reply {
  return headers === undefined
    ? { status: 200, body: okEnvelope(result, true) }
    : { status: 200, body: okEnvelope(result, true), headers };
}

export function requireQuery(ctx: RequestContext, name: string): string {
  const value = ctx.query[name];
  if (value === undefined)
    throw validationError([{ loc: ['query', name], message: 'Field required', type: 'missing' }]);
  return value;
}

export function queryBool(ctx: RequestContext, name: string, fallback: boolean): boolean {
  const value = ctx.query[name]?.toLowerCase();
  if (value === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw validationError([{ loc: ['query', name], message: 'Input should be a valid boolean', type: 'bool_parsing' }]);
}

export function queryInt(ctx: RequestContext, name: string, fallback: number): number {
  const value = ctx.query[name];
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value.trim())) {
    throw validationError([{ loc: ['query', name], message: 'Input should be a valid integer', type: 'int_parsing' }]);
  }
  return Number.parseInt(value, 10);
}
