/**
 * Why an upstream call failed, in the proxy's own terms, and the JSON-RPC
 * error the host (and through it, the model) reads for each case.
 *
 * The model sees these messages as the tool result, and the user sees them
 * in CodeBuddy's MCP status. So each one says what happened, where the
 * setting lives (the credential's recorded source, e.g.
 * `env:OPENVIKING_API_KEY` or `file:~/.openviking/ovcli.conf#api_key`) and
 * what to do. Codes follow the reference proxy (openviking-api.md §4.2). The
 * API key itself is never part of a message.
 *
 * @module
 */
import type { Credentials } from '../config/types.js';
import { RpcErrorCode, type JsonRpcErrorObject } from './jsonRpc.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { errorMessage } from '../util/errors.js';
import { parseJson } from '../util/json.js';

export type UpstreamFailure =
  /** `/mcp` answered with a non-2xx HTTP status. */
  | { kind: 'http'; status: number; serverMessage: string }
  /** The upstream answered with a JSON-RPC error: passed through as it is. */
  | { kind: 'rpc'; code: number; message: string; data?: unknown }
  /** No HTTP answer: refused, reset, DNS, TLS. */
  | { kind: 'network'; cause: string }
  | { kind: 'timeout'; timeoutMs: number }
  /** An answer that is not MCP (wrong content type, bad handshake). */
  | { kind: 'protocol'; message: string }
  /** The host cancelled the request, or the proxy is shutting down. */
  | { kind: 'cancelled' };

/** Carries an `UpstreamFailure` through promise rejections. */
export class UpstreamError extends Error {
  constructor(readonly failure: UpstreamFailure) {
    super(`upstream ${failure.kind} failure`);
    this.name = 'UpstreamError';
  }
}

export function isUpstreamError(error: unknown): error is UpstreamError {
  return error instanceof UpstreamError;
}

/** A short, key-free description of an error for the log. */
export function describeError(error: unknown): string {
  if (isUpstreamError(error))
    return error.failure.kind === 'http' ? `http ${error.failure.status}` : error.failure.kind;
  return errorMessage(error);
}

/** Longest server message quoted back. */
const SERVER_MESSAGE_MAX_CHARS = 300;

/**
 * The readable part of an HTTP error body: the JSON-RPC or OpenViking error
 * message when the body is JSON, else the text itself, shortened.
 */
export function serverMessageOf(body: string): string {
  const text = body.trim();
  // Not JSON: quote the text as it is.
  const parsed = parseJson(text);
  const error = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).error : undefined;
  const message = typeof error === 'object' && error !== null ? (error as Record<string, unknown>).message : undefined;
  return shorten(typeof message === 'string' && message.trim() ? message.trim() : text);
}

function shorten(text: string): string {
  return text.length > SERVER_MESSAGE_MAX_CHARS ? `${text.slice(0, SERVER_MESSAGE_MAX_CHARS)}…` : text;
}

/** How to fix a rejected key, depending on where it came from. */
export function credentialFix(
  credentials: Pick<Credentials, 'apiKey' | 'sources' | 'rootKeyOnly'>,
  status: number,
): string {
  const source = credentials.sources.apiKey;
  if (credentials.apiKey === undefined || source === undefined) {
    return 'No API key is configured. Put "api_key" in ~/.openviking/ovcli.conf (read again on the next call, no restart needed) or set OPENVIKING_API_KEY and restart CodeBuddy.';
  }
  if (credentials.rootKeyOnly && status === 403) {
    return `The only key found is the server's ROOT key (${source}); OpenViking refuses root keys on memory APIs. Create a user key and put it in ~/.openviking/ovcli.conf "api_key".`;
  }
  if (source.startsWith('env:')) {
    return `The key comes from the environment variable ${source.slice(4)}. Set a valid key there and restart CodeBuddy, or unset it to use ~/.openviking/ovcli.conf.`;
  }
  if (source.startsWith('userConfig:') || /#plugin(?:Configs|Secrets)\./.test(source)) {
    return `The key comes from this plugin's "api_key" option. Update it in CodeBuddy's plugin settings.`;
  }
  if (source.startsWith('file:')) {
    return `The key comes from ${source.slice(5)}. Fix it in that file; the proxy reads it again on the next call, no restart needed.`;
  }
  return `The key comes from ${source}. Replace it with a valid OpenViking user key.`;
}

export interface FailureContext {
  mcpUrl: string;
  credentials: Pick<Credentials, 'apiKey' | 'sources' | 'rootKeyOnly'>;
}

/** The JSON-RPC error the host gets for a failure. */
export function failureToRpcError(failure: UpstreamFailure, context: FailureContext): JsonRpcErrorObject {
  switch (failure.kind) {
    case 'rpc':
      return failure.data === undefined
        ? { code: failure.code, message: failure.message }
        : { code: failure.code, message: failure.message, data: failure.data };
    case 'http':
      if (failure.status === 401 || failure.status === 403) {
        const credentialSource = context.credentials.sources.apiKey ?? 'none';
        return {
          code: RpcErrorCode.upstreamUnavailable,
          message:
            `OpenViking MCP authentication failed (HTTP ${failure.status}${failure.serverMessage ? `: ${failure.serverMessage}` : ''}). ` +
            credentialFix(context.credentials, failure.status),
          data: { status: failure.status, credentialSource, serverMessage: failure.serverMessage },
        };
      }
      return {
        code: RpcErrorCode.upstreamHttp,
        message: `OpenViking MCP endpoint ${displayUrl(context.mcpUrl, true)} returned HTTP ${failure.status}${failure.serverMessage ? `: ${failure.serverMessage}` : ''}`,
        data: { status: failure.status, serverMessage: failure.serverMessage },
      };
    case 'network':
      return {
        code: RpcErrorCode.upstreamUnavailable,
        message: `OpenViking MCP request failed: cannot reach ${displayUrl(context.mcpUrl, true)} (${failure.cause}). Check the configured URL and that the OpenViking server is running ('ov serve'). The proxy reconnects by itself on the next call.`,
        data: { cause: failure.cause },
      };
    case 'timeout':
      return {
        code: RpcErrorCode.upstreamUnavailable,
        message: `OpenViking did not answer within ${failure.timeoutMs} ms (${displayUrl(context.mcpUrl, true)}). The server may be overloaded or stuck; try again later, or raise OPENVIKING_TIMEOUT_MS.`,
        data: { cause: 'timeout', timeoutMs: failure.timeoutMs },
      };
    case 'protocol':
      return {
        code: RpcErrorCode.upstreamEmpty,
        message: `OpenViking MCP endpoint ${displayUrl(context.mcpUrl, true)} gave an unusable answer: ${failure.message}`,
      };
    case 'cancelled':
      return { code: RpcErrorCode.internalError, message: 'Request cancelled' };
  }
}
