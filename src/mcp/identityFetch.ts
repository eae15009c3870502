/**
 * The fetch every upstream request goes through: the OpenViking identity
 * headers of the current configuration (openviking-api.md §1.2; an edited
 * key applies to the very next call, no new session needed), the project's
 * peer as the actor peer (DESIGN D24), and each POST's deadline
 * (`settings.timeoutMs`); the optional GET event stream stays open.
 *
 * @module
 */
import type { ConfigWatch } from '../config/configFiles.js';
import type { Credentials } from '../config/types.js';
import { projectFor } from '../project/identity.js';
import type { FetchLike } from './sdkSession.js';

export interface IdentityFetchOptions {
  config: ConfigWatch;
  /** The network fetch (the global one in production). */
  fetch: FetchLike;
  userAgent: string;
  now: () => number;
  /** The workspace the proxy serves and the home directory: its project's peer id is the actor peer. */
  project?: { workspace: string; homeDir: string };
}

/** Sets the OpenViking identity headers (openviking-api.md §1.2) on a request's headers. */
export function applyIdentityHeaders(
  headers: Headers,
  credentials: Credentials,
  userAgent: string,
  actorPeer = credentials.peerId,
): void {
  const values: Array<[string, string | undefined]> = [
    ['authorization', credentials.apiKey ? `Bearer ${credentials.apiKey}` : undefined],
    ['x-openviking-account', credentials.account],
    ['x-openviking-user', credentials.user],
    ['x-openviking-actor-peer', actorPeer],
    ['user-agent', userAgent],
  ];
  for (const [name, value] of values) {
    const trimmed = value?.trim();
    if (trimmed) headers.set(name, trimmed);
    else headers.delete(name);
  }
}

/** The fetch every POST goes through: the current identity's headers and the call's deadline. */
export function identityFetchFor(options: IdentityFetchOptions): FetchLike {
  return (url, init) => {
    const headers = new Headers(init?.headers);
    const current = options.config.current();
    const { credentials } = current;
    const project = options.project;
    // Cached per workspace and re-checked with a few stats (project/identity.ts): cheap on every POST.
    const peer = project
      ? projectFor(current, project.workspace, project.homeDir, options.now()).project.peerId
      : credentials.peerId;
    applyIdentityHeaders(headers, credentials, options.userAgent, peer);
    // POSTs end; the optional GET event stream is meant to stay open.
    const isPost = (init?.method ?? 'GET').toUpperCase() === 'POST';
    const timeout = AbortSignal.timeout(current.settings.timeoutMs);
    const signal = isPost ? (init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout) : init?.signal;
    return options.fetch(url, { ...init, headers, ...(signal ? { signal } : {}) });
  };
}
