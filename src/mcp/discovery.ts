/**
 * The listing requests a host uses to discover what a server offers, what
 * each answers when OpenViking cannot be asked, and the upkeep of the tool
 * list the host was given.
 *
 * CodeBuddy lists tools (and resource templates) right after the handshake
 * and many times later; a listing that errors or hangs can leave the server
 * marked as failed for the whole run. So these requests get a short budget
 * and, on any failure, a well-formed answer: the remembered tool list, or an
 * empty list. Calls (`tools/call`, `resources/read`, …) never fall back:
 * they answer with a clear error instead.
 *
 * Every live tool list is remembered on disk (snapshot.ts). When the host had
 * to be given a fallback, the proxy re-lists as soon as a new upstream
 * session opens and sends `notifications/tools/list_changed` if the list
 * differs, so the host picks up the live tools without a restart.
 *
 * @module
 */
import { describeError, isUpstreamError } from './failures.js';
import type { JsonRpcNotification, JsonRpcRequest } from './jsonRpc.js';
import type { ProxyLog } from './log.js';
import type { SnapshotStore } from './snapshot.js';
import type { CallOptions } from './upstream.js';

/** Budget of a listing request before the fallback answers. */
export const LISTING_BUDGET_MS = 3000;

/** Listing method → the array field of its result. */
const LISTING_FIELDS: Readonly<Record<string, string>> = Object.freeze({
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
});

/** The result field when `method` is a first-page listing with a fallback; undefined otherwise. */
export function listingField(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (params?.cursor !== undefined) return undefined; // a later page has no meaningful fallback
  return LISTING_FIELDS[method];
}

/** The fallback answer: `{<field>: items}` (items default to none). */
export function fallbackListing(field: string, items: readonly unknown[] = []): Record<string, unknown> {
  return { [field]: [...items] };
}

export interface DiscoveryOptions {
  /** Forwards one request upstream (upstream.ts `request`). */
  request: (
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ) => Promise<Record<string, unknown>>;
  snapshots: SnapshotStore;
  mcpUrl: () => string;
  /** Per-call timeout of the configuration; listings use the smaller of it and `LISTING_BUDGET_MS`. */
  timeoutMs: () => number;
  notify: (notification: JsonRpcNotification) => void;
  log: ProxyLog;
}

export interface Discovery {
  /** Answers a first-page listing (see `listingField`); rejects only when the host cancelled it. */
  answer(request: JsonRpcRequest, field: string, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** A new upstream session opened: re-list if the host was last given a fallback tool list. */
  onReconnected(): void;
  /**
   * Answers a listing without asking OpenViking (memory is off here): the
   * remembered tool list, so each tool can say why it is off, else none.
   * Counts as a fallback, so the live list is sent once memory is back on.
   */
  answerLocally(request: JsonRpcRequest, field: string): Promise<Record<string, unknown>>;
}

export function createDiscovery(options: DiscoveryOptions): Discovery {
  const { log, snapshots } = options;
  /** JSON of the tool list the host last received, and whether it was a fallback. */
  let served: { json: string; fallback: boolean } | undefined;
  let relisting = false;

  /** Remembers a live tool list on disk when it changed; returns whether the host saw a different one. */
  const recordLive = (url: string, tools: unknown[]): boolean => {
    void snapshots.update(url, { tools });
    const json = JSON.stringify(tools);
    const changed = served !== undefined && served.json !== json;
    served = { json, fallback: false };
    return changed;
  };

  const budget = () => Math.min(LISTING_BUDGET_MS, options.timeoutMs());

  const relist = async () => {
    if (relisting) return;
    relisting = true;
    try {
      const url = options.mcpUrl();
      const result = await options.request('tools/list', undefined, { timeoutMs: budget() });
      if (recordLive(url, Array.isArray(result.tools) ? result.tools : [])) {
        log.debug('tool list changed after reconnect; notifying the host');
        options.notify({ method: 'notifications/tools/list_changed' });
      }
    } catch (error) {
      log.debug('re-list after reconnect failed', { error: describeError(error) });
    } finally {
      relisting = false;
    }
  };

  return {
    async answer(request, field, signal) {
      const url = options.mcpUrl();
      const isTools = request.method === 'tools/list';
      try {
        const result = await options.request(request.method, request.params, { signal, timeoutMs: budget() });
        if (isTools && Array.isArray(result.tools)) recordLive(url, result.tools);
        return result;
      } catch (error) {
        if (signal.aborted) throw error;
        const remembered = isTools ? ((await snapshots.load(url))?.tools ?? []) : [];
        // An upstream that simply lacks the method (no resources, say) is normal; anything else is worth a warning.
        const unsupported = isUpstreamError(error) && error.failure.kind === 'rpc';
        (unsupported ? log.debug : log.warn)(
          `${request.method} failed upstream; serving ${remembered.length ? 'the remembered list' : 'an empty list'}`,
          {
            error: describeError(error),
          },
        );
        if (isTools) served = { json: JSON.stringify(remembered), fallback: true };
        return fallbackListing(field, remembered);
      }
    },
    onReconnected() {
      if (served?.fallback) void relist();
    },
    async answerLocally(request, field) {
      const isTools = request.method === 'tools/list';
      const remembered = isTools ? ((await snapshots.load(options.mcpUrl()))?.tools ?? []) : [];
      if (isTools) served = { json: JSON.stringify(remembered), fallback: true };
      return fallbackListing(field, remembered);
    },
  };
}
