/**
 * A deliberately plain HTTP client for the fidelity tests (node:http, no
 * keep-alive), so the tests exercise the server and nothing of the
 * plugin's own client.
 *
 * @module
 */
import { request } from 'node:http';

export interface CallOptions {
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string | string[]>;
  timeoutMs?: number;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON body (any shape). */
  json: any;
}

export function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      {
        method,
        agent: false,
        headers: { 'Content-Type': 'application/json', ...(options.headers ?? {}) },
        timeout: options.timeoutMs ?? 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON (SSE, empty): tests read `text`
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Shorthands bound to one server URL and default headers. */
export function clientFor(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  const merged = (options: CallOptions = {}): CallOptions => ({
    ...options,
    headers: { ...defaultHeaders, ...(options.headers ?? {}) },
  });
  return {
    get: (path: string, options?: CallOptions) => call(baseUrl, 'GET', path, merged(options)),
    post: (path: string, body?: unknown, options?: CallOptions) =>
      call(baseUrl, 'POST', path, merged({ ...options, body })),
    del: (path: string, options?: CallOptions) => call(baseUrl, 'DELETE', path, merged(options)),
  };
}
