/**
 * HTTP plumbing: one function handles every request. It reads the body,
 * logs the request, validates and echoes `X-Request-ID`, applies faults,
 * hands `/mcp` to the MCP endpoint, matches a route (404/405 as Starlette
 * maps them), resolves identity, parses JSON, runs the handler and writes
 * the envelope with `X-Process-Time`. Handler throws become error
 * envelopes; nothing escapes as an unhandled rejection.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Identity, LoggedRequest } from './types.js';
import type { ServerState } from './state.js';
import type { HeaderBag } from './auth.js';
import { resolveIdentity } from './auth.js';
import { OvError, errorEnvelope } from './errors.js';
import { validationError } from './validation.js';
import { matchRoute, type Reply, type RequestContext, type Route } from './router.js';
import { ensureHome } from './fsops.js';
import { handleMcp } from './mcp.js';
import { hostileCopy, makeHostile } from './hostile.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const PLACEHOLDER_IDENTITY: Identity = { account: 'default', user: 'default', role: 'root' };

export async function dispatch(
  state: ServerState,
  routes: readonly Route[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const startedAt = state.now();
  const rawBody = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers = flattenHeaders(req);
  const entry = state.log.open({
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    rawBody,
    body: parseJson(rawBody),
    startedAt,
  });
  res.on('finish', () => {
    entry.status = res.statusCode;
    entry.durationMs = state.now() - startedAt;
  });
  const requestId = checkRequestId(req);
  res.setHeader('X-Request-ID', typeof requestId === 'string' ? requestId : randomUUID());
  if (requestId instanceof OvError) return writeReply(res, errorReply(requestId), startedAt, state);

  const fault = state.faults.decide(entry.method, entry.path);
  if (fault.latencyMs > 0) await delay(fault.latencyMs);
  if (fault.hang === true) {
    entry.fault = 'hang';
    return;
  }
  if (fault.error !== undefined) {
    entry.fault = 'error';
    return writeReply(res, errorReply(fault.error), startedAt, state);
  }
  if (fault.latencyMs > 0) entry.fault = 'latency';
  entry.handledAt = state.now();
  if (entry.path === '/mcp') {
    if (fault.reset === true) return resetMidResponse(res, entry, { status: 200, body: { jsonrpc: '2.0' } });
    if (state.faults.hostileText) makeHostile(res);
    return handleMcp(state, req, res, headers, rawBody);
  }
  const reply = await runRoute(state, routes, entry, headers, rawBody);
  if (fault.reset === true) return resetMidResponse(res, entry, reply);
  writeReply(res, reply, startedAt, state);
}

async function runRoute(
  state: ServerState,
  routes: readonly Route[],
  entry: LoggedRequest,
  headers: HeaderBag,
  rawBody: string,
): Promise<Reply> {
  const match = matchRoute(routes, entry.method, entry.path);
  if ('missing' in match) {
    if (match.missing === 404) return errorReply(new OvError('NOT_FOUND', 'Not Found').asResponse());
    return {
      ...errorReply(new OvError('UNKNOWN', 'Method Not Allowed', undefined, 405).asResponse()),
      headers: { Allow: match.allow.join(', ') },
    };
  }
  try {
    const identity =
      match.route.auth === 'none'
        ? PLACEHOLDER_IDENTITY
        : resolveIdentity(state.auth, headers, entry.path, match.route.auth);
    if (match.route.auth !== 'none') ensureHome(state, identity);
    const ctx: RequestContext = {
      state,
      method: entry.method,
      path: entry.path,
      params: match.params,
      query: entry.query,
      headers,
      body: bodyFor(entry, rawBody),
      identity,
      markFault: (fault) => {
        entry.fault = fault;
      },
    };
    return await match.route.handler(ctx);
  } catch (error) {
    return errorReply(
      error instanceof OvError ? error : new OvError('INTERNAL', 'Internal server error', { cause: String(error) }),
    );
  }
}

/** Parsed JSON body of a write method; throws the `json_invalid` 400 for bad JSON. */
function bodyFor(entry: LoggedRequest, rawBody: string): unknown {
  if (entry.method === 'GET' || rawBody.trim() === '') return undefined;
  if (entry.body === undefined)
    throw validationError([{ loc: ['body', 0], message: 'JSON decode error', type: 'json_invalid' }]);
  return entry.body;
}

function errorReply(error: OvError): Reply {
  return { status: error.status, body: errorEnvelope(error.code, error.message, error.details, error.compact) };
}

function writeReply(res: ServerResponse, reply: Reply, startedAt: number, state: ServerState): void {
  const text = JSON.stringify(state.faults.hostileText ? hostileCopy(reply.body) : reply.body);
  res.writeHead(reply.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'X-Process-Time': String((state.now() - startedAt) / 1000),
    ...reply.headers,
  });
  res.end(text);
}

/** Writes the headers and the first half of the body, then destroys the socket. */
function resetMidResponse(res: ServerResponse, entry: LoggedRequest, reply: Reply): void {
  entry.fault = 'reset';
  const text = Buffer.from(JSON.stringify(reply.body));
  res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Content-Length': text.length, ...reply.headers });
  res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
}

/** The sent `X-Request-ID`, undefined when absent, or the 400 when invalid or repeated. */
function checkRequestId(req: IncomingMessage): string | undefined | OvError {
  const values = req.headersDistinct['x-request-id'];
  if (values === undefined) return undefined;
  const [value] = values;
  if (values.length === 1 && value !== undefined && REQUEST_ID.test(value)) return value;
  return new OvError(
    'INVALID_ARGUMENT',
    'Invalid X-Request-ID: 1-128 characters of [A-Za-z0-9._:-], sent once',
  ).asResponse();
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headersDistinct).map(([name, values]) => [name, (values ?? []).join(', ')]),
  );
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // not JSON: the route decides whether that is an error (bodyFor)
    return undefined;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
