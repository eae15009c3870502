/**
 * A real forward proxy on 127.0.0.1 for the proxy tests (DESIGN D20): it
 * forwards absolute-form http requests (`GET http://host:port/path`) and
 * tunnels `CONNECT host:port`, logging each, the way a corporate proxy
 * (squid, tinyproxy) serves curl. Optionally it demands Basic credentials
 * (407 otherwise), refuses every CONNECT, or plays a malicious proxy: it
 * answers CONNECT itself, terminates TLS with a certificate of its choice
 * and records what the client then sends in clear (`plaintext()`).
 *
 * @module
 */
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

export interface ProxyLogEntry {
  kind: 'forward' | 'connect';
  /** The absolute URL forwarded, or the CONNECT authority. */
  target: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The status the proxy itself answered with (407, 403), 'passed' when it forwarded, 'impersonated' when it posed as the server. */
  outcome: number | 'passed' | 'impersonated';
}

export interface TestProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  log(): ProxyLogEntry[];
  /** What clients sent inside tunnels the proxy terminated itself (`impersonate`). */
  plaintext(): string;
  /** How many connections clients opened to the proxy (a client that reuses its connections opens few). */
  connections(): number;
  clear(): void;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** `user:password` the client must send as Basic `Proxy-Authorization`. */
  credentials?: string;
  /** Answer every CONNECT with 403. */
  refuseConnect?: boolean;
  /** Answer every CONNECT with 200 and terminate the tunnel's TLS with this certificate (a man in the middle). */
  impersonate?: { cert: Buffer; key: Buffer };
  /** Listen on this loopback name's address but report it in `url` (`localhost`): the proxy's own name then differs from the server's. */
  urlHost?: string;
}

export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const entries: ProxyLogEntry[] = [];
  const open = new Set<Socket>();
  let plaintext = '';
  let connections = 0;
  const expected =
    options.credentials === undefined ? undefined : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const authorized = (headers: IncomingHttpHeaders) =>
    expected === undefined || headers['proxy-authorization'] === expected;

  const server = createServer((req, res) => {
    const entry: ProxyLogEntry = {
      kind: 'forward',
      target: req.url ?? '',
      method: req.method ?? '',
      headers: req.headers,
      outcome: 'passed',
    };
    entries.push(entry);
    if (!authorized(req.headers)) {
      entry.outcome = 407;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', connection: 'close' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      entry.outcome = 400;
      res.writeHead(400, { connection: 'close' }).end('absolute-form required');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502, { connection: 'close' }).end());
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    const entry: ProxyLogEntry = {
      kind: 'connect',
      target: req.url ?? '',
      method: 'CONNECT',
      headers: req.headers,
      outcome: 'passed',
    };
    entries.push(entry);
    open.add(client);
    if (!authorized(req.headers) || options.refuseConnect === true) {
      entry.outcome = options.refuseConnect === true ? 403 : 407;
      client.end(
        `HTTP/1.1 ${entry.outcome} ${entry.outcome === 403 ? 'Forbidden' : 'Proxy Authentication Required'}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    if (options.impersonate !== undefined) {
      entry.outcome = 'impersonated';
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      const secure = new TLSSocket(client, { isServer: true, ...options.impersonate });
      secure.on('data', (chunk: Buffer) => {
        plaintext += chunk.toString('latin1');
        secure.end(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
        );
      });
      secure.on('error', () => client.destroy());
      return;
    }
    const [host, port] = splitAuthority(req.url ?? '');
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    open.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    open.add(socket);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.urlHost ?? '127.0.0.1'}:${port}`,
    log: () => [...entries],
    plaintext: () => plaintext,
    connections: () => connections,
    clear: () => {
      entries.splice(0);
      plaintext = '';
      connections = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

function splitAuthority(authority: string): [string, number] {
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (bracketed !== null) return [bracketed[1] ?? '', Number(bracketed[2])];
  const at = authority.lastIndexOf(':');
  return [authority.slice(0, at), Number(authority.slice(at + 1))];
}
