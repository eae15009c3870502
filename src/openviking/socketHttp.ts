/**
 * The `HttpTransport` of the hook processes: one HTTP/1.1 exchange per
 * request on a plain `node:net` socket (`node:tls` for https), framed by
 * http1.ts.
 *
 * Hooks are short-lived processes whose start-up is the product's latency
 * (numbers in http1.ts and http.ts), so the socket modules are imported on
 * the first request only: the guard and the no-op never load them. Three
 * promises the rest of the plugin relies on:
 * - one hard timer bounds the whole exchange, connect to last byte;
 * - the promise rejects only when no complete HTTP answer arrived (refused,
 *   reset, cut mid-body, timed out, malformed, or over the size cap); every
 *   status resolves;
 * - no socket holds the process after the exchange: the request says
 *   `Connection: close`, and once the response is in the socket is
 *   unref'd and half-closed (see `release`), so a finished hook exits at
 *   once; a failed exchange destroys its socket.
 *
 * @module
 */
import type { Socket } from 'node:net';
import type { HttpRequest, HttpResponse, HttpTransport } from './http.js';
import { ResponseParser, serializeRequest } from './http1.js';
import { errorMessage, transportError } from './transportError.js';

/** Default cap on a response body; OpenViking answers are kilobytes, so this only stops a runaway. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface SocketHttpOptions {
  /** Larger bodies reject with kind `too_large`. */
  maxResponseBytes?: number;
}

/** Builds a transport; `socketHttpTransport` is the default instance. */
export function createSocketHttpTransport(options: SocketHttpOptions = {}): HttpTransport {
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw transportError('network', `invalid URL: ${request.url}`);
    }
    const text = serializeRequest(url, request);
    const socket = await connect(url);
    return exchange(socket, text, request.timeoutMs, maxBytes);
  };
}

/** The transport hook code uses. */
export const socketHttpTransport: HttpTransport = createSocketHttpTransport();

/** Opens (without waiting for) the connection; the request is written at once and sent when it is up. */
async function connect(url: URL): Promise<Socket> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (url.protocol === 'http:') {
    const net = await import('node:net');
    return net.connect({ host, port: Number(url.port || 80) });
  }
  if (url.protocol === 'https:') {
    const [tls, net] = await Promise.all([import('node:tls'), import('node:net')]);
    return tls.connect({ host, port: Number(url.port || 443), servername: net.isIP(host) === 0 ? host : undefined, ALPNProtocols: ['http/1.1'] });
  }
  throw transportError('network', `unsupported protocol ${url.protocol}`);
}

function exchange(socket: Socket, requestText: string, timeoutMs: number, maxBytes: number): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    const parser = new ResponseParser(maxBytes);
    let settled = false;
    const timer = setTimeout(() => fail(transportError('timeout', `no complete response within ${timeoutMs} ms`)), Math.max(1, timeoutMs));

    function settle(outcome: () => HttpResponse | undefined): void {
      if (settled) return;
      let response: HttpResponse | undefined;
      try {
        response = outcome();
      } catch (error) {
        fail(error instanceof Error ? error : transportError('network', String(error)));
        return;
      }
      if (response === undefined) return;
      settled = true;
      clearTimeout(timer);
      release(socket);
      resolve(response);
    }

    function fail(error: Error): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    }

    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => settle(() => parser.push(chunk)));
    socket.on('end', () => settle(() => parser.end()));
    socket.on('error', (error) => fail(transportError('network', errorMessage(error))));
    socket.on('close', () => fail(transportError('network', 'connection closed before the response was complete')));
    socket.write(requestText);
  });
}

/**
 * Lets go of a socket whose response is complete: unref'd, so it cannot
 * keep the process alive, and ended, so the server (which closes after a
 * `Connection: close` answer anyway) sees our side done. Not `destroy()`:
 * net's destroy path reads `process.stderr`, which creates that stream
 * (a pipe socket under a host, ~1 ms) in a process about to exit.
 */
function release(socket: Socket): void {
  socket.unref();
  socket.end();
}
