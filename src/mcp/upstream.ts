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
import type { ConfigWatch } from '../config/configFiles.js';
import { UpstreamError, type UpstreamFailure } from './failures.js';
import type { UpstreamProfile } from './initialize.js';
import type { JsonRpcNotification } from './jsonRpc.js';
import type { ProxyLog } from './log.js';
import type { FetchLike, SdkSession, SdkSessionOptions } from './sdkSession.js';
import { identityFetchFor } from './identityFetch.js';
import { createSemaphore } from './semaphore.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { errorMessage } from '../util/errors.js';

export type OpenSession = (options: SdkSessionOptions) => Promise<SdkSession>;

export interface UpstreamOptions {
  config: ConfigWatch;
  /** The network fetch (the global one in production). */
  fetch: FetchLike;
  userAgent: string;
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

export function createUpstream(options: UpstreamOptions): Upstream {
  const sessions = new UpstreamSessions(options);
  const { config, log } = options;
  const semaphore = createSemaphore(options.maxConcurrent);
  return {
    request(method, params, callOptions = {}) {
      if (sessions.closed) return Promise.reject(new UpstreamError({ kind: 'cancelled' }));
      return semaphore.run(async () => {
        sessions.refreshConfig();
        const budgetMs = callOptions.timeoutMs ?? config.current().settings.timeoutMs;
        const deadline = options.now() + budgetMs;
        const attempt = () => sessions.attempt(method, params, deadline, callOptions.signal);
        try {
          try {
            return await attempt();
          } catch (error) {
            const failure = failureOf(error);
            if (!shouldRetry(failure, () => sessions.refreshConfig())) throw error;
            log.debug('retrying upstream call once', {
              method,
              reason: failure.kind === 'http' ? failure.status : failure.kind,
            });
            return await attempt();
          }
        } catch (error) {
          throw reportBudget(error, budgetMs);
        }
      });
    },
    syncConfig: () => sessions.refreshConfig(),
    warmUp: () => sessions.warmUp(),
    close: () => sessions.close(),
  };
}

/** The current session (one link at a time, opened on first need) and the links being retired. */
class UpstreamSessions {
  closed = false;
  private link: Link | undefined;
  private readonly openSession: OpenSession;
  private readonly identityFetch: FetchLike;

  constructor(private readonly options: UpstreamOptions) {
    this.openSession = options.openSession ?? loadSdkSession;
    this.identityFetch = identityFetchFor(options);
  }

  /** One try of a call on the current link, within `deadline`; a failure that breaks the link retires it. */
  async attempt(
    method: string,
    params: Record<string, unknown> | undefined,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const remaining = () => deadline - this.options.now();
    const timedOut = () => new UpstreamError({ kind: 'timeout', timeoutMs: this.defaultTimeout() });
    if (remaining() <= 0) throw timedOut();
    const target = this.current(remaining());
    target.inFlight += 1;
    try {
      const session = await target.session;
      if (remaining() <= 0) throw timedOut();
      return await session.request(method, params, { timeoutMs: remaining(), ...(signal ? { signal } : {}) });
    } catch (error) {
      if (breaksLink(failureOf(error))) this.retire(target);
      throw error;
    } finally {
      target.inFlight -= 1;
      this.closeIfIdle(target);
    }
  }

  /** Re-reads the configuration when a file changed; a changed MCP URL retires the link. True when it did. */
  refreshConfig(): boolean {
    if (!this.options.config.refresh()) return false;
    this.options.log.debug('configuration reloaded');
    if (this.link && this.link.mcpUrl !== this.options.config.current().credentials.mcpUrl) this.retire(this.link);
    return true;
  }

  warmUp(): void {
    if (this.closed) return;
    this.refreshConfig();
    this.current(this.defaultTimeout()).session.catch((error: unknown) =>
      this.options.log.debug('upstream not reachable yet', { failure: failureOf(error).kind }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const last = this.link;
    this.link = undefined;
    if (!last) return;
    const closing = last.session.then(
      (session) => session.close(),
      () => undefined,
    ); // a failed handshake left nothing to close
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_BUDGET_MS).unref())]);
  }

  private defaultTimeout(): number {
    return this.options.config.current().settings.timeoutMs;
  }

  /** The open link, or a new one to the configured MCP URL. */
  private current(timeoutMs: number): Link {
    if (this.link && !this.link.retired) return this.link;
    const { options } = this;
    const mcpUrl = options.config.current().credentials.mcpUrl;
    let fresh: Link | undefined; // eslint-disable-line prefer-const -- the callbacks below are made before it is assigned
    const session = this.openSession({
      mcpUrl,
      fetch: this.identityFetch,
      timeoutMs,
      onNotification: options.onNotification,
      onClosed: () => this.retire(fresh),
      onError: (message) => options.log.debug('upstream transport error', { message }),
    });
    fresh = { mcpUrl, session, inFlight: 0, retired: false };
    session.then(
      (opened) => {
        options.log.debug('upstream session opened', { mcpUrl: displayUrl(mcpUrl, true) });
        options.onProfile(mcpUrl, opened.profile);
      },
      () => this.retire(fresh),
    );
    this.link = fresh;
    return fresh;
  }

  private retire(target: Link | undefined): void {
    if (!target || target.retired) return;
    target.retired = true;
    if (this.link === target) this.link = undefined;
    this.closeIfIdle(target);
  }

  /** A retired link is closed once its last call has settled. */
  private closeIfIdle(target: Link): void {
    if (target.retired && target.inFlight === 0)
      void target.session.then(
        (session) => session.close(),
        () => undefined,
      ); // a failed handshake left nothing to close
  }
}

/** A failure after which the session cannot be trusted: a new one is opened for the next call. */
function breaksLink(failure: UpstreamFailure): boolean {
  return (
    failure.kind === 'network' ||
    failure.kind === 'protocol' ||
    (failure.kind === 'http' && (failure.status === 400 || failure.status === 404))
  );
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
