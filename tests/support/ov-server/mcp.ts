/**
 * The `/mcp` endpoint: MCP streamable HTTP in stateless mode, a fresh
 * McpServer and transport per request (OpenViking's FastMCP app uses
 * `stateless_http=True`, contract §4.1 and §9.11). Auth is the REST
 * resolution; failures answer 401/403/400 with a JSON-RPC error body
 * (code -32001). GET and DELETE answer 405 (no standalone SSE streams or
 * sessions to delete on a stateless server).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InitializeRequestSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { ServerState } from './state.js';
import type { HeaderBag } from './auth.js';
import { resolveIdentity } from './auth.js';
import { OvError } from './errors.js';
import { ensureHome } from './fsops.js';
import { registerTools } from './mcp-tools.js';

function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * `initialize` negotiated from `versions` instead of the SDK's list: the
 * client's revision when listed, else the newest (the rule of both MCP
 * libraries, Python's `ServerSession` and the SDK's `Server`). The rest of
 * the answer is the SDK's own.
 */
function negotiateFrom(server: McpServer, versions: readonly string[]): void {
  const library = server.server as unknown as { _oninitialize(request: unknown): Promise<Record<string, unknown>> };
  const sdkAnswer = library._oninitialize.bind(library);
  server.server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const asked = request.params.protocolVersion;
    return { ...(await sdkAnswer(request)), protocolVersion: versions.includes(asked) ? asked : versions[0] };
  });
}

/**
 * The `MCP-Protocol-Version` header of a request after `initialize`, checked
 * against `versions` as both libraries check it against theirs (absent:
 * allowed); a listed one is then handed to the SDK as its own newest, so
 * its check (against the SDK's list) lets it through.
 */
function acceptsRevisionHeader(req: IncomingMessage, body: unknown, versions: readonly string[]): boolean {
  const header = req.headers['mcp-protocol-version'];
  if ((body as { method?: unknown } | null)?.method === 'initialize' || header === undefined) return true;
  if (typeof header !== 'string' || !versions.includes(header)) return false;
  // The SDK's transport reads the raw header pairs (it builds a web Request from them).
  req.headers['mcp-protocol-version'] = LATEST_PROTOCOL_VERSION;
  for (let at = 0; at < req.rawHeaders.length; at += 2)
    if (req.rawHeaders[at]?.toLowerCase() === 'mcp-protocol-version') req.rawHeaders[at + 1] = LATEST_PROTOCOL_VERSION;
  return true;
}

export async function handleMcp(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  headers: HeaderBag,
  rawBody: string,
): Promise<void> {
  let identity;
  try {
    identity = resolveIdentity(state.auth, headers, '/mcp', 'tenant');
  } catch (error) {
    if (!(error instanceof OvError)) throw error;
    return writeJsonRpcError(res, error.status, -32001, error.message);
  }
  ensureHome(state, identity);
  if (req.method !== 'POST') return writeJsonRpcError(res, 405, -32000, 'Method not allowed.', { Allow: 'POST' });
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    // a body that is not JSON is a JSON-RPC parse error
    return writeJsonRpcError(res, 400, -32700, 'Parse error');
  }
  const versions = state.mcpProtocolVersions;
  if (versions !== undefined && !acceptsRevisionHeader(req, body, versions))
    return writeJsonRpcError(
      res,
      400,
      -32000,
      `Bad Request: Unsupported protocol version: ${String(req.headers['mcp-protocol-version'])} (supported versions: ${versions.join(', ')})`,
    );
  const server = new McpServer({ name: 'openviking-test', version: state.version });
  registerTools(server, state, identity);
  if (versions !== undefined) negotiateFrom(server, versions);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: state.mcpJsonResponse,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (error) {
    if (!res.headersSent) writeJsonRpcError(res, 500, -32603, `Internal error: ${String(error)}`);
  }
}
