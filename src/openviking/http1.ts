/**
 * HTTP/1.1 on the wire, for the hook transport (socketHttp.ts): the request
 * text, and a parser for one response, which also tells whether the
 * connection may carry another exchange (only the resident helper keeps
 * connections; hooks send `Connection: close`). Pure: bytes in, values out,
 * so every framing rule is tested without a socket.
 *
 * Why not `node:http`? A hook is a fresh process per event, and its first
 * request through node:http costs ~6 ms to load the module plus ~8 ms of
 * cold client machinery (agent, ClientRequest, header validation, llhttp),
 * measured on the prompt hook here; this file and node:net do the same
 * exchange in about half. It handles what an OpenViking server (or a proxy
 * in front of it) can answer: status line, headers (names lower-cased,
 * repeats joined with ", "), a body framed by Content-Length, by chunked
 * transfer coding, or by the end of the connection, and informational 1xx
 * heads before the real one.
 *
 * @module
 */
import type { HttpRequest, HttpResponse } from './http.js';
import { transportError } from './transportError.js';

/** A response head larger than this is not from an OpenViking server. */
export const MAX_HEAD_BYTES = 64 * 1024;

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** Characters that would let a header value start a new header or request line. */
const LINE_BREAK = /[\r\n\0]/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The request text: request line, `Host`, `Connection` (`close` unless the
 * caller keeps connections), the caller's headers, `Content-Length` when
 * there is a body, then the body. Throws (kind `network`) on a header that
 * could split the request. `viaProxy`: the request goes to an HTTP proxy,
 * so its target is in absolute form (`GET http://host:port/path`, RFC 9112
 * §3.2.2) and the proxy's credentials, if any, ride in `Proxy-Authorization`.
 */
export function serializeRequest(
  url: URL,
  request: HttpRequest,
  keepAlive = false,
  viaProxy?: { authorization?: string },
): string {
  const target =
    viaProxy === undefined
      ? `${url.pathname}${url.search}`
      : `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  const lines = [
    `${request.method} ${target} HTTP/1.1`,
    `Host: ${url.host}`,
    `Connection: ${keepAlive ? 'keep-alive' : 'close'}`,
  ];
  if (viaProxy?.authorization !== undefined) lines.push(`Proxy-Authorization: ${viaProxy.authorization}`);
  for (const [name, value] of Object.entries(request.headers)) {
    if (!TOKEN.test(name) || LINE_BREAK.test(value))
      throw transportError('network', `invalid request header ${JSON.stringify(name)}`);
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'connection' || lower === 'content-length' || lower === 'proxy-authorization')
      continue;
    lines.push(`${name}: ${value}`);
  }
  if (request.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(request.body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`;
}

type Framing = { kind: 'length'; remaining: number } | { kind: 'chunked' } | { kind: 'until-close' } | { kind: 'none' };

/** Where the chunked decoder is: a size line, chunk data, the CRLF after it, or the trailer lines. */
type ChunkState = { at: 'size' } | { at: 'data'; remaining: number } | { at: 'data-end' } | { at: 'trailer' };

/**
 * Incremental parser of one response. `push` each chunk the socket gives;
 * it returns the response once complete. `end` reports the connection's
 * close and returns the response when the body was framed by it. Both throw
 * transport errors (`network`, `too_large`) for what is not a valid answer.
 */
export class ResponseParser {
  private pending: Buffer = Buffer.alloc(0);
  private head: { status: number; headers: Record<string, string>; http11: boolean } | undefined;
  private framing: Framing | undefined;
  private chunkState: ChunkState = { at: 'size' };
  private readonly body: Buffer[] = [];
  private bodyBytes = 0;
  private response: HttpResponse | undefined;

  constructor(private readonly maxBodyBytes: number) {}

