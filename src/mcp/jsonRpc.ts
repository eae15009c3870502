/**
 * The host-facing half of the MCP stdio transport: newline-delimited
 * JSON-RPC 2.0, narrowed by hand.
 *
 * Why not the SDK's `StdioServerTransport`? It validates every line with the
 * SDK's zod schemas, and loading those costs start-up the host waits for:
 * measured here (Node 20, 25 runs, medians) `node -e 0` ≈ 99 ms, a bundle of
 * the SDK's stdio framing alone ≈ 162 ms, `Server` + `StdioServerTransport`
 * ≈ 189 ms. CodeBuddy waits for MCP servers before its first model request,
 * so the proxy answers `initialize` from this file and loads the SDK (for the
 * upstream side only) afterwards.
 *
 * @module
 */
import { isRecord, parseJson } from '../util/json.js';

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** What one stdin line turned out to be. */
export type IncomingMessage =
  | { kind: 'request'; request: JsonRpcRequest }
  | { kind: 'notification'; notification: JsonRpcNotification }
  /** A response to a server→client request; the proxy sends none, so these are ignored. */
  | { kind: 'response' }
  /** Unusable line; `id` is echoed when it could be recovered. */
  | { kind: 'invalid'; id: JsonRpcId | null; error: JsonRpcErrorObject };

/** JSON-RPC 2.0 and MCP error codes the proxy answers with. */
export const RpcErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  internalError: -32603,
  /** The reference proxy's code for auth failures and an unreachable server (openviking-api.md §4.2). */
  upstreamUnavailable: -32001,
  /** Any other HTTP error from `/mcp`. */
  upstreamHttp: -32002,
  /** The upstream answered nothing usable. */
  upstreamEmpty: -32003,
} as const;

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Classifies one line of stdin; never throws. Blank lines are the caller's to skip. */
export function parseMessage(line: string): IncomingMessage {
  const value = parseJson(line);
  // Not JSON at all: JSON-RPC's parse error, with a null id.
  if (value === undefined)
    return {
      kind: 'invalid',
      id: null,
      error: { code: RpcErrorCode.parseError, message: 'Parse error: the line is not JSON' },
    };
  if (!isRecord(value) || value.jsonrpc !== '2.0') {
    const id = isRecord(value) && isId(value.id) ? value.id : null;
    return {
      kind: 'invalid',
      id,
      error: { code: RpcErrorCode.invalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 object' },
    };
  }
  const params = value.params;
  if (params !== undefined && !isRecord(params)) {
    const id = isId(value.id) ? value.id : null;
    return {
      kind: 'invalid',
      id,
      error: { code: RpcErrorCode.invalidRequest, message: 'Invalid Request: params must be an object' },
    };
  }
  if (typeof value.method === 'string') {
    const body = params === undefined ? { method: value.method } : { method: value.method, params };
    if (value.id === undefined) return { kind: 'notification', notification: body };
    if (isId(value.id)) return { kind: 'request', request: { id: value.id, ...body } };
    return {
      kind: 'invalid',
      id: null,
      error: { code: RpcErrorCode.invalidRequest, message: 'Invalid Request: bad id' },
    };
  }
  if ('result' in value || 'error' in value) return { kind: 'response' };
  const id = isId(value.id) ? value.id : null;
  return { kind: 'invalid', id, error: { code: RpcErrorCode.invalidRequest, message: 'Invalid Request: no method' } };
}

/** One outgoing line (with its newline). */
export function resultLine(id: JsonRpcId, result: unknown): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`;
}

export function errorLine(id: JsonRpcId | null, error: JsonRpcErrorObject): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`;
}

export function notificationLine(notification: JsonRpcNotification): string {
  return `${JSON.stringify({ jsonrpc: '2.0', ...notification })}\n`;
}

/**
 * Splits a byte stream into lines. Chunks may cut lines (and UTF-8
 * sequences) anywhere; `\r\n` is accepted. Returns a function to feed chunks.
 */
export function createLineSplitter(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  return (chunk) => {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline).replace(/\r$/, '');
      pending = pending.slice(newline + 1);
      if (line.trim() !== '') onLine(line);
      newline = pending.indexOf('\n');
    }
  };
}
