/**
 * The proxy's link to OpenViking's `/mcp`: one lazily opened SDK session,
 * re-opened whenever it breaks, with the current identity on every POST.
 *
 * Behaviour (openviking-api.md §4.2, improved where noted):
 * - The SDK is loaded and the session opened on first need (or by `warmUp`,
 *   which the proxy calls right after answering `initialize`); concurrent
 *   callers share one handshake.
 * - Identity headers are added per request from the current config, so an
 *   edited key applies to the very next call without a new session. Before
 *   each call the config files are checked for changes (config/configFiles.ts);
 *   a changed MCP URL retires the session.
 * - HTTP 400/404 on a call: the session is retired, a new one is opened and
 *   the call retried once (the reference proxy's re-init).
 * - HTTP 401/403: if a config file changed meanwhile, reload and retry once;
 *   otherwise the failure goes back to the caller.
 * - Network failure: the session is retired, so the next call reconnects by
 *   itself once the server is back (no background polling).
 * - Every call has one deadline covering handshake and retries
 *   (`settings.timeoutMs`), and at most `maxConcurrent` calls are upstream
 *   at once.
 *
 * @module
 */
import type { Credentials } from '../config/types.js';
import type { ConfigWatch } from '../config/configFiles.js';
import { UpstreamError, type UpstreamFailure } from './failures.js';
import type { UpstreamProfile } from './initialize.js';
import type { JsonRpcNotification } from './jsonRpc.js';
import type { ProxyLog } from './log.js';
import type { FetchLike, SdkSession, SdkSessionOptions } from './sdkSession.js';
import { createSemaphore } from './semaphore.js';
import { projectFor } from '../project/identity.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { errorMessage } from '../util/errors.js';

export type OpenSession = (options: SdkSessionOptions) => Promise<SdkSession>;

export interface UpstreamOptions {
  config: ConfigWatch;
  /** The network fetch (the global one in production). */
  fetch: FetchLike;
  userAgent: string;
  clientInfo: { name: string; version: string };
  maxConcurrent: number;
  now: () => number;
  log: ProxyLog;
  onNotification: (notification: JsonRpcNotification) => void;
  /** Called after each successful handshake, for the local `initialize` answer of later runs. */
  onProfile: (mcpUrl: string, profile: UpstreamProfile) => void;
  /** Defaults to loading sdkSession.js with `import()`. */
  openSession?: OpenSession;
  /**
   * The workspace the proxy serves (its cwd) and the home directory: its
   * project's peer id (DESIGN D24) goes out as `X-OpenViking-Actor-Peer`
   * unless one is configured. Absent: only a configured peer is sent.
   */
  project?: { workspace: string; homeDir: string };
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides `settings.timeoutMs` (e.g. a shorter budget for list requests). */
  timeoutMs?: number;
}

export interface Upstream {
  /** Forwards one request; rejects only with `UpstreamError`. */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
  /** Opens the session in the background; failures are only logged. */
  warmUp(): void;
  /** Re-reads the configuration when a config file changed (a changed MCP URL retires the session); true when it did. */
  syncConfig(): boolean;
  close(): Promise<void>;
}

/** How long shutdown waits for the session to close. */
const CLOSE_BUDGET_MS = 2000;

interface Link {
  mcpUrl: string;
  session: Promise<SdkSession>;
  inFlight: number;
  retired: boolean;
}

const loadSdkSession: OpenSession = async (options) => (await import('./sdkSession.js')).openSdkSession(options);

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

