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
 * Lifecycle (hostLink.ts): the proxy ends when stdin ends (requests already
 * received get a short drain), or on `close()` (signals, via main.ts), which
 * abandons in-flight calls at once. Either way the upstream session is
 * closed.
 *
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import type { PluginConfig } from '../config/types.js';
import { resolveDataDir } from '../store/paths.js';
import { createConfigWatch, type ConfigWatch } from '../config/configFiles.js';
import { createDiscovery, fallbackListing, listingField, type Discovery } from './discovery.js';
import { describeError, failureToRpcError, isUpstreamError } from './failures.js';
import { HostLink } from './hostLink.js';
import { buildInitializeResult, type ServerInfo } from './initialize.js';
import { RpcErrorCode, type JsonRpcErrorObject, type JsonRpcRequest } from './jsonRpc.js';
import { createStderrLog, type ProxyLog } from './log.js';
import { filterOutboundParams } from './outbound.js';
import type { FetchLike } from './sdkSession.js';
import { createSnapshotStore, type SnapshotStore } from './snapshot.js';
import { createUpstream, type Upstream } from './upstream.js';
import { memoryOffReason, scopeOf, settingText } from '../session/switches.js';
import { MemoryOffError, memoryOffText, ToolsOffError, toolsOffText } from './offAnswers.js';
import { hostFromEnv, toolNamesFor } from '../protocol/hostTools.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Upstream requests in flight at once (openviking-api.md §4.2). */
export const DEFAULT_MAX_CONCURRENT = 16;

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

/** What answers a request: the configuration, the remembered upstream, the upstream itself, the listings. */
interface ProxyParts {
  options: ProxyOptions;
  log: ProxyLog;
  config: ConfigWatch;
  snapshots: SnapshotStore;
  upstream: Upstream;
  discovery: Discovery;
  switches: SwitchesHere;
  mcpUrl(): string;
}

export function createProxy(options: ProxyOptions): Proxy {
  const { log, config } = logAndConfig(options);
  const host = new HostLink(options.stdout, log);
  const parts = proxyParts(options, log, config, host);
  host.listen(options.stdin, {
    answer: (request, signal) => answer(parts, request, signal),
    toRpcError: (error) => toRpcError(parts, error),
    onClose: () =>
      parts.upstream
        .close()
        .catch((error: unknown) => log.debug('upstream close failed', { error: describeError(error) })),
  });
  return { log, closed: host.closed, close: () => host.close() };
}

/** The redacting log and the configuration it reads lazily (the first load already logs its warnings). */
function logAndConfig(options: ProxyOptions): { log: ProxyLog; config: ConfigWatch } {
  let watch: ConfigWatch | undefined; // eslint-disable-line prefer-const -- assigned below, read lazily by the log
  const log = createStderrLog({
    write: options.writeStderr,
    now: options.now,
    debugEnabled: () => watch?.current().settings.debug ?? false,
    secrets: () => [watch?.current().credentials.apiKey],
  });
  watch = createConfigWatch({
    load: options.loadConfig,
    env: options.env,
    homeDir: options.homeDir,
    warn: (message) => log.warn(message),
  });
  return { log, config: watch };
}

function proxyParts(options: ProxyOptions, log: ProxyLog, config: ConfigWatch, host: HostLink): ProxyParts {
  const cacheDir =
    options.cacheDir === null
      ? undefined
      : (options.cacheDir ?? join(resolveDataDir(options.env, options.homeDir), 'cache'));
  const snapshots = createSnapshotStore({ cacheDir, now: options.now, warn: (message) => log.warn(message) });
  const mcpUrl = () => config.current().credentials.mcpUrl;
  void snapshots.load(mcpUrl()); // prefetch for `initialize`
  const notify = host.notify.bind(host);
  const upstream = createUpstream({
    config,
    fetch: options.fetch,
    userAgent: options.userAgent,
    maxConcurrent: options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    now: options.now,
    log,
    onNotification: notify,
    onProfile: (url, profile) => {
      void snapshots.update(url, { profile });
      discovery.onReconnected();
    },
    ...(options.workspace !== undefined ? { project: { workspace: options.workspace, homeDir: options.homeDir } } : {}),
  });
  const discovery = createDiscovery({
    request: (method, params, callOptions) => upstream.request(method, params, callOptions),
    snapshots,
    mcpUrl,
    timeoutMs: () => config.current().settings.timeoutMs,
    notify,
    log,
  });
  const switches = switchesHere(options, config, upstream);
  return { options, log, config, snapshots, upstream, discovery, switches, mcpUrl };
}

