/**
 * The stdio MCP proxy between CodeBuddy and OpenViking's `/mcp`, as a
 * function of its streams and dependencies (main.ts supplies the real ones).
 *
 * Host side: newline-delimited JSON-RPC on `stdin`/`stdout` (jsonRpc.ts).
 * `initialize` and `ping` are answered locally and at once; everything else
 * (tools, resources, prompts, completion, whatever the server offers) is
 * forwarded verbatim through upstream.ts, so the tool list, descriptions and
 * input schemas are the server's own. Listing requests always answer
 * (discovery.ts); calls answer with a clear error when the server is away.
 * The one change to a forwarded call: user text in the calls that store or
 * search (`remember`, `write`, `edit`, `search`, …) passes the privacy
 * filter (outbound.ts).
 *
 * Memory off here (the memory switch, the workspace's `.openviking/config.json`,
 * `OPENVIKING_BYPASS_SESSION`, or a bypass pattern matching the proxy's
 * folder, its cwd; session/switches.ts): nothing is sent at all. Listings
 * answer from the remembered tool list, a tool call answers with a result
 * saying memory is off here and why, any other call with that error, and no
 * upstream session is opened (DESIGN D25). A bypass pattern meant for
 * session ids cannot apply here: the proxy never learns the session.
 *
 * `mcpEnabled` off (hooks only: the user runs their own OpenViking MCP
 * server, DESIGN D29): the proxy offers nothing and contacts nothing. Every
 * listing answers empty, a tool call answers which tool of the user's own
 * server to use instead, and no upstream session is opened. The host keeps
 * starting the process (`.mcp.json` is static); it costs one idle node.
 *
 * Lifecycle: the proxy ends when stdin ends (CodeBuddy closes it at exit;
 * requests already received get up to `STDIN_END_DRAIN_MS` to be answered,
 * so a script that pipes requests and EOF still gets its answers), or on
 * `close()` (signals, via main.ts), which abandons in-flight calls at once.
 * Either way the upstream session is closed.
 *
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import type { PluginConfig } from '../config/types.js';
import { resolveDataDir } from '../store/paths.js';
import { createConfigWatch, type ConfigWatch } from '../config/configFiles.js';
import { createDiscovery, fallbackListing, listingField } from './discovery.js';
import { describeError, failureToRpcError, isUpstreamError } from './failures.js';
import { buildInitializeResult, type ServerInfo, type UpstreamProfile } from './initialize.js';
import {
  createLineSplitter,
  errorLine,
  notificationLine,
  parseMessage,
  resultLine,
  RpcErrorCode,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from './jsonRpc.js';
import { createStderrLog, type ProxyLog } from './log.js';
import { filterOutboundParams } from './outbound.js';
import type { FetchLike } from './sdkSession.js';
import { createSnapshotStore } from './snapshot.js';
import { createUpstream } from './upstream.js';
import { memoryOffReason, scopeOf, settingText } from '../session/switches.js';
import { MemoryOffError, memoryOffText, ToolsOffError, toolsOffText } from './offAnswers.js';
import { hostFromEnv, toolNamesFor } from '../protocol/hostTools.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Upstream requests in flight at once (openviking-api.md §4.2). */
export const DEFAULT_MAX_CONCURRENT = 16;

/** How long the end of stdin waits for requests already received. */
export const STDIN_END_DRAIN_MS = 1000;

export interface ProxyOptions {
  stdin: Readable;
  stdout: Writable;
  /** Where diagnostics go (stderr in production). */
  writeStderr: (text: string) => void;
  /** Reads the plugin configuration (src/config/load.ts); called again when a config file changes. */
  loadConfig: () => PluginConfig;
  env: Env;
  homeDir: string;
  fetch: FetchLike;
  now: () => number;
  serverInfo: ServerInfo;
  userAgent: string;
  /** Directory for the upstream snapshot; default `<data dir>/cache`; `null` keeps it in memory. */
  cacheDir?: string | null;
  maxConcurrent?: number;
  /** The workspace (the proxy's cwd): its project's peer id is the actor peer (DESIGN D24). */
  workspace?: string;
}

