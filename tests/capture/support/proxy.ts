/**
 * A tiny HTTP proxy on 127.0.0.1 in front of the test server, for faults the
 * server's own switches cannot order: the rule sees each request (method,
 * path, its index among matching calls) and either forwards it or destroys
 * the client socket without answering ("the server cannot be asked").
 *
 * @module
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyVerdict = 'forward' | 'reset';
export type ProxyRule = (method: string, path: string) => ProxyVerdict;

export interface FaultProxy {
  url: string;
  close(): Promise<void>;
}

export async function startFaultProxy(targetUrl: string, rule: ProxyRule): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  const server = createServer((req, res) => {
    if (rule(req.method ?? 'GET', req.url ?? '/') === 'reset') {
      req.socket.destroy();
      return;
    }
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // A server that cuts its answer short is cut short for the client too.
        answer.on('aborted', () => res.destroy());
        answer.on('error', () => res.destroy());
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
