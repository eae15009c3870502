/**
 * The plugin's MCP server as a host starts it, talking to a REAL OpenViking
 * server: the declaration both manifests name (servers/mcp.json, D34), its
 * `${CLAUDE_PLUGIN_ROOT}` filled in as CodeBuddy and Claude Code fill it,
 * run by `node` in the session's folder with the host's variables and the
 * user's HOME, through the MCP SDK's own stdio client (what both hosts
 * embed). And, for comparison, the server's own `/mcp` endpoint asked
 * directly with the same identity.
 *
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { dirname } from 'node:path';
import { pluginMcpServers } from '../../support/plugin-mcp.js';
import { REPO_ROOT } from '../../support/spawn-hook.js';
import { headersFor, type Speaker } from './http.js';

export interface ToolAnswer {
  text: string;
  isError: boolean;
  structured?: Record<string, unknown>;
}

export interface PluginMcp {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts the declared `openviking` server as the host would (HOME = `home`, cwd = `workspace`). */
export async function connectPluginMcp(options: {
  home: string;
  workspace: string;
  env?: Record<string, string>;
}): Promise<PluginMcp> {
  const declared = pluginMcpServers().openviking;
  if (declared === undefined) throw new Error('servers/mcp.json declares no openviking server');
  const args = declared.args.map((arg) => arg.replaceAll('${CLAUDE_PLUGIN_ROOT}', REPO_ROOT));
  const transport = new StdioClientTransport({
    command: declared.command === 'node' ? process.execPath : declared.command,
    args,
    cwd: options.workspace,
    env: {
      HOME: options.home,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      CLAUDE_PLUGIN_ROOT: REPO_ROOT,
      CODEBUDDY_PLUGIN_ROOT: REPO_ROOT,
      ...options.env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'codebuddy', version: '2.117.0' }, { capabilities: {} });
  await client.connect(transport);
  return {
    client,
    call: (name, callArgs = {}) => callTool(client, name, callArgs),
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** The server's own `/mcp`, asked directly as `speaker` (no proxy in between). */
export async function connectServerMcp(url: string, speaker: Speaker): Promise<Client> {
  const { 'content-type': _, ...headers } = headersFor(speaker);
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'tests-real', version: '0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const answer = (await client.callTool({ name, arguments: args })) as {
    content?: Array<{ type: string; text?: string }>;
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  };
  return {
    text: (answer.content ?? [])
      .map((part) => (part.type === 'text' ? (part.text ?? '') : `[${part.type}]`))
      .join('\n'),
    isError: answer.isError === true,
    ...(answer.structuredContent !== undefined ? { structured: answer.structuredContent } : {}),
  };
}
