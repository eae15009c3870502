/**
 * HTTPS in front of a test server: a TLS terminator on 127.0.0.1 with a
 * self-signed certificate (cert.pem, for 127.0.0.1 and localhost, made once
 * with openssl and valid for a century) that pipes every connection to a
 * plain HTTP server. A client that verifies certificates refuses it unless
 * it trusts cert.pem (NODE_EXTRA_CA_CERTS); one with verification off
 * (NODE_TLS_REJECT_UNAUTHORIZED=0) gets through. The keys are test fixtures
 * and guard nothing.
 *
 * For the TLS identity tests (issue 20 item 1) a second chain: ca.pem, a CA
 * whose key was thrown away, signed `localhost-only.pem` (DNS:localhost, no
 * address) and `ip-only.pem` (IP:127.0.0.1, no name); trust it with
 * NODE_EXTRA_CA_CERTS=TEST_CA_PATH.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:tls';

export const TEST_CERT_PATH = new URL('./cert.pem', import.meta.url).pathname;
const TEST_KEY_PATH = new URL('./key.pem', import.meta.url).pathname;
/** The CA of the two identity certificates below. */
export const TEST_CA_PATH = new URL('./ca.pem', import.meta.url).pathname;

/** Which certificate a TLS front presents. */
export type TestIdentity = 'both' | 'localhost-only' | 'ip-only';

/** The certificate and key of `identity`. */
export function testCertificate(identity: TestIdentity): { cert: Buffer; key: Buffer } {
  const file = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url));
  if (identity === 'both') return { cert: readFileSync(TEST_CERT_PATH), key: readFileSync(TEST_KEY_PATH) };
  return { cert: file(`${identity}.pem`), key: file(`${identity}-key.pem`) };
}

export interface TlsFront {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Connections that completed the TLS handshake. */
  handshakes(): number;
  /** Handshakes the client refused or broke off (e.g. an unverified certificate). */
  failedHandshakes(): number;
  close(): Promise<void>;
}

/** Terminates TLS on a free loopback port and forwards the bytes to `127.0.0.1:targetPort`. */
export async function startTlsFront(targetPort: number, identity: TestIdentity = 'both'): Promise<TlsFront> {
  let handshakes = 0;
  let failed = 0;
  const open = new Set<{ destroy(): void }>();
  const server = createServer(testCertificate(identity), (tls) => {
    handshakes += 1;
    const upstream = connect(targetPort, '127.0.0.1');
    open.add(tls).add(upstream);
    tls.pipe(upstream).pipe(tls);
    const end = (): void => {
      tls.destroy();
      upstream.destroy();
    };
    tls.on('error', end);
    upstream.on('error', end);
  });
  server.on('tlsClientError', () => {
    failed += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    handshakes: () => handshakes,
    failedHandshakes: () => failed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy(); // piped connections would hold close() open
      }),
  };
}
