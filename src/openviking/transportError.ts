/**
 * How a transport says why no HTTP answer arrived.
 *
 * `HttpTransport` rejects only when there is no answer (http.ts). The client
 * must still tell a timeout from a refused or reset connection, and a reply
 * too large to hold from both, without knowing which transport it runs on. So
 * transports reject with an `Error` carrying a `kind`; any other rejection
 * (a transport that does not know this convention) counts as `network`.
 *
 * @module
 */

/** `timeout`: the exchange outlived its limit; `too_large`: the body passed the size cap; `network`: anything else. */
export type TransportFailureKind = 'timeout' | 'network' | 'too_large';

export interface TransportError extends Error {
  kind: TransportFailureKind;
}

/** Builds the rejection value of a transport. */
export function transportError(kind: TransportFailureKind, message: string): TransportError {
  return Object.assign(new Error(message), { kind });
}

/** Reads the kind back from any rejection value; unknown shapes are `network`. */
export function transportFailureKind(error: unknown): TransportFailureKind {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return kind === 'timeout' || kind === 'too_large' ? kind : 'network';
}
