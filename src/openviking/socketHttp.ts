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
 * The resident helper (DESIGN D16), a long-lived process, builds its
 * transport with `keepAliveMs`: a finished connection then waits (unref'd)
 * for the next request to the same origin, for at most that long and never
 * past the server's `Keep-Alive: timeout`, sparing the connect (~1.5 ms of
 * CPU on both sides here). A parked connection the server closed is
 * dropped when the close arrives; one that fails before any byte of the
 * answer is retried once on a fresh connection. That retry can repeat a
 * request the server received, so `keepAliveMs` is only for processes
 * whose requests are all reads (the resident runs recall only).
 *
 * Proxies (DESIGN D20): with `proxy` settings (proxy.ts, from
 * HTTP(S)_PROXY / NO_PROXY / ALL_PROXY), an http request goes to the proxy
 * in absolute form and an https one through a CONNECT tunnel, TLS verified
 * end to end (proxyTunnel.ts). `socketHttpTransportFor(env)` hands back the
 * plain default transport when no proxy variable is set, so a hook without
 * a proxy does no per-request work for them.
 *
 * @module
 */
import type { Socket } from 'node:net';
import type { HttpResponse, HttpTransport } from './http.js';
import { displayUrl } from './displayUrl.js';
import { ResponseParser, serializeRequest } from './http1.js';
import { proxyRoute, proxySettings } from './proxy.js';
import type { ProxyRoute, ProxySettings } from './proxy.js';
import { connectToProxy, openConnection, tunnelTls } from './proxyTunnel.js';
import { socketError, transportError } from './transportError.js';
import { errorMessage } from '../util/errors.js';

/** Default cap on a response body; OpenViking answers are kilobytes, so this only stops a runaway. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface SocketHttpOptions {
  /** Larger bodies reject with kind `too_large`. */
  maxResponseBytes?: number;
  /** Keep finished connections for reuse, idle at most this long (read-only callers only; see above). */
  keepAliveMs?: number;
  /** The proxy variables in force (proxy.ts `proxySettings`); undefined: always direct. */
  proxy?: ProxySettings;
}

/** Builds a transport; `socketHttpTransport` is the default instance. */
export function createSocketHttpTransport(options: SocketHttpOptions = {}): HttpTransport {
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const keepAliveMs = options.keepAliveMs ?? 0;
  const parked = keepAliveMs > 0 ? new ParkedSockets() : undefined;
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      // Nothing left the machine: a configured URL that is not one (config/credentials.ts) stops here.
      throw transportError('unsent', `invalid URL: ${displayUrl(request.url, true)}`);
    }
    let route: ProxyRoute | undefined;
    try {
      route = proxyRoute(url, options.proxy);
    } catch (error) {
      throw transportError('network', errorMessage(error));
    }
    const viaProxy = route !== undefined && url.protocol === 'http:' ? route : undefined;
    const text = serializeRequest(url, request, parked !== undefined, viaProxy);
    const startedAt = Date.now();
    const reused = parked?.take(url.origin);
    if (reused !== undefined) {
      const outcome = await exchange(reused, text, request.timeoutMs, maxBytes, keepAliveMs).catch(
        (error: unknown) => error as ExchangeError,
      );
      if (!(outcome instanceof Error)) return settleExchange(outcome, url.origin, parked);
      if (!outcome.beforeAnswer) throw outcome;
    }
    const socket = await connect(url, route, request.timeoutMs);
    const remainingMs = request.timeoutMs - (Date.now() - startedAt);
    return settleExchange(await exchange(socket, text, remainingMs, maxBytes, keepAliveMs), url.origin, parked);
  };
}

/** Parks a reusable connection (or lets it go) and hands back the response. */
function settleExchange(done: Exchanged, origin: string, parked: ParkedSockets | undefined): HttpResponse {
  if (parked !== undefined && done.reuseWindowMs !== undefined) parked.park(origin, done.socket, done.reuseWindowMs);
  else release(done.socket);
  return done.response;
}

/** The transport hook code uses when no proxy is configured. */
export const socketHttpTransport: HttpTransport = createSocketHttpTransport();

