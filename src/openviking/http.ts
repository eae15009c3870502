/**
 * The one HTTP seam of the plugin.
 *
 * Everything that talks to OpenViking goes through an `HttpTransport`, so the
 * stages never know which library moves the bytes and tests never mock a
 * module: they point the real transport at a real server on 127.0.0.1.
 *
 * Why not the global `fetch`, or undici? Hooks are short-lived processes, and
 * their start-up is the product's latency. Measured here (Node 20, 20 runs):
 * `node -e 0` ≈ 110 ms, an ESM file importing `node:http` ≈ 126 ms, the same
 * file with `undici` bundled ≈ 220 ms, and the first global `fetch` costs
 * ~2.3x `node:http`. So hook code speaks HTTP/1.1 itself on `node:net`
 * (socketHttp.ts, http1.ts: cheaper again than node:http); the long-lived
 * MCP proxy may use anything.
 *
 * @module
 */

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PATCH';

export interface HttpRequest {
  method: HttpMethod;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  /** Already-serialised body (JSON text), if any. */
  body?: string;
  /** Hard limit for the whole exchange, connect to last byte. */
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Performs one request. Resolves for every HTTP status (including 4xx/5xx);
 * rejects only when no HTTP answer arrived: connection refused or reset,
 * timeout, abort. Callers turn a rejection into a retryable failure.
 */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;