export function createUpstream(options: UpstreamOptions): Upstream {
  const { config, log } = options;
  const openSession = options.openSession ?? loadSdkSession;
  const semaphore = createSemaphore(options.maxConcurrent);
  const defaultTimeout = () => config.current().settings.timeoutMs;
  let link: Link | undefined;
  let closed = false;

  const identityFetch: FetchLike = (url, init) => {
    const headers = new Headers(init?.headers);
    const current = config.current();
    const { credentials } = current;
    const project = options.project;
    // Cached per workspace and re-checked with a few stats (project/identity.ts): cheap on every POST.
    const peer = project
      ? projectFor(current, project.workspace, project.homeDir, options.now()).project.peerId
      : credentials.peerId;
    applyIdentityHeaders(headers, credentials, options.userAgent, peer);
    // POSTs end; the optional GET event stream is meant to stay open.
    const isPost = (init?.method ?? 'GET').toUpperCase() === 'POST';
    const timeout = AbortSignal.timeout(defaultTimeout());
    const signal = isPost ? (init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout) : init?.signal;
    return options.fetch(url, { ...init, headers, ...(signal ? { signal } : {}) });
  };

  /** A retired link is closed once its last call has settled. */
  const closeIfIdle = (target: Link) => {
    if (target.retired && target.inFlight === 0)
      void target.session.then(
        (session) => session.close(),
        () => undefined,
      ); // a failed handshake left nothing to close
  };

  const retire = (target: Link | undefined) => {
    if (!target || target.retired) return;
    target.retired = true;
    if (link === target) link = undefined;
    closeIfIdle(target);
  };

  const currentLink = (timeoutMs: number): Link => {
    if (link && !link.retired) return link;
    const mcpUrl = config.current().credentials.mcpUrl;
    let fresh: Link | undefined; // eslint-disable-line prefer-const -- the callbacks below are made before it is assigned
    const session = openSession({
      mcpUrl,
      fetch: identityFetch,
      clientInfo: options.clientInfo,
      timeoutMs,
      onNotification: options.onNotification,
      onClosed: () => retire(fresh),
      onError: (message) => log.debug('upstream transport error', { message }),
    });
    fresh = { mcpUrl, session, inFlight: 0, retired: false };
    session.then(
      (session) => {
        log.debug('upstream session opened', { mcpUrl: displayUrl(mcpUrl, true) });
        options.onProfile(mcpUrl, session.profile);
      },
      () => retire(fresh),
    );
    link = fresh;
    return fresh;
  };

  const attempt = async (
    method: string,
    params: Record<string, unknown> | undefined,
    deadline: number,
    signal: AbortSignal | undefined,
  ) => {
    const remaining = () => deadline - options.now();
    if (remaining() <= 0) throw new UpstreamError({ kind: 'timeout', timeoutMs: defaultTimeout() });
    const target = currentLink(remaining());
    target.inFlight += 1;
    try {
      const session = await target.session;
      if (remaining() <= 0) throw new UpstreamError({ kind: 'timeout', timeoutMs: defaultTimeout() });
      return await session.request(method, params, { timeoutMs: remaining(), ...(signal ? { signal } : {}) });
    } catch (error) {
      const failure = failureOf(error);
      if (
        failure.kind === 'network' ||
        failure.kind === 'protocol' ||
        (failure.kind === 'http' && (failure.status === 400 || failure.status === 404))
      ) {
        retire(target);
      }
      throw error;
    } finally {
      target.inFlight -= 1;
      closeIfIdle(target);
    }
  };

  const refreshConfig = (): boolean => {
    if (!config.refresh()) return false;
    log.debug('configuration reloaded');
    if (link && link.mcpUrl !== config.current().credentials.mcpUrl) retire(link);
    return true;
  };

  return {
    request(method, params, callOptions = {}) {
      if (closed) return Promise.reject(new UpstreamError({ kind: 'cancelled' }));
      return semaphore.run(async () => {
        refreshConfig();
        const budgetMs = callOptions.timeoutMs ?? defaultTimeout();
        const deadline = options.now() + budgetMs;
        try {
          try {
            return await attempt(method, params, deadline, callOptions.signal);
          } catch (error) {
            const failure = failureOf(error);
            if (!shouldRetry(failure, refreshConfig)) throw error;
            log.debug('retrying upstream call once', {
              method,
              reason: failure.kind === 'http' ? failure.status : failure.kind,
            });
            return await attempt(method, params, deadline, callOptions.signal);
          }
        } catch (error) {
          throw reportBudget(error, budgetMs);
        }
      });
    },
    syncConfig: refreshConfig,
    warmUp() {
      if (closed) return;
      refreshConfig();
      currentLink(defaultTimeout()).session.catch((error: unknown) =>
        log.debug('upstream not reachable yet', { failure: failureOf(error).kind }),
      );
    },
    async close() {
      closed = true;
      const last = link;
      link = undefined;
      if (!last) return;
      const closing = last.session.then(
        (session) => session.close(),
        () => undefined,
      ); // a failed handshake left nothing to close
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_BUDGET_MS).unref())]);
    },
  };
}

/**
 * A timeout names the call's configured budget: the timer inside was armed
 * with what was left of it, which a timer firing a millisecond early or time
 * spent on the handshake makes smaller (the user set the budget, not that).
 */
function reportBudget(error: unknown, budgetMs: number): unknown {
  return error instanceof UpstreamError && error.failure.kind === 'timeout' && error.failure.timeoutMs !== budgetMs
    ? new UpstreamError({ kind: 'timeout', timeoutMs: budgetMs })
    : error;
}

function failureOf(error: unknown): UpstreamFailure {
  return error instanceof UpstreamError ? error.failure : { kind: 'protocol', message: errorMessage(error) };
}

/** 400/404 → re-init and retry; 401/403 → retry only when the credentials just changed on disk. */
function shouldRetry(failure: UpstreamFailure, refreshConfig: () => boolean): boolean {
  if (failure.kind !== 'http') return false;
  if (failure.status === 400 || failure.status === 404) return true;
  if (failure.status === 401 || failure.status === 403) return refreshConfig();
  return false;
}
