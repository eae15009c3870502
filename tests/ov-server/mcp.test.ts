/**
 * Contract §4.1: `/mcp` is stateless streamable HTTP with the 15 tools,
 * reached here through the SDK's real Client over HTTP; REST auth applies
 * with JSON-RPC error bodies; tools work over the same store as REST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOOL_NAMES, startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { call } from './http-client.js';

const USER_KEY = 'alice-key';
let server: OvTestServer;
/** A raw `initialize` request, for checks below the SDK client. */
const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'fidelity-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text: string }>).map((part) => part.text).join('\n');
}

beforeAll(async () => {
  server = await startOvServer({
    auth: {
      mode: 'api_key',
      rootKey: 'root-key',
      keys: { [USER_KEY]: { account: 'acme', user: 'alice', role: 'user' } },
    },
    seed: {
      account: 'acme',
      user: 'alice',
      files: { 'memories/preferences/alice/tea.md': { content: 'Alice prefers green tea.', abstract: 'Tea: green' } },
    },
  });
});
afterAll(() => server.close());

describe('MCP over streamable HTTP', () => {
  it('lists exactly the 15 documented tools', async () => {
    const client = await connect(server.url, { Authorization: `Bearer ${USER_KEY}` });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
      expect(tools).toHaveLength(15);
      const find = tools.find((tool) => tool.name === 'find');
      expect(Object.keys(find?.inputSchema.properties ?? {})).toEqual([
        'query',
        'target_uri',
        'limit',
        'min_score',
        'level',
        'context_type',
      ]);
    } finally {
      await client.close();
    }
  });

  it('tool calls work over the shared store: find, write → read, remember → session committed', async () => {
    const client = await connect(server.url, { Authorization: `Bearer ${USER_KEY}` });
    try {
      const found = textOf(
        await client.callTool({ name: 'find', arguments: { query: 'green tea', target_uri: 'viking://~/memories' } }),
      );
      expect(found).toMatch(
        /^Found 1 item\(s\):\n\n- \[memory \d+%\] viking:\/\/user\/alice\/memories\/preferences\/alice\/tea\.md\n {4}Tea: green\n\nUse the read tool to expand a URI\.$/,
      );
      await client.callTool({ name: 'write', arguments: { uri: 'viking://~/resources/notes.md', content: 'hello' } });
      expect(server.file('viking://user/alice/resources/notes.md', 'acme')).toBe('hello');
      expect(
        textOf(await client.callTool({ name: 'read', arguments: { uris: 'viking://~/resources/notes.md' } })),
      ).toBe('hello');
      const remembered = textOf(
        await client.callTool({
          name: 'remember',
          arguments: { messages: [{ role: 'user', content: 'I use fish shell' }] },
        }),
      );
      const sessionId = /session (mcp-store-[0-9a-f]{12})/.exec(remembered)?.[1];
      expect(server.session(sessionId ?? '')?.commits[0]?.status).toBe('accepted');
    } finally {
      await client.close();
    }
  });

  it('OpenViking errors surface as tool errors "<CODE>: <message>"; in a batch read, in the failed file\'s place', async () => {
    const client = await connect(server.url, { Authorization: `Bearer ${USER_KEY}` });
    try {
      const edit = await client.callTool({
        name: 'edit',
        arguments: { uri: 'viking://~/resources/none.md', old_string: 'a', new_string: 'b' },
      });
      expect(edit.isError).toBe(true);
      expect(textOf(edit)).toBe('NOT_FOUND: File not found: viking://user/alice/resources/none.md');
      const one = await client.callTool({ name: 'read', arguments: { uris: 'viking://~/nope.md' } });
      expect([one.isError, textOf(one)]).toEqual([true, 'NOT_FOUND: File not found: viking://user/alice/nope.md']);
      const read = await client.callTool({
        name: 'read',
        arguments: { uris: ['viking://~/nope.md', 'viking://~/memories/preferences/alice/tea.md'] },
      });
      expect(read.isError).toBeFalsy();
      expect(textOf(read)).toContain('=== viking://~/nope.md ===\nNOT_FOUND: File not found');
      expect(textOf(read)).toContain('Alice prefers green tea.');
      expect(textOf(await client.callTool({ name: 'health', arguments: {} }))).toMatch(/^OpenViking is healthy/);
    } finally {
      await client.close();
    }
  });

  it('watches: add_resource with watch_interval, list_watches, cancel_watch', async () => {
    const client = await connect(server.url, { Authorization: `Bearer ${USER_KEY}` });
    try {
      await client.callTool({
        name: 'add_resource',
        arguments: { path: 'https://example.com/guide', watch_interval: 30 },
      });
      expect(textOf(await client.callTool({ name: 'list_watches', arguments: {} }))).toContain(
        'viking://resources/guide',
      );
      await client.callTool({ name: 'cancel_watch', arguments: { to_uri: 'viking://resources/guide' } });
      expect(textOf(await client.callTool({ name: 'list_watches', arguments: {} }))).toBe('No active watches.');
    } finally {
      await client.close();
    }
  });

  it('auth failures are HTTP 401/403 with a JSON-RPC error body', async () => {
    const headers = { Accept: 'application/json, text/event-stream' };
    const anonymous = await call(server.url, 'POST', '/mcp', { body: init, headers });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    const root = await call(server.url, 'POST', '/mcp', {
      body: init,
      headers: { ...headers, Authorization: 'Bearer root-key' },
    });
    expect(root.status).toBe(403);
    await expect(connect(server.url, {})).rejects.toThrow();
  });

  it('is stateless: no Mcp-Session-Id; GET is 405', async () => {
    const res = await call(server.url, 'POST', '/mcp', {
      body: init,
      headers: { Accept: 'application/json, text/event-stream', Authorization: `Bearer ${USER_KEY}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.text).toContain('"protocolVersion"');
    expect((await call(server.url, 'GET', '/mcp', { headers: { Authorization: `Bearer ${USER_KEY}` } })).status).toBe(
      405,
    );
  });

  it('mcpJsonResponse answers plain JSON', async () => {
    const jsonServer = await startOvServer({ mcpJsonResponse: true });
    try {
      const res = await call(jsonServer.url, 'POST', '/mcp', {
        body: { ...init, id: 7 },
        headers: { Accept: 'application/json, text/event-stream' },
      });
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 7, result: { serverInfo: { name: 'openviking-test' } } });
    } finally {
      await jsonServer.close();
    }
  });

  it('mcpProtocolVersions: initialize negotiates from that list, later requests are checked against it', async () => {
    const other = await startOvServer({ mcpProtocolVersions: ['2099-01-01', '2025-06-18'], mcpJsonResponse: true });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      call(other.url, 'POST', '/mcp', { body, headers: { Accept: 'application/json, text/event-stream', ...headers } });
    const initWith = (protocolVersion: string) => ({ ...init, params: { ...init.params, protocolVersion } });
    try {
      expect((await post(initWith('2025-06-18'))).json.result.protocolVersion).toBe('2025-06-18');
      expect((await post(initWith('2025-11-25'))).json.result.protocolVersion).toBe('2099-01-01');
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
      expect((await post(list, { 'MCP-Protocol-Version': '2099-01-01' })).json.result.tools).toHaveLength(15);
      const refused = await post(list, { 'MCP-Protocol-Version': '2025-11-25' });
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toContain('Unsupported protocol version: 2025-11-25');
    } finally {
      await other.close();
    }
  });
});
