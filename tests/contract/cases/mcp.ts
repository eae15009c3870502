/**
 * `/mcp` as the plugin's proxy and doctor meet it (openviking-api.md §4.1;
 * docs/host-facts.md F43): stateless streamable HTTP (an SSE or JSON
 * reply to each POST), `initialize`, `tools/list` holding every tool the
 * plugin's skill and commands tell the model to call with the arguments
 * they name, those tools' effects, and REST's auth as JSON-RPC errors.
 * The tools' texts are the servers' own; a case checks what they say, not
 * how.
 *
 * @module
 */
import { expect } from 'vitest';
import { initializeParams, OFFERED_PROTOCOL_VERSION } from '../../../src/mcp/handshake.js';
import { as, home, newTenant, request, writeFile, type ContractTarget, type Tenant } from '../target.js';
import { okResult, type ContractCase } from './case.js';

/** The tools the plugin's texts name, and the arguments they pass (skills/, commands/). */
export const NAMED_TOOLS: Readonly<Record<string, { args: readonly string[]; required: readonly string[] }>> = {
  search: { args: ['query', 'mode', 'limit'], required: ['query'] },
  find: { args: ['query', 'target_uri', 'limit'], required: ['query'] },
  read: { args: ['uris'], required: ['uris'] },
  remember: { args: ['messages'], required: ['messages'] },
  forget: { args: ['uri', 'recursive'], required: ['uri'] },
  write: { args: ['uri', 'content', 'mode'], required: ['uri', 'content'] },
  edit: { args: ['uri', 'old_string', 'new_string'], required: ['uri', 'old_string', 'new_string'] },
  add_resource: { args: ['path'], required: [] },
  list: { args: ['uri'], required: [] },
  tree: { args: ['uri'], required: [] },
  grep: { args: ['uri', 'pattern'], required: ['uri', 'pattern'] },
  glob: { args: ['pattern'], required: ['pattern'] },
  health: { args: [], required: [] },
};

interface RpcAnswer {
  status: number;
  contentType: string;
  message: any;
}

/** One JSON-RPC POST to `/mcp`; the reply read from SSE `data:` frames or JSON. */
async function rpc(
  target: ContractTarget,
  headers: Record<string, string>,
  method: string,
  params?: unknown,
): Promise<RpcAnswer> {
  const answer = await request(target, 'POST', '/mcp', {
    headers: { ...headers, Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
    body: { jsonrpc: '2.0', id: 1, method, ...(params !== undefined ? { params } : {}) },
  });
  const contentType = answer.headers.get('content-type') ?? '';
  const data = contentType.startsWith('text/event-stream')
    ? answer.text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5).trim()))
    : [answer.body];
  return { status: answer.status, contentType, message: data.find((item) => item?.id !== undefined) ?? data[0] };
}

/** A tool call's text and error flag. */
async function tool(
  target: ContractTarget,
  tenant: Tenant,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const reply = await rpc(target, tenant.headers, 'tools/call', { name, arguments: args });
  expect(reply.status, JSON.stringify(reply.message)).toBe(200);
  const result = reply.message.result;
  expect(result, JSON.stringify(reply.message)).toBeDefined();
  const text = (result.content as Array<{ type: string; text: string }>).map((part) => part.text).join('\n');
  const isError = result.isError === true;
  // where a result carries structuredContent (most tools, not read, never an error), it is the text again
  if (result.structuredContent !== undefined)
    expect({ result: text, isError }).toEqual({ result: result.structuredContent.result, isError: false });
  return { text, isError };
}

