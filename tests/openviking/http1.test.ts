import { describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse } from '../../src/openviking/http.js';
import { MAX_HEAD_BYTES, ResponseParser, serializeRequest } from '../../src/openviking/http1.js';
import { transportFailureKind, type TransportFailureKind } from '../../src/openviking/transportError.js';

// ---------------------------------------------------------------------------
// serializeRequest
// ---------------------------------------------------------------------------

function serialize(url: string, request: Partial<HttpRequest> = {}): string {
  return serializeRequest(new URL(url), { method: 'GET', url, headers: {}, timeoutMs: 1000, ...request });
}

/** The kind a call throws with; fails the test when it does not throw or throws something kind-less. */
function thrownKind(call: () => unknown): TransportFailureKind {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    expect((error as { kind?: unknown }).kind, String(error)).toBeDefined();
    return transportFailureKind(error);
  }
  throw new Error('expected a throw');
}

describe('serializeRequest', () => {
  it('writes a GET without a body byte for byte, query string kept, fragment dropped', () => {
    const text = serialize('http://127.0.0.1:1933/api/v1/search/find?q=a%20b&limit=5#frag', {
      headers: { Authorization: 'Bearer k-1', 'X-OpenViking-Account': 'acme' },
    });
    expect(text).toBe(
      'GET /api/v1/search/find?q=a%20b&limit=5 HTTP/1.1\r\n' +
        'Host: 127.0.0.1:1933\r\n' +
        'Connection: close\r\n' +
        'Authorization: Bearer k-1\r\n' +
        'X-OpenViking-Account: acme\r\n' +
        '\r\n',
    );
  });

  it('writes a POST with a UTF-8 body and its length in bytes, not characters', () => {
    const body = '{"q":"größe 🚀"}';
    const text = serialize('http://localhost:1933/api/v1/sessions/s1/messages', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(Buffer.byteLength(body)).toBe(body.length + 4); // ö, ß: 1 extra byte each; 🚀: 2 UTF-16 units, 4 bytes
    expect(text).toBe(
      'POST /api/v1/sessions/s1/messages HTTP/1.1\r\n' +
        'Host: localhost:1933\r\n' +
        'Connection: close\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        '\r\n' +
        body,
    );
    // What goes on the wire is the UTF-8 encoding; the declared length matches it exactly.
    const wire = Buffer.from(text);
    const headEnd = wire.indexOf('\r\n\r\n') + 4;
    expect(wire.length - headEnd).toBe(Buffer.byteLength(body));
  });

  it('declares Content-Length: 0 for an empty body and none when there is no body', () => {
    expect(serialize('http://h/x', { method: 'POST', body: '' })).toBe(
      'POST /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
    );
    expect(serialize('http://h/x', { method: 'DELETE' })).toBe(
      'DELETE /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n',
    );
  });

  it('puts IPv6 literals in brackets and non-default ports in Host, and leaves default ports out', () => {
    const host = (url: string) => /\r\nHost: ([^\r]*)\r\n/.exec(serialize(url))?.[1];
    expect(host('http://[::1]:1933/')).toBe('[::1]:1933');
    expect(host('http://[::1]/')).toBe('[::1]');
    expect(host('http://[2001:db8::7]:8080/')).toBe('[2001:db8::7]:8080');
    expect(host('http://example.com:8080/')).toBe('example.com:8080');
    expect(host('http://example.com:80/')).toBe('example.com');
    expect(host('https://example.com:443/')).toBe('example.com');
    expect(host('https://example.com:8443/')).toBe('example.com:8443');
    expect(serialize('http://example.com')).toMatch(/^GET \/ HTTP\/1\.1\r\n/);
  });

  it('rejects header names that are not tokens and values with CR, LF or NUL (kind network)', () => {
    const attempts: Array<Record<string, string>> = [
      { 'X-A\r\nX-Injected': 'v' },
      { 'X-A: b\r\nX-Injected': 'v' },
      { 'X A': 'v' },
      { 'X-A:': 'v' },
      { '': 'v' },
      { 'X-Ü': 'v' },
      { 'X-A': 'v\r\nX-Injected: yes' },
      { 'X-A': 'v\nX-Injected: yes' },
      { 'X-A': 'v\rX-Injected: yes' },
      { 'X-A': 'v\0' },
      { Authorization: 'Bearer k\r\n\r\nGET /admin HTTP/1.1' },
      { Host: 'evil\r\nX-Injected: yes' }, // even a header that would be dropped is checked
    ];
    for (const headers of attempts) {
      expect(
        thrownKind(() => serialize('http://127.0.0.1:1933/', { headers })),
        JSON.stringify(headers),
      ).toBe('network');
    }
    // Tabs and visible characters are fine.
    expect(serialize('http://h/', { headers: { "X-Ok!#$%&'*+.^_`|~": 'a\tb "c" ;=,' } })).toContain(
      'X-Ok!#$%&\'*+.^_`|~: a\tb "c" ;=,\r\n',
    );
  });

  it('asks for a kept connection only when the caller keeps connections', () => {
    const url = 'http://127.0.0.1:1933/health';
    expect(serializeRequest(new URL(url), { method: 'GET', url, headers: {}, timeoutMs: 1000 }, true)).toContain(
      '\r\nConnection: keep-alive\r\n',
    );
    expect(serialize(url)).toContain('\r\nConnection: close\r\n');
  });

  it('does not let caller Host, Connection or Content-Length duplicate its own (any case)', () => {
    const text = serialize('http://127.0.0.1:1933/x', {
      method: 'POST',
      headers: {
        host: 'evil.example',
        CONNECTION: 'keep-alive',
        'Content-Length': '999',
        Host: 'other',
        'content-length': '1',
        'X-Keep': '1',
      },
      body: 'abc',
    });
    expect(text).toBe(
      'POST /x HTTP/1.1\r\nHost: 127.0.0.1:1933\r\nConnection: close\r\nX-Keep: 1\r\nContent-Length: 3\r\n\r\nabc',
    );
    const names = text
      .split('\r\n\r\n')[0]!
      .split('\r\n')
      .slice(1)
      .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
    expect(names.filter((name) => name === 'host')).toHaveLength(1);
    expect(names.filter((name) => name === 'connection')).toHaveLength(1);
    expect(names.filter((name) => name === 'content-length')).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------
// ResponseParser
// ---------------------------------------------------------------------------

type Outcome = { response: HttpResponse } | { error: TransportFailureKind } | { incomplete: true };

interface FeedOptions {
  /** Body cap given to the parser. */
  cap?: number;
  /** Report the connection's close (`end()`) after the last piece. */
  close?: boolean;
}

const CAP = 4096;

/** Pushes `pieces` in order into a fresh parser, then `end()` when `close`; what came of it. */
function feed(pieces: readonly Buffer[], options: FeedOptions = {}): Outcome {
  const parser = new ResponseParser(options.cap ?? CAP);
  let response: HttpResponse | undefined;
  try {
    for (const piece of pieces) {
      const now = parser.push(piece);
      // Once complete, later bytes change nothing: the same response comes back.
      if (response !== undefined && now !== response) throw new Error('response changed after completion');
      response = now;
    }
    if (options.close === true) {
      const ended = parser.end();
      if (response !== undefined && ended !== response) throw new Error('end() returned another response');
      response = ended;
    }
  } catch (error) {
    const kind = (error as { kind?: unknown }).kind;
    if (kind === undefined) throw error; // not a transport error: a bug in the parser (or this helper)
    return { error: transportFailureKind(error) };
  }
  return response === undefined ? { incomplete: true } : { response };
}

/** Outcomes of 64 KiB heads would flood a failure message. */
const short = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);

const bytesOf = (raw: string | Buffer): Buffer => (typeof raw === 'string' ? Buffer.from(raw) : raw);

/**
 * Feeds `raw` whole, byte by byte, split in two at every index (and, when
 * short, in three at every pair of indices) and checks that every way gives
 * the same outcome, which it returns. For long inputs pass `splitAt`: those
 * points plus fixed-size pieces replace the exhaustive ways.
 */
function everyWay(raw: string | Buffer, options: FeedOptions & { splitAt?: readonly number[] } = {}): Outcome {
  const bytes = bytesOf(raw);
  const whole = feed([bytes], options);
  const expected = JSON.stringify(whole);
  const mismatches: string[] = [];
  const check = (how: string, pieces: Buffer[]) => {
    const got = JSON.stringify(feed(pieces, options));
    if (got !== expected && mismatches.length < 5) mismatches.push(`${how}: ${short(got)}`);
  };
  if (options.splitAt === undefined) {
    check(
      'byte by byte',
      [...bytes].map((byte) => Buffer.from([byte])),
    );
    for (let i = 0; i <= bytes.length; i += 1) check(`split at ${i}`, [bytes.subarray(0, i), bytes.subarray(i)]);
    if (bytes.length <= 160) {
      for (let i = 0; i <= bytes.length; i += 1) {
        for (let j = i; j <= bytes.length; j += 1)
          check(`split at ${i}, ${j}`, [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]);
      }
    }
  } else {
    for (const i of options.splitAt) check(`split at ${i}`, [bytes.subarray(0, i), bytes.subarray(i)]);
    for (const size of [1000, 4093, 65_536]) {
      const pieces: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
      check(`pieces of ${size}`, pieces);
    }
  }
  expect(mismatches, `whole: ${short(expected)}`).toEqual([]);
  return whole;
}

/** everyWay, expecting a response. */
function parsed(raw: string | Buffer, options: FeedOptions = {}): HttpResponse {
  const outcome = everyWay(raw, options);
  if (!('response' in outcome)) throw new Error(`expected a response, got ${short(JSON.stringify(outcome))}`);
  return outcome.response;
}

/** everyWay, expecting a failure; returns its kind. */
function failure(
  raw: string | Buffer,
  options: FeedOptions & { splitAt?: readonly number[] } = {},
): TransportFailureKind {
  const outcome = everyWay(raw, options);
  if (!('error' in outcome)) throw new Error(`expected a failure, got ${short(JSON.stringify(outcome))}`);
  return outcome.error;
}

describe('ResponseParser: framing', () => {
  it('frames by Content-Length, lower-cases header names, trims values, completes without the close', () => {
    const response = parsed(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-ID:  abc  \r\nContent-Length: 11\r\n\r\n{"a":"bcd"}',
    );
    expect(response).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': 'abc', 'content-length': '11' },
      body: '{"a":"bcd"}',
    });
  });

  it('joins repeated headers with ", " in arrival order', () => {
    const response = parsed('HTTP/1.1 200 OK\r\nX-Multi: a\r\nx-multi: b\r\nX-MULTI: c\r\nContent-Length: 0\r\n\r\n');
    expect(response.headers['x-multi']).toBe('a, b, c');
  });

  it('accepts repeated identical Content-Length values, in one line or several', () => {
    expect(parsed('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello').body).toBe('hello');
    expect(parsed('HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello').body).toBe('hello');
  });

  it('ignores bytes after a complete length-framed body', () => {
    const response = parsed(
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRA BYTES\r\n\r\nHTTP/1.1 500 Oops\r\n\r\n',
      { close: true },
    );
    expect(response).toEqual({ status: 200, headers: { 'content-length': '5' }, body: 'hello' });
  });

  it('has no body for Content-Length: 0, 204 and 304, and completes at the end of the head', () => {
    expect(parsed('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')).toEqual({
      status: 200,
      headers: { 'content-length': '0' },
      body: '',
    });
    expect(parsed('HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n')).toEqual({
      status: 204,
      headers: { date: 'x' },
      body: '',
    });
    // Even with a framing header, these statuses have no body; what follows is ignored.
    expect(parsed('HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello').body).toBe('');
    expect(parsed('HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n').body).toBe('');
  });

  it('decodes the chunked transfer coding, with chunk extensions and trailers', () => {
    const response = parsed(
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n' +
        '5;name=value\r\nhello\r\n' +
        'A ; quoted="a;b"\r\n 0123456\r\n\r\n' +
        'b\t;x\r\n and more..\r\n' +
        '0;last\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n',
    );
    expect(response.status).toBe(200);
    expect(response.body).toBe('hello 0123456\r\n and more..');
    expect(response.headers).toEqual({ 'transfer-encoding': 'chunked', 'content-type': 'text/plain' }); // trailers consumed, not merged
  });

  it('completes a chunked body at its last CRLF, without the close, and ignores what follows', () => {
    const response = parsed('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\ngarbage');
    expect(response.body).toBe('abc');
  });

  it('prefers chunked over Content-Length, and reads chunked as the last coding only', () => {
    expect(
      parsed('HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n').body,
    ).toBe('ok');
    expect(parsed('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n').body).toBe('ok');
    // A coding that does not end in chunked is framed by the close.
    expect(everyWay('HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\n2\r\nok')).toEqual({ incomplete: true });
    expect(parsed('HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\n2\r\nok', { close: true }).body).toBe(
      '2\r\nok',
    );
  });

  it('frames by the close when there is neither Content-Length nor Transfer-Encoding', () => {
    const raw = 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end\r\n\r\nreally';
    expect(everyWay(raw)).toEqual({ incomplete: true });
    expect(parsed(raw, { close: true })).toEqual({
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'until the end\r\n\r\nreally',
    });
    expect(parsed('HTTP/1.1 200 OK\r\n\r\n', { close: true }).body).toBe('');
  });

  it('accepts HTTP/1.0 and 1.1, a status line without reason phrase, and a head without headers', () => {
    expect(parsed('HTTP/1.0 404 Not Found\r\nContent-Length: 2\r\n\r\nno').status).toBe(404);
    expect(parsed('HTTP/1.1 503\r\nContent-Length: 0\r\n\r\n').status).toBe(503);
    expect(parsed('HTTP/1.1 500 \r\n\r\n', { close: true })).toEqual({ status: 500, headers: {}, body: '' });
  });

  it('skips 100 Continue and other 1xx heads before the real one', () => {
    expect(parsed('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')).toEqual({
      status: 200,
      headers: { 'content-length': '2' },
      body: 'ok',
    });
    const response = parsed(
      'HTTP/1.1 100 Continue\r\n\r\n' +
        'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n' +
        'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    );
    expect(response).toEqual({ status: 201, headers: { 'transfer-encoding': 'chunked' }, body: 'ok' });
    // A connection closed after a 1xx head only has no answer.
    expect(everyWay('HTTP/1.1 100 Continue\r\n\r\n', { close: true })).toEqual({ error: 'network' });
  });

  it('decodes multi-byte UTF-8 split across pieces, in every framing', () => {
    const text = 'größe ✓ 🚀 日本語';
    const body = Buffer.from(text);
    const head = (framing: string) =>
      Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n${framing}\r\n`);
    expect(parsed(Buffer.concat([head(`Content-Length: ${body.length}\r\n`), body])).body).toBe(text);
    expect(parsed(Buffer.concat([head(''), body]), { close: true }).body).toBe(text);
    // Chunk boundaries inside characters too: 🚀 cut after its first byte, 日 after its second.
    const cut1 = body.indexOf(Buffer.from('🚀')) + 1;
    const cut2 = body.indexOf(Buffer.from('日')) + 2;
    const chunks = [body.subarray(0, cut1), body.subarray(cut1, cut2), body.subarray(cut2)];
    const chunked = Buffer.concat([
      head('Transfer-Encoding: chunked\r\n'),
      ...chunks.flatMap((c) => [Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]),
      Buffer.from('0\r\n\r\n'),
    ]);
    expect(parsed(chunked).body).toBe(text);
  });

  it('accepts a body of exactly the cap, in every framing', () => {
    const body = 'x'.repeat(64);
    expect(parsed(`HTTP/1.1 200 OK\r\nContent-Length: 64\r\n\r\n${body}`, { cap: 64 }).body).toBe(body);
    expect(
      parsed(
        `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n${body.slice(32)}\r\n20\r\n${body.slice(32)}\r\n0\r\n\r\n`,
        { cap: 64 },
      ).body,
    ).toBe(body);
    expect(parsed(`HTTP/1.1 200 OK\r\n\r\n${body}`, { cap: 64, close: true }).body).toBe(body);
  });

  it('returns the same response from push() and end() once complete', () => {
    const parser = new ResponseParser(CAP);
    const response = parser.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    expect(response?.body).toBe('ok');
    expect(parser.push(Buffer.from('more'))).toBe(response);
    expect(parser.end()).toBe(response);
  });

  it('keeps header names that are Object.prototype members as plain values', () => {
    const response = parsed(
      'HTTP/1.1 200 OK\r\nConstructor: a\r\ntoString: b\r\nhasOwnProperty: c\r\n__proto__: d\r\nContent-Length: 0\r\n\r\n',
    );
    expect(response.headers['constructor']).toBe('a');
    expect(response.headers['tostring']).toBe('b');
    expect(response.headers['hasownproperty']).toBe('c');
    expect(typeof response.headers).toBe('object');
  });
});

describe('ResponseParser: failures', () => {
  it('rejects a malformed status line (network)', () => {
    for (const line of [
      'HTTP/2 200 OK',
      'HTTP/2.0 200 OK',
      'HTTP/1.2 200 OK',
      'ICY 200 OK',
      'http/1.1 200 OK',
      'HTTP/1.1 20 OK',
      'HTTP/1.1 2000 OK',
      'HTTP/1.1 200OK',
      'HTTP/1.1  200 OK',
      ' HTTP/1.1 200 OK',
      '<html><body>hi</body></html>',
      '',
    ]) {
      expect(failure(`${line}\r\nContent-Length: 0\r\n\r\n`), line).toBe('network');
    }
  });

  it('rejects a header line without a colon, or with an empty name (network)', () => {
    expect(failure('HTTP/1.1 200 OK\r\nContent-Length 2\r\n\r\nok')).toBe('network');
    expect(failure('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n: no name\r\n\r\nok')).toBe('network');
    expect(failure('HTTP/1.1 200 OK\r\nX-A: 1\r\n folded continuation\r\nContent-Length: 0\r\n\r\n')).toBe('network');
  });

  it('rejects a bad or conflicting Content-Length (network)', () => {
    for (const value of ['abc', '-1', '+5', '5x', '0x5', '1.5', '', '5, 6', '5,', '1234567890123456']) {
      expect(failure(`HTTP/1.1 200 OK\r\nContent-Length: ${value}\r\n\r\nhello`), JSON.stringify(value)).toBe(
        'network',
      );
    }
    expect(failure('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!')).toBe('network');
  });

  it('rejects a malformed chunk size line (network)', () => {
    for (const size of ['zz', '-1', '', ' 5', '0x5', '123456789', '5 x', 'g;ext']) {
      expect(
        failure(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${size}\r\nhello\r\n0\r\n\r\n`),
        JSON.stringify(size),
      ).toBe('network');
    }
  });

  it('rejects chunk data not followed by CRLF (network)', () => {
    expect(failure('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloX\r\n0\r\n\r\n')).toBe('network');
    expect(failure('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n')).toBe('network');
    expect(failure('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello0\r\n\r\n')).toBe('network');
  });

  it('rejects a head over MAX_HEAD_BYTES however it arrives, and accepts one of exactly that size (network)', () => {
    const prefix = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Big: ';
    const headOf = (total: number) => `${prefix}${'a'.repeat(total - prefix.length - 4)}\r\n\r\n`;
    expect(Buffer.byteLength(headOf(MAX_HEAD_BYTES))).toBe(MAX_HEAD_BYTES);
    const near = (n: number) => [0, 1, 100, n - 5, n - 4, n - 3, n - 2, n - 1, n];
    expect(everyWay(headOf(MAX_HEAD_BYTES), { splitAt: near(MAX_HEAD_BYTES) })).toMatchObject({
      response: { status: 200, body: '' },
    });
    expect(failure(headOf(MAX_HEAD_BYTES + 1), { splitAt: near(MAX_HEAD_BYTES + 1) })).toBe('network');
    expect(failure(headOf(MAX_HEAD_BYTES * 2), { splitAt: near(MAX_HEAD_BYTES * 2) })).toBe('network');
    // A head that never ends fails once it is too large, without waiting for the close.
    expect(feed([Buffer.from(prefix), Buffer.alloc(MAX_HEAD_BYTES, 0x61)])).toEqual({ error: 'network' });
    // The limit is per head: a 1xx head and the real head each get the whole budget.
    const interim = `HTTP/1.1 103 Early Hints\r\nX-Big: ${'b'.repeat(MAX_HEAD_BYTES - 200)}\r\n\r\n`;
    expect(everyWay(interim + headOf(MAX_HEAD_BYTES - 100), { splitAt: [10, MAX_HEAD_BYTES - 10] })).toMatchObject({
      response: { status: 200 },
    });
  });

  it('rejects a chunk framing line over MAX_HEAD_BYTES however it arrives, or one that never ends (network)', () => {
    const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    const sizeLine = (total: number) => `5;ext=${'e'.repeat(total - 8)}\r\n`;
    expect(Buffer.byteLength(sizeLine(MAX_HEAD_BYTES))).toBe(MAX_HEAD_BYTES);
    const at = (n: number) => [head.length, head.length + 1, head.length + n - 2, head.length + n - 1, head.length + n];
    const response = (line: string) => `${head}${line}hello\r\n0\r\n\r\n`;
    expect(everyWay(response(sizeLine(MAX_HEAD_BYTES)), { splitAt: at(MAX_HEAD_BYTES) })).toMatchObject({
      response: { body: 'hello' },
    });
    expect(failure(response(sizeLine(MAX_HEAD_BYTES + 1)), { splitAt: at(MAX_HEAD_BYTES + 1) })).toBe('network');
    const trailer = (total: number) => `${head}5\r\nhello\r\n0\r\nX-T: ${'t'.repeat(total - 7)}\r\n\r\n`;
    expect(everyWay(trailer(MAX_HEAD_BYTES), { splitAt: [head.length + 20] })).toMatchObject({
      response: { body: 'hello' },
    });
    expect(failure(trailer(MAX_HEAD_BYTES + 1), { splitAt: [head.length + 20] })).toBe('network');
    expect(feed([Buffer.from(`${head}5;ext=`), Buffer.alloc(MAX_HEAD_BYTES, 0x61)])).toEqual({ error: 'network' });
  });

  it('rejects a body over the cap as too_large: declared, chunked and until-close', () => {
    expect(failure('HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n', { cap: 64 })).toBe('too_large'); // at the head, no body needed
    expect(failure(`HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n${'x'.repeat(65)}`, { cap: 64 })).toBe('too_large');
    expect(
      failure(
        `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n${'x'.repeat(32)}\r\n21\r\n${'y'.repeat(33)}\r\n0\r\n\r\n`,
        { cap: 64 },
      ),
    ).toBe('too_large');
    // One chunk declared bigger than the cap fails as its bytes arrive.
    expect(
      failure(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFF\r\n${'x'.repeat(65)}`, { cap: 64 }),
    ).toBe('too_large');
    // Until-close fails before the close comes.
    expect(failure(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(65)}`, { cap: 64 })).toBe('too_large');
    expect(failure(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(65)}`, { cap: 64, close: true })).toBe('too_large');
  });

  it('rejects a connection closed before the response is complete (network)', () => {
    const cut = (raw: string) => everyWay(raw, { close: true });
    expect(cut('')).toEqual({ error: 'network' });
    expect(cut('HTTP/1.1 200 OK\r\nContent-Len')).toEqual({ error: 'network' });
    expect(cut('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n')).toEqual({ error: 'network' });
    expect(cut('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhell')).toEqual({ error: 'network' });
    expect(cut('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n')).toEqual({ error: 'network' });
    expect(cut('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel')).toEqual({ error: 'network' });
    expect(cut('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello')).toEqual({ error: 'network' });
    expect(cut('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n')).toEqual({
      error: 'network',
    });
    expect(cut('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Trailer: 1\r\n')).toEqual({
      error: 'network',
    });
    expect(cut('SSH-2.0-OpenSSH_9.6\r\n')).toEqual({ error: 'network' });
  });

  it('without the close, an incomplete response is just incomplete', () => {
    expect(everyWay('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhell')).toEqual({ incomplete: true });
    expect(everyWay('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n')).toEqual({
      incomplete: true,
    });
  });
});

describe('ResponseParser: may the connection carry another exchange?', () => {
  /** The reuse window after feeding `raw` in one piece (and the close, when asked). */
  function windowAfter(raw: string, ourLimitMs = 3_000, close = false): number | undefined {
    const parser = new ResponseParser(1024);
    const response = parser.push(Buffer.from(raw, 'latin1')) ?? (close ? parser.end() : undefined);
    expect(response).toBeDefined();
    return parser.reuseWindowMs(ourLimitMs);
  }

  it('an HTTP/1.1 answer framed by length or chunks: reusable for our limit', () => {
    expect(windowAfter('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')).toBe(3_000);
    expect(windowAfter('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n')).toBe(3_000);
    expect(windowAfter('HTTP/1.1 204 No Content\r\n\r\n')).toBe(3_000);
  });

  it("caps the window a second under the server's Keep-Alive timeout, and refuses when that leaves nothing", () => {
    expect(windowAfter('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5\r\nContent-Length: 0\r\n\r\n', 10_000)).toBe(4_000);
    expect(windowAfter('HTTP/1.1 200 OK\r\nKeep-Alive: max=100, timeout=2\r\nContent-Length: 0\r\n\r\n')).toBe(1_000);
    expect(windowAfter('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 0\r\n\r\n')).toBeUndefined();
  });

  it('never after Connection: close, an HTTP/1.0 answer, a body framed by the close, or stray bytes after the body', () => {
    expect(windowAfter('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')).toBeUndefined();
    expect(
      windowAfter('HTTP/1.1 200 OK\r\nConnection: Keep-Alive, Close\r\nContent-Length: 0\r\n\r\n'),
    ).toBeUndefined();
    expect(windowAfter('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n')).toBeUndefined();
    expect(windowAfter('HTTP/1.1 200 OK\r\n\r\nuntil the end', 3_000, true)).toBeUndefined();
    expect(windowAfter('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n')).toBeUndefined();
  });

  it('never before the response is complete', () => {
    const parser = new ResponseParser(1024);
    expect(parser.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhe'))).toBeUndefined();
    expect(parser.reuseWindowMs(3_000)).toBeUndefined();
  });
});
