/**
 * Reaching the server through a proxy, for the socket transport
 * (socketHttp.ts; rules in proxy.ts, DESIGN D20):
 * - an http target: a connection to the proxy, over which the request goes
 *   in absolute form (`GET http://host:port/path`, http1.ts), as curl does;
 * - an https target: `CONNECT host:port` on a connection to the proxy, then
 *   TLS to the server INSIDE the tunnel, with the usual verification (node's
 *   CAs plus NODE_EXTRA_CA_CERTS) against the SERVER's own host, name or
 *   address: the proxy sees only ciphertext and cannot pass for the server.
 *   Every TLS connection pins its identity explicitly (`serverIdentity`):
 *   node checks a certificate against `servername`, else `host`, else the
 *   wrapped socket's host, and `servername` (SNI) is not allowed for an
 *   address. The tunnel once gave neither for an address, so node checked
 *   the PROXY's name: a proxy reached as `localhost` could answer CONNECT
 *   itself with a `localhost` certificate and read the key (issue 20).
 * An `https://` proxy is itself reached over verified TLS first. Opening a
 * connection, direct or to a proxy, is `openConnection`'s alone.
 *
 * Bundled into the hook entry with the socket transport (~4 KB, parsed by
 * every hook; measured within noise on the no-op and prompt rows, DESIGN D20),
 * but run only when a proxy variable applies: its `net`/`tls` work never
 * happens in hooks without one.
 *
 * @module
 */
import type { Socket } from 'node:net';
import type { ProxyRoute } from './proxy.js';
import { socketError, transportError } from './transportError.js';
import { errorCode, errorMessage } from '../util/errors.js';

/** A CONNECT answer's head larger than this is not a proxy's. */
const MAX_CONNECT_HEAD_BYTES = 16 * 1024;

/** `host` without IPv6 brackets. */
function bare(host: string): string {
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

/**
 * The TLS options that make `host` (a name or a bare address) the identity
 * the certificate must prove: SNI for a name (none is allowed for an
 * address), and the check itself pinned to `host`, whatever socket the TLS
 * runs over.
 */
function serverIdentity(
  host: string,
  tls: typeof import('node:tls'),
  net: typeof import('node:net'),
): Pick<import('node:tls').ConnectionOptions, 'servername' | 'checkServerIdentity'> {
  return {
    ...(net.isIP(host) === 0 ? { servername: host } : {}),
    checkServerIdentity: (_name, certificate) => tls.checkServerIdentity(host, certificate),
  };
}

/**
 * A connection to `url`'s host and port: TCP for `http:`, verified TLS for
 * `https:` (offering ALPN `http/1.1` when `alpn`). The one place the
 * transport opens sockets, to a server or to a proxy.
 */
export async function openConnection(url: URL, alpn: boolean): Promise<Socket> {
  const host = bare(url.hostname);
  if (url.protocol === 'https:') {
    const [tls, net] = await Promise.all([import('node:tls'), import('node:net')]);
    return tls.connect({
      host,
      port: Number(url.port || 443),
      ...serverIdentity(host, tls, net),
      ...(alpn ? { ALPNProtocols: ['http/1.1'] } : {}),
    });
  }
  const net = await import('node:net');
  return net.connect({ host, port: Number(url.port || 80) });
}

/** Opens a connection to the proxy itself (TLS for an https:// proxy). */
export function connectToProxy(route: ProxyRoute): Promise<Socket> {
  return openConnection(route.proxy, false);
}

/**
 * A TLS connection to `target` through a CONNECT tunnel, verified as a
 * direct one would be. Rejects (kind `network`, or `timeout` after
 * `timeoutMs`) when the proxy refuses (any non-2xx answer, e.g. 407) or the
 * server's certificate does not verify.
 */
export async function tunnelTls(target: URL, route: ProxyRoute, timeoutMs: number): Promise<Socket> {
  const [tls, net] = await Promise.all([import('node:tls'), import('node:net')]);
  const proxySocket = await connectToProxy(route);
  const host = bare(target.hostname);
  const authority = `${target.hostname}:${target.port || 443}`;
  return new Promise<Socket>((resolve, reject) => {
    let head = Buffer.alloc(0);
    let secured: Socket | undefined;
    const timer = setTimeout(
      () => fail(transportError('timeout', `proxy tunnel not established within ${timeoutMs} ms`)),
      Math.max(1, timeoutMs),
    );
    function fail(error: Error): void {
      clearTimeout(timer);
      proxySocket.off('data', onData);
      proxySocket.destroy();
      secured?.destroy();
      reject(error);
    }
    const onError = (error: Error): void => fail(socketError(error, `proxy ${route.proxy.host}: `));
    const onClose = (): void =>
      fail(transportError('network', `proxy ${route.proxy.host} closed the connection before the tunnel was up`));
    function onData(chunk: Buffer): void {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_CONNECT_HEAD_BYTES) fail(transportError('network', 'proxy CONNECT answer too large'));
        return;
      }
      proxySocket.off('data', onData);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1', 0, end));
      if (status === null || !(status[1] ?? '').startsWith('2')) {
        return fail(
          transportError(
            'network',
            `proxy ${route.proxy.host} refused CONNECT ${authority}: ${status === null ? 'not an HTTP answer' : `status ${status[1]}`}`,
          ),
        );
      }
      if (head.length > end + 4) return fail(transportError('network', 'proxy sent bytes before the TLS handshake'));
      proxySocket.off('error', onError).off('close', onClose);
      secured = tls.connect({
        socket: proxySocket,
        host,
        ...serverIdentity(host, tls, net),
        ALPNProtocols: ['http/1.1'],
      });
      secured.once('secureConnect', () => {
        clearTimeout(timer);
        secured?.off('error', onSecureError);
        resolve(secured as Socket);
      });
      secured.once('error', onSecureError);
    }
    const onSecureError = (error: Error): void =>
      fail(transportError('network', errorMessage(error), errorCode(error)));
    proxySocket.on('data', onData).on('error', onError).on('close', onClose);
    const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
    if (route.authorization !== undefined) lines.push(`Proxy-Authorization: ${route.authorization}`);
    proxySocket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
