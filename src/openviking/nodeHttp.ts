/**
 * The `HttpTransport` of the hook processes, on `node:http`.
 *
 * Hooks are short-lived processes whose start-up is the product's latency
 * (numbers in http.ts), so this file loads only `node:http`; `node:https` is
 * imported on the first https URL. Three promises the rest of the plugin
 * relies on:
 * - one hard timer bounds the whole exchange, connect to last byte;
 * - the promise rejects only when no complete HTTP answer arrived (refused,
 *   reset, cut mid-body, timed out, or over the size cap); every status
 *   resolves;
 * - no socket outlives the exchange: keep-alive is off (a fresh agent-less
 *   request sends `Connection: close`) and the socket is destroyed once the
 *   body is in, so a finished hook exits at once instead of idling on a pool.
 *
 * @module
 */
import { request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import type { HttpRequest, HttpResponse, HttpTransport } from './http.js';
import { errorMessage, transportError } from './transportError.js';

/** Default cap on a response body; OpenViking answers are kilobytes, so this only stops a runaway. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface NodeHttpOptions {
  /** Larger bodies reject with kind `too_large`. */
  maxResponseBytes?: number;
}

type RequestFn = (url: URL, options: RequestOptions, callback: (res: IncomingMessage) => void) => ClientRequest;

/** Builds a transport; `nodeHttpTransport` is the default instance. */
export function createNodeHttpTransport(options: NodeHttpOptions = {}): HttpTransport {
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw transportError('network', `invalid URL: ${request.url}`);
    }
    const send = await requestFunctionFor(url);
    return exchange(send, url, request, maxBytes);
  };
}

/** The transport hook code uses. */
export const nodeHttpTransport: HttpTransport = createNodeHttpTransport();

async function requestFunctionFor(url: URL): Promise<RequestFn> {
  if (url.protocol === 'http:') return httpRequest;
  if (url.protocol === 'https:') return (await import('node:https')).request;
  throw transportError('network', `unsupported protocol ${url.protocol}`);
}

function exchange(send: RequestFn, url: URL, request: HttpRequest, maxBytes: number): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));

    const req = send(url, { method: request.method, headers, agent: false }, (res) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail(transportError('too_large', `response of ${declared} bytes exceeds the ${maxBytes}-byte cap`));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > maxBytes) {
          fail(transportError('too_large', `response exceeds the ${maxBytes}-byte cap`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (error) => fail(transportError('network', `response interrupted: ${errorMessage(error)}`)));
      res.on('close', () => fail(transportError('network', 'connection closed before the response was complete')));
    });

    const timer = setTimeout(() => {
      fail(transportError('timeout', `no complete response within ${request.timeoutMs} ms`));
    }, Math.max(1, request.timeoutMs));

    function fail(error: Error): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    }

    req.on('error', (error) => fail(transportError('network', errorMessage(error))));
    req.end(request.body);
  });
}

function flattenHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
