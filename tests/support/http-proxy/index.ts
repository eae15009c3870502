/**
 * A real forward proxy on 127.0.0.1 for the proxy tests (DESIGN D20): it
 * forwards absolute-form http requests (`GET http://host:port/path`) and
 * tunnels `CONNECT host:port`, logging each, the way a corporate proxy
 * (squid, tinyproxy) serves curl. Optionally it demands Basic credentials
 * (407 otherwise) or refuses every CONNECT.
 *
 * @module
 */
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxyLogEntry {
  kind: 'forward' | 'connect';
  /** The absolute URL forwarded, or the CONNECT authority. */
  target: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The status the proxy itself answered with (407, 403), or 'passed' when it forwarded. */
  outcome: number | 'passed';
}

export interface TestProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  log(): ProxyLogEntry[];
  clear(): void;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** `user:password` the client must send as Basic `Proxy-Authorization`. */
  credentials?: string;
  /** Answer every CONNECT with 403. */
  refuseConnect?: boolean;
}

export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const entries: ProxyLogEntry[] = [];
  const open = new Set<Socket>();
  const expected = options.credentials === undefined ? undefined : `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const authorized = (headers: IncomingHttpHeaders) => expected === undefined || headers['proxy-authorization'] === expected;

  const server = createServer((req, res) => {
    const entry: ProxyLogEntry = { kind: 'forward', target: req.url ?? '', method: req.method ?? '', headers: req.headers, outcome: 'passed' };
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
    const upstream = httpRequest({ host: target.hostname, port: target.port || 80, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502, { connection: 'close' }).end());
    req.pipe(upstream);
  });

  server.on('connect', (req, client: Socket, head: Buffer) => {
    const entry: ProxyLogEntry = { kind: 'connect', target: req.url ?? '', method: 'CONNECT', headers: req.headers, outcome: 'passed' };
    entries.push(entry);
    open.add(client);
    if (!authorized(req.headers) || options.refuseConnect === true) {
      entry.outcome = options.refuseConnect === true ? 403 : 407;
      client.end(`HTTP/1.1 ${entry.outcome} ${entry.outcome === 403 ? 'Forbidden' : 'Proxy Authentication Required'}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
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
  server.on('connection', (socket: Socket) => open.add(socket));

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => [...entries],
    clear: () => void entries.splice(0),
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
