/**
 * The MCP proxy speaks as the workspace's project (DESIGN D24): started in
 * a git repository (its cwd, as CodeBuddy starts it), every call to `/mcp`
 * carries that project's `X-OpenViking-Actor-Peer`, so the `search` tool
 * ranks the project's memories first; `OPENVIKING_PEER_ID` still wins.
 * Spawns the built `servers/mcp-proxy.mjs` against the test server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRemoteVariable } from '../../src/project/peerTemplate.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { connectThroughProxy, makeRepoWorkspace, makeSandbox, proxyUnderTest } from './support/harness.js';
import type { Sandbox } from './support/harness.js';

const REMOTE = 'git@github.com:acme/mcp-project.git';
const PEER = gitRemoteVariable(REMOTE);

let server: OvTestServer;
let sandbox: Sandbox;
let workspace: string;

beforeAll(async () => {
  server = await startOvServer({
    seed: {
      files: {
        [`peers/${PEER}/memories/events/deploy.md`]: 'The kestrel service deploys with terraform (MCP-OWN-PROJECT).',
        'peers/another-project/memories/events/deploy.md': 'The kestrel service deploys with helm (MCP-OTHER-PROJECT).',
      },
    },
  });
  sandbox = await makeSandbox();
  workspace = await makeRepoWorkspace(sandbox, REMOTE);
});
afterAll(async () => {
  await server.close();
  await sandbox.dispose();
});

async function searchThroughProxy(extra: Record<string, string> = {}): Promise<{ text: string; peers: string[] }> {
  server.clearRequests();
  const proxy = await connectThroughProxy(
    await proxyUnderTest(),
    sandbox.env({ OPENVIKING_URL: server.url, ...extra }),
    workspace,
  );
  try {
    const result = await proxy.client.callTool({
      name: 'search',
      arguments: { query: 'how does the kestrel service deploy', mode: 'context', purpose: 'coding' },
    });
    const text = (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
    const peers = server
      .requests({ path: '/mcp', method: 'POST' })
      .map((request) => request.headers['x-openviking-actor-peer'] ?? '');
    return { text, peers };
  } finally {
    await proxy.close();
  }
}

describe('MCP proxy and the project', () => {
  it('every POST to /mcp carries the workspace peer; search ranks the project first', async () => {
    const { text, peers } = await searchThroughProxy();
    expect(peers.length).toBeGreaterThan(0);
    expect(new Set(peers)).toEqual(new Set([PEER]));
    expect(text).toContain('MCP-OWN-PROJECT');
    // 0.5.2 fills the quotas' spare slots with other peers' memories too, ranked below the project's own (F38)
    const other = text.indexOf('MCP-OTHER-PROJECT');
    expect(other === -1 || other > text.indexOf('MCP-OWN-PROJECT')).toBe(true);
  });

  it('OPENVIKING_PEER_ID wins over the workspace', async () => {
    const { peers } = await searchThroughProxy({ OPENVIKING_PEER_ID: 'explicit-peer' });
    expect(new Set(peers)).toEqual(new Set(['explicit-peer']));
  });
});