/** The transport for a process with environment `env`: the shared default unless a proxy variable is set. */
export function socketHttpTransportFor(
  env: Readonly<Record<string, string | undefined>>,
  options: Omit<SocketHttpOptions, 'proxy'> = {},
): HttpTransport {
  const proxy = proxySettings(env);
  if (proxy === undefined && Object.keys(options).length === 0) return socketHttpTransport;
  return createSocketHttpTransport({ ...options, ...(proxy === undefined ? {} : { proxy }) });
}

/**
 * Opens (without waiting for) the connection; the request is written at
 * once and sent when it is up. Through a proxy: the proxy connection for an
 * http target; for https, the tunnel, awaited (within `timeoutMs`).
 */
async function connect(url: URL, route: ProxyRoute | undefined, timeoutMs: number): Promise<Socket> {
  if (route !== undefined) {
    if (url.protocol === 'http:') return connectToProxy(route);
    if (url.protocol === 'https:') return tunnelTls(url, route, timeoutMs);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return openConnection(url, true);
  throw transportError('unsent', `unsupported protocol ${url.protocol}`);
}

interface Exchanged {
  socket: Socket;
  response: HttpResponse;
  /** Set when the connection may carry another exchange, for this long. */
  reuseWindowMs?: number;
}

/** A failed exchange; `beforeAnswer` when not one byte of the answer had arrived. */
type ExchangeError = Error & { kind?: unknown; beforeAnswer?: boolean };

/**
 * One request and its response on `socket`. On success the socket's
 * listeners are removed and it is handed back (the caller releases or
 * parks it); on failure it is destroyed.
 */
function exchange(
  socket: Socket,
  requestText: string,
  timeoutMs: number,
  maxBytes: number,
  keepAliveMs: number,
): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    const parser = new ResponseParser(maxBytes);
    let settled = false;
    let answered = false;
    const timer = setTimeout(
      () => fail(transportError('timeout', `no complete response within ${timeoutMs} ms`)),
      Math.max(1, timeoutMs),
    );

    function settle(outcome: () => HttpResponse | undefined, byFraming: boolean): void {
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
      detach();
      const reuseWindowMs = byFraming && keepAliveMs > 0 ? parser.reuseWindowMs(keepAliveMs) : undefined;
      resolve({ socket, response, ...(reuseWindowMs === undefined ? {} : { reuseWindowMs }) });
    }

    function fail(error: ExchangeError): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      detach();
      socket.destroy();
      error.beforeAnswer = !answered && error.kind !== 'timeout';
      reject(error);
    }

    const onData = (chunk: Buffer): void => {
      answered = true;
      settle(() => parser.push(chunk), true);
    };
    const onEnd = (): void => settle(() => parser.end(), false);
    const onError = (error: Error): void => fail(socketError(error));
    const onClose = (): void => fail(transportError('network', 'connection closed before the response was complete'));
    function detach(): void {
      socket.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    }

    socket.setNoDelay(true);
    socket.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    socket.write(requestText);
  });
}

/**
 * At most one idle connection per origin, unref'd (it never keeps the
 * process alive), dropped when its window ends or the server closes it,
 * and removed from here before anyone writes to it again.
 */
class ParkedSockets {
  private readonly idle = new Map<string, { socket: Socket; drop: () => void }>();

  take(origin: string): Socket | undefined {
    const entry = this.idle.get(origin);
    if (entry === undefined) return undefined;
    this.idle.delete(origin);
    entry.drop();
    return entry.socket.destroyed ? undefined : entry.socket;
  }

  park(origin: string, socket: Socket, windowMs: number): void {
    if (this.idle.has(origin) || socket.destroyed) return release(socket);
    const expire = (): void => {
      if (this.idle.get(origin)?.socket === socket) this.idle.delete(origin);
      clearTimeout(timer);
      socket.off('data', expire).off('end', expire).off('error', expire).off('close', expire);
      socket.destroy();
    };
    const timer = setTimeout(expire, windowMs);
    timer.unref();
    socket.unref();
    // Anything from the server while idle (data, end, error, close) ends the connection's reuse.
    socket.on('data', expire).on('end', expire).on('error', expire).on('close', expire);
    this.idle.set(origin, {
      socket,
      drop: () => {
        clearTimeout(timer);
        socket.off('data', expire).off('end', expire).off('error', expire).off('close', expire);
        socket.ref();
      },
    });
  }
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
