/**
 * The fetch every upstream request goes through: the headers of the MCP
 * handshake (handshake.ts: the identity of the current configuration, an
 * edited key applying to the very next call with no new session, and the
 * project's peer as the actor peer, DESIGN D24) and each POST's deadline
 * (`settings.timeoutMs`); the optional GET event stream stays open.
 *
 * @module
 */
import type { ConfigWatch } from '../config/configFiles.js';
import { IDENTITY_HEADER_NAMES } from '../openviking/identityHeaders.js';
import { mcpRequestHeaders, type McpWorkspace } from './handshake.js';
import type { FetchLike } from './sdkSession.js';

export interface IdentityFetchOptions {
  config: ConfigWatch;
  /** The network fetch (the global one in production). */
  fetch: FetchLike;
  userAgent: string;
  now: () => number;
  /** The workspace the proxy serves and the home directory: its project's peer id is the actor peer. */
  project?: McpWorkspace;
}

/** The fetch every POST goes through: the current identity's headers and the call's deadline. */
export function identityFetchFor(options: IdentityFetchOptions): FetchLike {
  return (url, init) => {
    const headers = new Headers(init?.headers);
    const current = options.config.current();
    // Only the current identity: a value dropped from the configuration is never sent from an older request's headers.
    for (const name of IDENTITY_HEADER_NAMES) headers.delete(name);
    for (const [name, value] of Object.entries(
      mcpRequestHeaders(current, options.project, options.now(), options.userAgent),
    ))
      headers.set(name, value);
    // POSTs end; the optional GET event stream is meant to stay open.
    const isPost = (init?.method ?? 'GET').toUpperCase() === 'POST';
    const timeout = AbortSignal.timeout(current.settings.timeoutMs);
    const signal = isPost ? (init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout) : init?.signal;
    return options.fetch(url, { ...init, headers, ...(signal ? { signal } : {}) });
  };
}
