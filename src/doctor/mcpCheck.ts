/**
 * Doctor check `mcp`: does the server's MCP endpoint take the proxy's own
 * handshake, and how many tools does it offer. The stdio proxy forwards the
 * host's calls to exactly this URL, so when this fails the `mcp__openviking__*`
 * tools fail too.
 *
 * The handshake is the proxy's (mcp/handshake.ts): the same `initialize`
 * (protocol revision, capabilities, client info), the same answer accepted
 * (a revision the proxy does not speak fails here as it fails there), and
 * the same headers (identity, the workspace project's peer, User-Agent).
 * Then `notifications/initialized` and `tools/list`, over the same
 * `HttpTransport` as the REST client. Replies may be JSON or SSE (`data:`
 * frames); both are read.
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import type { HttpResponse, HttpTransport } from '../openviking/http.js';
import { displayUrl } from '../openviking/displayUrl.js';
import {
  initializeParams,
  mcpRequestHeaders,
  PROTOCOL_VERSIONS,
  speaksProtocolVersion,
  type McpWorkspace,
} from '../mcp/handshake.js';
import { isRecord, parseJson } from '../util/json.js';
import { maskIn } from './mask.js';
import { describeSource } from './sources.js';
import type { Check } from './types.js';
import { errorMessage } from '../util/errors.js';
import { counted } from '../util/plural.js';

export interface McpProbeOptions {
  config: PluginConfig;
  /** The folder doctor runs in: its project's peer is the actor peer, as the proxy started there sends it. */
  where: McpWorkspace;
  http: HttpTransport;
  userAgent: string;
  /** Per-request timeout. */
  timeoutMs: number;
  now: () => number;
}

export async function checkMcp(options: McpProbeOptions): Promise<Check> {
  const { credentials } = options.config;
  const shownUrl = displayUrl(credentials.mcpUrl, true);
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...mcpRequestHeaders(options.config, options.where, options.now(), options.userAgent),
  };
  const post = (body: unknown, extra: Record<string, string> = {}) =>
    options.http({
      method: 'POST',
      url: credentials.mcpUrl,
      headers: { ...headers, ...extra },
      body: JSON.stringify(body),
      timeoutMs: options.timeoutMs,
    });
  const failed = (text: string, fix: string, data: Record<string, unknown> = {}): Check => ({
    id: 'mcp',
    title: 'MCP endpoint',
    status: 'fail',
    lines: [maskIn(text, credentials.apiKey)],
    fix,
    data: { url: shownUrl, ...data },
  });
  try {
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });
    const initResult = rpcResult(init, 1);
    if (typeof initResult === 'string')
      return failed(`${shownUrl} initialize: ${initResult}`, fixFor(init.status), { status: init.status });
    const version = initResult['protocolVersion'];
    if (!speaksProtocolVersion(version))
      return failed(
        `${shownUrl} initialize: the server answered protocol ${(JSON.stringify(version) ?? 'none').slice(0, 60)}, which the plugin's MCP proxy does not speak (it speaks ${PROTOCOL_VERSIONS.join(', ')})`,
        'The server and the plugin share no MCP protocol revision: update the plugin or the OpenViking server so they meet.',
        { protocolVersion: typeof version === 'string' ? version : null },
      );
    const session = init.headers['mcp-session-id'];
    const follow = { 'MCP-Protocol-Version': version, ...(session ? { 'Mcp-Session-Id': session } : {}) };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, follow);
    const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, follow);
    const listResult = rpcResult(list, 2);
    if (typeof listResult === 'string')
      return failed(`${shownUrl} tools/list: ${listResult}`, fixFor(list.status), { status: list.status });
    const tools = Array.isArray(listResult['tools']) ? listResult['tools'].filter(isRecord) : [];
    const names = tools.map((tool) => tool['name']).filter((name): name is string => typeof name === 'string');
    return {
      id: 'mcp',
      title: 'MCP endpoint',
      status: names.length > 0 ? 'pass' : 'warn',
      lines: [
        `${shownUrl}: ${counted(names.length, 'tool')} (protocol ${version})`,
        ...(names.length > 0 ? [`tools: ${names.join(', ')}`] : []),
      ],
      ...(names.length > 0
        ? {}
        : { fix: 'The endpoint lists no tools: check that the server is an OpenViking server with MCP enabled.' }),
      data: { url: shownUrl, toolCount: names.length, tools: names, protocolVersion: version },
    };
  } catch (error) {
    const reason = errorMessage(error);
    return failed(
      `${shownUrl} did not answer (${reason})`,
      `Check that the OpenViking server is running; the MCP URL comes from ${describeSource(credentials.sources.mcpUrl ?? 'derived:baseUrl')}.`,
    );
  }
}

function fixFor(status: number): string {
  if (status === 401 || status === 403)
    return 'The MCP endpoint refused the credentials: see the Identity check; the same key is used for MCP.';
  return 'Check that the server is an OpenViking server with its /mcp endpoint enabled.';
}

/** The JSON-RPC result with `id`, or a one-line reason why there is none. */
export function rpcResult(response: HttpResponse, id: number): Record<string, unknown> | string {
  if (response.status < 200 || response.status >= 300)
    return `HTTP ${response.status}${errorText(parseMessages(response))}`;
  const message = parseMessages(response).find((entry) => entry['id'] === id);
  if (!message) return 'no JSON-RPC reply in the response';
  if (isRecord(message['error']))
    return `JSON-RPC error ${String(message['error']['code'])}: ${String(message['error']['message'])}`;
  return isRecord(message['result']) ? message['result'] : 'the reply has no result';
}

/** Every JSON-RPC message in a JSON or SSE body. */
export function parseMessages(response: HttpResponse): Record<string, unknown>[] {
  const isSse = (response.headers['content-type'] ?? '').includes('text/event-stream');
  const payloads = isSse
    ? response.body
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).trim())
    : [response.body];
  const messages: Record<string, unknown>[] = [];
  for (const payload of payloads) {
    const parsed = parseFrame(payload);
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) if (isRecord(item)) messages.push(item);
  }
  return messages;
}

function errorText(messages: Record<string, unknown>[]): string {
  const error = messages.map((message) => message['error']).find(isRecord);
  return error && typeof error['message'] === 'string' ? `: ${error['message']}` : '';
}

/** A frame that is not JSON carries no message; the caller reports "no reply". */
function parseFrame(text: string): unknown {
  return !text || text === '[DONE]' ? undefined : parseJson(text);
}