/** Whether this plugin's tools, and memory, are off for the proxy's folder (configuration re-read when a file changed). */
interface SwitchesHere {
  /** Why memory is off here, or undefined. */
  memoryOff(): string | undefined;
  /** Why this plugin's tools are off (`mcpEnabled`), with the tool to use instead; undefined when they are on. */
  toolsOff(): string | undefined;
}

function switchesHere(options: ProxyOptions, config: ConfigWatch, upstream: Upstream): SwitchesHere {
  let wasOff = false;
  return {
    memoryOff() {
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
    },
    toolsOff() {
      upstream.syncConfig();
      const current = config.current();
      if (current.settings.mcpEnabled) return undefined;
      const instead = toolNamesFor(hostFromEnv(options.env), current.settings).name('<tool>');
      return toolsOffText(settingText(current, 'mcpEnabled', 'false'), instead);
    },
  };
}

async function answer(parts: ProxyParts, request: JsonRpcRequest, signal: AbortSignal): Promise<unknown> {
  switch (request.method) {
    case 'initialize': {
      const snapshot = await parts.snapshots.load(parts.mcpUrl());
      // After the answer is written: loading the SDK blocks the thread for a while.
      if (parts.switches.toolsOff() === undefined && parts.switches.memoryOff() === undefined)
        setImmediate(() => parts.upstream.warmUp());
      return buildInitializeResult(request.params, snapshot?.profile, parts.options.serverInfo);
    }
    case 'ping':
      return {};
    default:
      return forward(parts, request, signal);
  }
}

/** Every other request: answered here while the tools or memory are off, else the server's (listings through discovery). */
async function forward(parts: ProxyParts, request: JsonRpcRequest, signal: AbortSignal): Promise<unknown> {
  const field = listingField(request.method, request.params);
  const toolsOff = parts.switches.toolsOff();
  if (toolsOff !== undefined) {
    parts.log.debug('bundled tools are off; answered locally', { method: request.method });
    if (field !== undefined) return fallbackListing(field);
    if (request.method === 'tools/call') return { content: [{ type: 'text', text: toolsOff }], isError: true };
    throw new ToolsOffError(toolsOff);
  }
  const off = parts.switches.memoryOff();
  if (off !== undefined) {
    parts.log.debug('memory is off here; answered locally', { method: request.method, reason: off });
    if (field !== undefined) return parts.discovery.answerLocally(request, field);
    if (request.method === 'tools/call')
      return { content: [{ type: 'text', text: memoryOffText(off) }], isError: true };
    throw new MemoryOffError(off);
  }
  if (field !== undefined) return parts.discovery.answer(request, field, signal);
  // User text in storing and searching calls passes the privacy filter (outbound.ts, DESIGN D17).
  return parts.upstream.request(request.method, filterOutboundParams(request.method, request.params), { signal });
}

function toRpcError(parts: ProxyParts, error: unknown): JsonRpcErrorObject {
  if (error instanceof MemoryOffError)
    return { code: RpcErrorCode.invalidRequest, message: memoryOffText(error.reason) };
  if (error instanceof ToolsOffError) return { code: RpcErrorCode.invalidRequest, message: error.message };
  if (isUpstreamError(error))
    return failureToRpcError(error.failure, {
      mcpUrl: parts.mcpUrl(),
      credentials: parts.config.current().credentials,
    });
  parts.log.warn('internal error while handling a request', { error: describeError(error) });
  return {
    code: RpcErrorCode.internalError,
    message: `OpenViking MCP proxy internal error: ${describeError(error)}`,
  };
}
