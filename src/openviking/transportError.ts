/**
 * How a transport says why no HTTP answer arrived.
 *
 * `HttpTransport` rejects only when there is no answer (http.ts). The client
 * must still tell a timeout from a refused or reset connection, a request
 * that never left from one that may have reached the server, and a reply too
 * large to hold from all of them, without knowing which transport it runs
 * on. So transports reject with an `Error` carrying a `kind`; any other
 * rejection (a transport that does not know this convention) counts as
 * `network`, the cautious reading: it may have been sent.
 *
 * @module
 */
import { errorCode, errorMessage } from '../util/errors.js';

/**
 * `timeout`: the exchange outlived its limit; `too_large`: the body passed
 * the size cap; `unsent`: no byte of the request left this machine (the
 * connection was refused, the name did not resolve, the host was
 * unreachable: the server's, or the proxy's on the way), so the server
 * cannot have it; `network`: anything else (a reset, a closed connection,
 * a TLS failure), after which the request may have arrived.
 */
export type TransportFailureKind = 'timeout' | 'network' | 'too_large' | 'unsent';

export interface TransportError extends Error {
  kind: TransportFailureKind;
  /** The system or TLS error code behind it (`ECONNREFUSED`, `ENOTFOUND`, `ERR_SSL_WRONG_VERSION_NUMBER`), for doctor's diagnosis. */
  cause?: string;
}

/** Builds the rejection value of a transport. */
export function transportError(kind: TransportFailureKind, message: string, cause?: string): TransportError {
  return Object.assign(new Error(message), cause === undefined ? { kind } : { kind, cause });
}

/** The error code a transport's rejection carries, if any. */
export function transportFailureCause(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return typeof cause === 'string' ? cause : undefined;
}

/** Reads the kind back from any rejection value; unknown shapes are `network`. */
export function transportFailureKind(error: unknown): TransportFailureKind {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return kind === 'timeout' || kind === 'too_large' || kind === 'unsent' ? kind : 'network';
}

/** System errors that end a connection before it is open: nothing was written to it. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH']);

/** A socket's error as a rejection: `unsent` when the connection never opened, else `network`. `prefix` says whose socket. */
export function socketError(error: unknown, prefix = ''): TransportError {
  const code = errorCode(error);
  return transportError(
    code !== undefined && NEVER_CONNECTED.has(code) ? 'unsent' : 'network',
    `${prefix}${errorMessage(error)}`,
    code,
  );
}
