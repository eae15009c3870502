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
  const server = new McpServer({ name: 'openviking-test', version: state.version });
  registerTools(server, state, identity);
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