  /** @returns the response once the last byte of it has been pushed. */
  push(chunk: Buffer): HttpResponse | undefined {
    if (this.response !== undefined) return this.response;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.response === undefined) {
      const progressed = this.head === undefined ? this.readHead() : this.readBody();
      if (!progressed) break;
    }
    return this.response;
  }

  /** The connection ended: the response, if it is complete now. */
  end(): HttpResponse {
    if (this.response === undefined && this.head !== undefined && this.framing?.kind === 'until-close') this.complete();
    if (this.response === undefined)
      throw transportError('network', 'connection closed before the response was complete');
    return this.response;
  }

  /**
   * After a complete response: how long (ms) the connection may wait idle
   * for another exchange, or undefined when it must not be reused. Reusable
   * means an HTTP/1.1 answer framed by its length or chunks (not by the
   * close), no `Connection: close`, and no bytes beyond the response; the
   * server's `Keep-Alive: timeout=N` (seconds) caps the wait at N.
   */
  reuseWindowMs(ourLimitMs: number): number | undefined {
    const head = this.head;
    if (
      this.response === undefined ||
      head === undefined ||
      !head.http11 ||
      this.framing?.kind === 'until-close' ||
      this.pending.length > 0
    )
      return undefined;
    if (/(?:^|,)\s*close\s*(?:,|$)/i.test(head.headers.connection ?? '')) return undefined;
    const serverTimeout = /(?:^|[,;\s])timeout=(\d{1,6})/i.exec(head.headers['keep-alive'] ?? '');
    // Leave the server a second: a connection it is about to close must not be reused.
    const limit = serverTimeout === null ? ourLimitMs : Math.min(ourLimitMs, Number(serverTimeout[1]) * 1000 - 1000);
    return limit > 0 ? limit : undefined;
  }

  /** Parses a head from `pending`; false when more bytes are needed. */
  private readHead(): boolean {
    const endAt = this.pending.indexOf(HEAD_END);
    // The limit is on the whole head, blank line included, however its bytes were split (a head
    // still without its end is at least one byte longer than what has arrived).
    if ((endAt === -1 ? this.pending.length + 1 : endAt + HEAD_END.length) > MAX_HEAD_BYTES)
      throw transportError('network', 'response head too large');
    if (endAt === -1) return false;
    const lines = this.pending.toString('latin1', 0, endAt).split('\r\n');
    this.pending = this.pending.subarray(endAt + HEAD_END.length);
    const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
    if (status === null)
      throw transportError('network', `not an HTTP/1.x response: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
    const code = Number(status[2]);
    if (code >= 100 && code < 200) return true; // informational (100 Continue, 103 Early Hints): the real head follows
    const headers = parseHeaderLines(lines.slice(1));
    this.head = { status: code, headers, http11: status[1] === '1' };
    this.framing = framingOf(code, headers, this.maxBodyBytes);
    return true;
  }

  /** Consumes body bytes from `pending`; false when more bytes are needed. */
  private readBody(): boolean {
    const framing = this.framing;
    if (framing === undefined || framing.kind === 'none') return this.complete();
    if (framing.kind === 'until-close') {
      this.take(this.pending.length);
      return false;
    }
    if (framing.kind === 'length') {
      const taken = this.take(Math.min(framing.remaining, this.pending.length));
      framing.remaining -= taken;
      return framing.remaining === 0 ? this.complete() : false;
    }
    return this.readChunked();
  }

  private readChunked(): boolean {
    const state = this.chunkState;
    if (state.at === 'data') {
      const taken = this.take(Math.min(state.remaining, this.pending.length));
      state.remaining -= taken;
      if (state.remaining > 0) return false;
      this.chunkState = { at: 'data-end' };
      return true;
    }
    const lineEnd = this.pending.indexOf(CRLF);
    if ((lineEnd === -1 ? this.pending.length + 1 : lineEnd + CRLF.length) > MAX_HEAD_BYTES)
      throw transportError('network', 'chunk framing line too long');
    if (lineEnd === -1) return false;
    const line = this.pending.toString('latin1', 0, lineEnd);
    this.pending = this.pending.subarray(lineEnd + CRLF.length);
    if (state.at === 'data-end') {
      if (line !== '') throw transportError('network', 'malformed chunked body (no CRLF after chunk data)');
      this.chunkState = { at: 'size' };
      return true;
    }
    if (state.at === 'trailer') return line === '' ? this.complete() : true;
    const size = /^([0-9A-Fa-f]{1,8})[ \t]*(?:;.*)?$/.exec(line);
    if (size === null) throw transportError('network', `malformed chunk size ${JSON.stringify(line.slice(0, 40))}`);
    const bytes = Number.parseInt(size[1] ?? '', 16);
    this.chunkState = bytes === 0 ? { at: 'trailer' } : { at: 'data', remaining: bytes };
    return true;
  }

  /** Moves `count` bytes of `pending` into the body, enforcing the cap. */
  private take(count: number): number {
    if (count === 0) return 0;
    this.bodyBytes += count;
    if (this.bodyBytes > this.maxBodyBytes)
      throw transportError('too_large', `response exceeds the ${this.maxBodyBytes}-byte cap`);
    this.body.push(this.pending.subarray(0, count));
    this.pending = this.pending.subarray(count);
    return count;
  }

  private complete(): boolean {
    const head = this.head;
    if (head === undefined) return false;
    this.response = { status: head.status, headers: head.headers, body: Buffer.concat(this.body).toString('utf8') };
    return false;
  }
}

function parseHeaderLines(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw transportError('network', `malformed response header ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value; // not `headers[name] === undefined`: "constructor" is defined
  }
  return headers;
}

/** How the body of a response with `status` and `headers` ends (RFC 9112 §6.3, for responses to GET/POST/PATCH/DELETE). */
function framingOf(status: number, headers: Record<string, string>, maxBodyBytes: number): Framing {
  if (status === 204 || status === 304) return { kind: 'none' };
  const coding = headers['transfer-encoding'];
  if (coding !== undefined) {
    const last = coding.split(',').pop()?.trim().toLowerCase();
    return last === 'chunked' ? { kind: 'chunked' } : { kind: 'until-close' };
  }
  const declared = headers['content-length'];
  if (declared === undefined) return { kind: 'until-close' };
  const lengths = new Set(declared.split(',').map((part) => part.trim()));
  const [only] = lengths;
  if (lengths.size !== 1 || only === undefined || !/^\d{1,15}$/.test(only))
    throw transportError('network', `invalid Content-Length ${JSON.stringify(declared)}`);
  const length = Number(only);
  if (length > maxBodyBytes)
    throw transportError('too_large', `response of ${length} bytes exceeds the ${maxBodyBytes}-byte cap`);
  return length === 0 ? { kind: 'none' } : { kind: 'length', remaining: length };
}