export interface Proxy {
  /** The proxy's redacting stderr log (main.ts reports uncaught errors through it). */
  readonly log: ProxyLog;
  /** Resolves once the proxy has shut down. */
  readonly closed: Promise<void>;
  /** Shuts down (idempotent). */
  close(): Promise<void>;
}

export function createProxy(options: ProxyOptions): Proxy {
  // The log reads the config lazily: the first config load already logs its warnings.
  let watch: ConfigWatch | undefined; // eslint-disable-line prefer-const -- assigned below, read lazily by the log
  const log: ProxyLog = createStderrLog({
    write: options.writeStderr,
    now: options.now,
    debugEnabled: () => watch?.current().settings.debug ?? false,
    secrets: () => [watch?.current().credentials.apiKey],
  });
  const config = createConfigWatch({
    load: options.loadConfig,
    env: options.env,
    homeDir: options.homeDir,
    warn: (message) => log.warn(message),
  });
  watch = config;

  const cacheDir =
    options.cacheDir === null
      ? undefined
      : (options.cacheDir ?? join(resolveDataDir(options.env, options.homeDir), 'cache'));
  const snapshots = createSnapshotStore({ cacheDir, now: options.now, warn: (message) => log.warn(message) });
  const mcpUrl = () => config.current().credentials.mcpUrl;
  void snapshots.load(mcpUrl()); // prefetch for `initialize`

  let closing = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const inFlight = new Map<JsonRpcId, AbortController>();
  /** Requests still being answered (stdin's end waits for them, briefly). */
  const pending = new Set<Promise<void>>();

  const write = (line: string) => {
    if (!closing) options.stdout.write(line);
  };
  const sendNotification = (notification: JsonRpcNotification) => write(notificationLine(notification));

  const rememberProfile = (url: string, profile: UpstreamProfile) => {
    void snapshots.update(url, { profile });
    discovery.onReconnected();
  };

  const upstream = createUpstream({
    config,
    fetch: options.fetch,
    userAgent: options.userAgent,
    clientInfo: { name: options.serverInfo.name, version: options.serverInfo.version },
    maxConcurrent: options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    now: options.now,
    log,
    onNotification: sendNotification,
    onProfile: rememberProfile,
    ...(options.workspace !== undefined ? { project: { workspace: options.workspace, homeDir: options.homeDir } } : {}),
  });

  const discovery = createDiscovery({
    request: (method, params, callOptions) => upstream.request(method, params, callOptions),
    snapshots,
    mcpUrl,
    timeoutMs: () => config.current().settings.timeoutMs,
    notify: sendNotification,
    log,
  });

  /** Why memory is off for the proxy's folder (config re-read when a file changed), or undefined. */
  let wasOff = false;
  const memoryOffHere = (): string | undefined => {
    upstream.syncConfig();
    const current = config.current();
    const scope =
      options.workspace === undefined
        ? { config: current, project: { off: {} } }
        : scopeOf(current, options.workspace, options.homeDir, options.now());
    const off = memoryOffReason(scope);
    // Back on: open the session, whose handshake re-lists and tells the host if the tools changed.
    if (off === undefined && wasOff) setImmediate(() => upstream.warmUp());
    wasOff = off !== undefined;
    return off;
  };

  /** Why this plugin's tools are off (`mcpEnabled`), with the tool to use instead; undefined when they are on. */
  const toolsOffHere = (): string | undefined => {
    upstream.syncConfig();
    const current = config.current();
    if (current.settings.mcpEnabled) return undefined;
    const instead = toolNamesFor(hostFromEnv(options.env), current.settings).name('<tool>');
    return toolsOffText(settingText(current, 'mcpEnabled', 'false'), instead);
  };

  const answer = async (request: JsonRpcRequest, signal: AbortSignal): Promise<unknown> => {
    switch (request.method) {
      case 'initialize': {
        const snapshot = await snapshots.load(mcpUrl());
        // After the answer is written: loading the SDK blocks the thread for a while.
        if (toolsOffHere() === undefined && memoryOffHere() === undefined) setImmediate(() => upstream.warmUp());
        return buildInitializeResult(request.params, snapshot?.profile, options.serverInfo);
      }
      case 'ping':
        return {};
      default: {
        const field = listingField(request.method, request.params);
        const toolsOff = toolsOffHere();
        if (toolsOff !== undefined) {
          log.debug('bundled tools are off; answered locally', { method: request.method });
          if (field !== undefined) return fallbackListing(field);
          if (request.method === 'tools/call') return { content: [{ type: 'text', text: toolsOff }], isError: true };
          throw new ToolsOffError(toolsOff);
        }
        const off = memoryOffHere();
        if (off !== undefined) {
          log.debug('memory is off here; answered locally', { method: request.method, reason: off });
          if (field !== undefined) return discovery.answerLocally(request, field);
          if (request.method === 'tools/call')
            return { content: [{ type: 'text', text: memoryOffText(off) }], isError: true };
          throw new MemoryOffError(off);
        }
        if (field !== undefined) return discovery.answer(request, field, signal);
        // User text in storing and searching calls passes the privacy filter (outbound.ts, DESIGN D17).
        return upstream.request(request.method, filterOutboundParams(request.method, request.params), { signal });
      }
    }
  };

  const toRpcError = (error: unknown): JsonRpcErrorObject => {
    if (error instanceof MemoryOffError)
      return { code: RpcErrorCode.invalidRequest, message: memoryOffText(error.reason) };
    if (error instanceof ToolsOffError) return { code: RpcErrorCode.invalidRequest, message: error.message };
    if (isUpstreamError(error))
      return failureToRpcError(error.failure, { mcpUrl: mcpUrl(), credentials: config.current().credentials });
    log.warn('internal error while handling a request', { error: describeError(error) });
    return {
      code: RpcErrorCode.internalError,
      message: `OpenViking MCP proxy internal error: ${describeError(error)}`,
    };
  };

  const handleRequest = (request: JsonRpcRequest) => {
    const handling = answerRequest(request);
    pending.add(handling);
    void handling.finally(() => pending.delete(handling));
  };

  const answerRequest = async (request: JsonRpcRequest) => {
    const controller = new AbortController();
    inFlight.set(request.id, controller);
    try {
      const result = await answer(request, controller.signal);
      if (!controller.signal.aborted) write(resultLine(request.id, result));
    } catch (error) {
      // A cancelled request gets no reply (MCP cancellation); neither does one cut by shutdown.
      if (!controller.signal.aborted) write(errorLine(request.id, toRpcError(error)));
    } finally {
      if (inFlight.get(request.id) === controller) inFlight.delete(request.id);
    }
  };

  const handleNotification = (notification: JsonRpcNotification) => {
    if (notification.method === 'notifications/cancelled') {
      const id = notification.params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') inFlight.get(id)?.abort();
      return;
    }
    // `notifications/initialized` and the rest concern the host–proxy link only.
    log.debug('host notification', { method: notification.method });
  };

  const onLine = (line: string) => {
    const message = parseMessage(line);
    switch (message.kind) {
      case 'request':
        handleRequest(message.request);
        return;
      case 'notification':
        handleNotification(message.notification);
        return;
      case 'invalid':
        write(errorLine(message.id, message.error));
        return;
      case 'response':
        return;
    }
  };

  const close = async () => {
    if (closing) return closed;
    closing = true;
    for (const controller of inFlight.values()) controller.abort();
    inFlight.clear();
    await upstream
      .close()
      .catch((error: unknown) => log.debug('upstream close failed', { error: describeError(error) }));
    resolveClosed();
    return closed;
  };

  /** stdin ended: answer what was already asked (a script may pipe requests and EOF), then close. */
  let draining = false;
  const drainThenClose = async () => {
    if (draining) return;
    draining = true;
    const budget = new Promise<void>((resolve) => setTimeout(resolve, STDIN_END_DRAIN_MS).unref());
    await Promise.race([Promise.allSettled([...pending]), budget]);
    await close();
  };

  const feed = createLineSplitter(onLine);
  options.stdin.on('data', (chunk: Buffer | string) => feed(chunk));
  options.stdin.once('end', () => void drainThenClose());
  options.stdin.once('close', () => void drainThenClose());
  options.stdin.once('error', () => void close());
  options.stdout.once('error', () => void close()); // EPIPE: the host is gone

  return { log, closed, close };
}
