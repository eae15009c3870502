/**
 * One MCP client session with OpenViking's `/mcp`, on the official SDK.
 *
 * This is the only module that imports `@modelcontextprotocol/sdk`, and the
 * proxy loads it with `import()` after it has answered the host's
 * `initialize`, so the SDK's weight (zod schemas, ajv) never delays the
 * host's handshake. The SDK handles the streamable-HTTP details: SSE or JSON
 * replies, `Mcp-Session-Id`, and the negotiated `MCP-Protocol-Version`
 * header on every POST.
 *
 * Results pass through untouched: requests are sent with the SDK's loose
 * `ResultSchema`, so tool descriptions, input schemas and unknown fields
 * reach the host exactly as the server wrote them, and no output-schema
 * validator (ajv) is ever built.
 *
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ResultSchema, type ClientRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { serverMessageOf, UpstreamError, type UpstreamFailure } from './failures.js';
import { MCP_CLIENT_CAPABILITIES, MCP_CLIENT_INFO } from './handshake.js';
import type { UpstreamProfile } from './initialize.js';
import type { JsonRpcNotification } from './jsonRpc.js';
import { errorCode, errorMessage } from '../util/errors.js';
import { isRecord } from '../util/json.js';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface SdkSessionOptions {
  mcpUrl: string;
  /** Adds identity headers and timeouts (see upstream.ts). */
  fetch: FetchLike;
  /** Bound for the handshake. */
  timeoutMs: number;
  onNotification: (notification: JsonRpcNotification) => void;
  /** The transport closed (server gone, or `close()`). */
  onClosed: () => void;
  onError: (message: string) => void;
}

export interface RequestOptions {
  timeoutMs: number;
  /** Aborted when the host cancels the request or the proxy shuts down. */
  signal?: AbortSignal;
}

export interface SdkSession {
  readonly profile: UpstreamProfile;
  /** Sends one request; rejects only with `UpstreamError`. */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions,
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** The SDK's own request timer is only a backstop behind ours. */
const SDK_TIMER_SLACK_MS = 1000;

/** A never-used validator, so the client does not construct ajv (the proxy never calls `callTool`). */
const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** Connects and runs the MCP handshake; rejects only with `UpstreamError`. */
export async function openSdkSession(options: SdkSessionOptions): Promise<SdkSession> {
  let url: URL;
  try {
    url = new URL(options.mcpUrl);
  } catch {
    // A configured URL without a scheme is kept as written (config/credentials.ts): nothing is sent anywhere else.
    throw new UpstreamError({ kind: 'network', cause: 'the configured MCP URL is not an http(s) URL (see doctor)' });
  }
  const transport = new StreamableHTTPClientTransport(url, { fetch: options.fetch });
  // The handshake's own values (handshake.ts), the ones doctor probes with; the SDK adds its newest protocol revision.
  const client = new Client(
    { ...MCP_CLIENT_INFO },
    { capabilities: { ...MCP_CLIENT_CAPABILITIES }, jsonSchemaValidator: passThroughValidator },
  );
  client.fallbackNotificationHandler = async (notification) =>
    options.onNotification(notification as JsonRpcNotification);
  client.onclose = options.onClosed;
  client.onerror = (error) => options.onError(error.message);

  await withTimeout(options.timeoutMs, undefined, (signal) =>
    client.connect(transport, { signal, timeout: options.timeoutMs + SDK_TIMER_SLACK_MS }),
  );

  const capabilities = client.getServerCapabilities();
  const instructions = client.getInstructions();
  const profile: UpstreamProfile = { capabilities: { ...(capabilities ?? {}) } };
  if (instructions) profile.instructions = instructions;

  return {
    profile,
    request: (method, params, { timeoutMs, signal }) =>
      withTimeout(timeoutMs, signal, (combined) => {
        const request = (params === undefined ? { method } : { method, params }) as ClientRequest;
        return client.request(request, ResultSchema, {
          signal: combined,
          timeout: timeoutMs + SDK_TIMER_SLACK_MS,
        }) as Promise<Record<string, unknown>>;
      }),
    async close() {
      // DELETE only when the server issued a session id (a stateless OpenViking does not).
      await transport.terminateSession().catch(() => undefined); // best effort: the server may be gone
      await client.close().catch(() => undefined); // closing a dead transport has nothing left to report
    },
  };
}

/**
 * Runs `operation` with a signal that aborts after `timeoutMs` (reason: a
 * timeout failure) or when `outer` aborts (reason: cancelled), and converts
 * every rejection into an `UpstreamError`.
 */
async function withTimeout<T>(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new UpstreamError({ kind: 'timeout', timeoutMs })), timeoutMs);
  const onOuterAbort = () => controller.abort(new UpstreamError({ kind: 'cancelled' }));
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    return await operation(controller.signal);
  } catch (error) {
    // The SDK re-wraps an abort reason into its own error; our reason says what really happened.
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
    throw reason instanceof UpstreamError ? reason : new UpstreamError(toUpstreamFailure(error, timeoutMs));
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** Maps whatever the SDK or fetch threw to a failure kind. */
export function toUpstreamFailure(error: unknown, timeoutMs: number): UpstreamFailure {
  if (error instanceof UpstreamError) return error.failure;
  if (error instanceof StreamableHTTPError) {
    const code = error.code ?? -1;
    if (code > 0) return { kind: 'http', status: code, serverMessage: serverMessageOf(httpErrorBody(error.message)) };
    return { kind: 'protocol', message: error.message };
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout && isRecord(error.data) && 'timeout' in error.data)
      return { kind: 'timeout', timeoutMs };
    if (error.code === ErrorCode.ConnectionClosed) return { kind: 'network', cause: 'connection closed' };
    const message = error.message.replace(/^MCP error -?\d+: /, '');
    return error.data === undefined
      ? { kind: 'rpc', code: error.code, message }
      : { kind: 'rpc', code: error.code, message, data: error.data };
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return { kind: 'timeout', timeoutMs };
  if (error instanceof Error && error.cause !== undefined) return { kind: 'network', cause: causeOf(error.cause) };
  return { kind: 'protocol', message: errorMessage(error) };
}

/** The SDK words HTTP errors as `Streamable HTTP error: Error POSTing to endpoint: <body>`. */
function httpErrorBody(message: string): string {
  const marker = 'Error POSTing to endpoint: ';
  const at = message.indexOf(marker);
  return at === -1 ? message : message.slice(at + marker.length);
}

function causeOf(cause: unknown): string {
  return errorCode(cause) ?? errorMessage(cause);
}