export const mcpCases: readonly ContractCase[] = [
  {
    name: 'initialize: 200 as SSE or JSON, the protocol version asked for, a tools capability, serverInfo openviking',
    covers: ['mcp initialize'],
    async run(target) {
      const tenant = await newTenant(target, 'mcp-init');
      const reply = await rpc(target, tenant.headers, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'contract', version: '1' },
      });
      expect(reply.status).toBe(200);
      expect(reply.contentType).toMatch(/^(text\/event-stream|application\/json)/);
      expect(reply.message).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-06-18', serverInfo: { name: expect.stringMatching(/^openviking/) } },
      });
      expect(reply.message.result.capabilities).toHaveProperty('tools');
    },
  },
  {
    name: 'initialize with the plugin’s own params: its offer answered as is; a later request naming a revision the server does not speak is HTTP 400',
    covers: ['mcp initialize'],
    async run(target) {
      // What the proxy's SDK and doctor both send (src/mcp/handshake.ts), so the two meet the server the same way (D41).
      const tenant = await newTenant(target, 'mcp-handshake');
      const reply = await rpc(target, tenant.headers, 'initialize', initializeParams());
      expect(reply.status).toBe(200);
      expect(reply.message.result.protocolVersion).toBe(OFFERED_PROTOCOL_VERSION);
      const refused = await request(target, 'POST', '/mcp', {
        headers: {
          ...tenant.headers,
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2099-01-01',
        },
        body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('Unsupported protocol version: 2099-01-01');
    },
  },
  {
    name: 'tools/list: every tool the plugin’s texts name, with the arguments they pass and what is required',
    covers: ['mcp tools/list'],
    async run(target) {
      const tenant = await newTenant(target, 'mcp-list');
      const reply = await rpc(target, tenant.headers, 'tools/list');
      const tools = reply.message.result.tools as Array<{ name: string; inputSchema: any; description?: string }>;
      for (const [name, spec] of Object.entries(NAMED_TOOLS)) {
        const found = tools.find((entry) => entry.name === name);
        expect(found, `tool ${name}`).toBeDefined();
        expect(found?.inputSchema.type).toBe('object');
        expect(Object.keys(found?.inputSchema.properties ?? {}), name).toEqual(expect.arrayContaining([...spec.args]));
        expect(found?.inputSchema.required ?? [], name).toEqual(expect.arrayContaining([...spec.required]));
        expect(typeof found?.description).toBe('string');
      }
    },
  },
  {
    name: 'tools: remember stores and commits a session mcp-store-…; read takes a bare URI; find and search (list) name the memory; forget deletes it',
    covers: [
      'mcp tool remember',
      'mcp tool read',
      'mcp tool find',
      'mcp tool search',
      'mcp tool forget',
      'mcp tool health',
    ],
    async run(target) {
      const tenant = await newTenant(target, 'mcp-tools');
      const editor = home(tenant, `memories/preferences/${tenant.user}/editor.md`);
      await writeFile(target, tenant, editor, 'Uses the Helix editor with two-space indentation.');
      const stored = await tool(target, tenant, 'remember', {
        messages: [{ role: 'user', content: 'Remember: the staging cluster is called heron.' }],
      });
      expect(stored.isError).toBe(false);
      const sessionId = /mcp-store-[0-9a-f]{12}/.exec(stored.text)?.[0];
      expect(sessionId, stored.text).toBeDefined();
      const record = okResult(await as(target, tenant, 'GET', `/api/v1/sessions/${sessionId}`));
      expect(record).toMatchObject({ total_message_count: 1, commit_count: 1 });
      const read = await tool(target, tenant, 'read', { uris: editor });
      expect(read).toEqual({ text: 'Uses the Helix editor with two-space indentation.', isError: false });
      const missing = await tool(target, tenant, 'read', { uris: home(tenant, 'memories/nope.md') });
      expect(missing).toEqual({
        text: `NOT_FOUND: File not found: ${home(tenant, 'memories/nope.md')}`,
        isError: true,
      });
      const found = await tool(target, tenant, 'find', {
        query: 'Uses the Helix editor with two-space indentation',
        target_uri: home(tenant, 'memories'),
      });
      expect(found.text).toContain(editor);
      const listed = await tool(target, tenant, 'search', {
        query: 'Uses the Helix editor with two-space indentation',
        mode: 'list',
        limit: 10,
      });
      expect(listed.text).toContain(editor);
      expect((await tool(target, tenant, 'health', {})).text).toMatch(/healthy/i);
      expect(await tool(target, tenant, 'forget', { uri: editor })).toEqual({
        text: `Deleted: ${editor}`,
        isError: false,
      });
      // nothing there is no error either
      expect((await tool(target, tenant, 'forget', { uri: editor })).isError).toBe(false);
      const gone = await as(target, tenant, 'GET', `/api/v1/content/read?uri=${encodeURIComponent(editor)}`);
      expect(gone.status).toBe(404);
    },
  },
  {
    name: 'api_key: /mcp without a key or with a wrong one is HTTP 401, with the root key 403, each a JSON-RPC error -32001',
    covers: ['mcp auth'],
    modes: ['api_key'],
    async run(target) {
      const cases: Array<[Record<string, string>, number]> = [
        [{}, 401],
        [{ Authorization: 'Bearer wrong-key' }, 401],
        [{ Authorization: `Bearer ${target.rootKey}` }, 403],
      ];
      for (const [headers, status] of cases) {
        const reply = await rpc(target, headers, 'tools/call', { name: 'find', arguments: { query: 'x' } });
        expect(reply.status).toBe(status);
        expect(reply.message).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
        expect(typeof reply.message.error.message).toBe('string');
      }
    },
  },
];
