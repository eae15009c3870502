/**
 * README: the MCP tools from a folder where memory is off or that is
 * bypassed send nothing: "each tool call answers that memory is off here,
 * and why". The BUILT `servers/mcp-proxy.mjs`, started in the folder (its
 * cwd, as the hosts start it), against the test server: the request log
 * holds no request at all (no handshake either), the tool list comes from
 * the proxy's own snapshot of an earlier run, every tool call answers a
 * clear "OpenViking memory is off here (…why…)" result, and a resource
 * read an error saying the same. Switching memory back on (the workspace
 * file removed) needs no restart. `MCP_PROXY_UNDER_TEST` runs it against
 * another build (on 8e37669 every call was forwarded).
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer, TOOL_NAMES, type OvTestServer } from '../support/ov-server/index.js';
import { connectThroughProxy, makeSandbox, proxyUnderTest, waitFor, type Sandbox } from './support/harness.js';

let server: OvTestServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startOvServer({ seed: { files: { 'memories/preferences/editor.md': 'Uses Helix.' } } });
  sandbox = await makeSandbox();
  // An earlier run with memory on leaves the tool list in the proxy's snapshot.
  const earlier = await connectThroughProxy(
    await proxyUnderTest(),
    sandbox.env({ OPENVIKING_URL: server.url }),
    sandbox.home,
  );
  try {
    expect((await earlier.client.listTools()).tools.length).toBe(TOOL_NAMES.length);
    const cache = join(sandbox.home, '.codebuddy', 'openviking', 'cache');
    await waitFor(
      () =>
        existsSync(cache) &&
        readdirSync(cache).some(
          (name) =>
            name.startsWith('mcp-upstream-') &&
            name.endsWith('.json') &&
            readFileSync(join(cache, name), 'utf8').includes('"tools":['),
        ),
    );
  } finally {
    await earlier.close();
  }
});
afterAll(async () => {
  await server.close();
  await sandbox.dispose();
});

async function folder(name: string, config?: Record<string, unknown>): Promise<string> {
  const dir = join(sandbox.home, name);
  await mkdir(join(dir, '.openviking'), { recursive: true });
  if (config) await writeFile(join(dir, '.openviking', 'config.json'), JSON.stringify(config));
  return dir;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');

const CASES: Array<{ name: string; setup: () => Promise<{ cwd: string; env: Record<string, string> }>; why: string }> =
  [
    {
      name: 'OPENVIKING_MEMORY_ENABLED=false',
      setup: async () => ({ cwd: await folder('a'), env: { OPENVIKING_MEMORY_ENABLED: 'false' } }),
      why: 'OPENVIKING_MEMORY_ENABLED=false',
    },
    {
      name: 'plugin.codebuddy.enabled false in ovcli.conf',
      setup: async () => {
        await sandbox.writeOvcli({ plugin: { codebuddy: { enabled: false } } });
        return { cwd: await folder('from-file'), env: {} };
      },
      why: 'plugin.codebuddy.enabled: false in ~/.openviking/ovcli.conf',
    },
    {
      name: '.openviking/config.json enabled: false',
      setup: async () => ({ cwd: await folder('b', { enabled: false }), env: {} }),
      why: 'enabled: false in',
    },
    {
      name: 'OPENVIKING_BYPASS_SESSION=true',
      setup: async () => ({ cwd: await folder('c'), env: { OPENVIKING_BYPASS_SESSION: 'true' } }),
      why: 'OPENVIKING_BYPASS_SESSION=on',
    },
    {
      name: 'the folder itself matches <…>/secret-work/**',
      setup: async () => {
        const cwd = await folder('secret-work');
        return { cwd, env: { OPENVIKING_BYPASS_SESSION_PATTERNS: `${cwd}/**` } };
      },
      why: 'this folder matches the bypass pattern',
    },
    {
      name: 'a folder below matches <…>/secret-work/**',
      setup: async () => ({
        cwd: await folder('secret-work/app'),
        env: { OPENVIKING_BYPASS_SESSION_PATTERNS: `${join(sandbox.home, 'secret-work')}/**` },
      }),
      why: 'this folder matches the bypass pattern',
    },
  ];

describe('MCP proxy where memory is off: nothing is sent, each call says why', () => {
  it.each(CASES)('$name', async ({ setup, why }) => {
    const { cwd, env } = await setup();
    server.clearRequests();
    const proxy = await connectThroughProxy(
      await proxyUnderTest(),
      sandbox.env({ OPENVIKING_URL: server.url, ...env }),
      cwd,
    );
    try {
      const listed = await proxy.client.listTools();
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const name of ['remember', 'write', 'search', 'find', 'read', 'forget']) {
        const result = await proxy.client.callTool({
          name,
          arguments: {
            query: 'editor',
            uri: 'viking://user/default/memories',
            content: 'x',
            messages: [{ role: 'user', content: 'x' }],
          },
        });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^OpenViking memory is off here \(/);
        expect(textOf(result)).toContain(why);
      }
      await expect(proxy.client.readResource({ uri: 'viking://user/default/memories/profile.md' })).rejects.toThrow(
        /OpenViking memory is off here/,
      );
      await new Promise((resolve) => setTimeout(resolve, 300)); // a background handshake would have gone out by now
      expect(server.requests().map((request) => `${request.method} ${request.path}`)).toEqual([]);
    } finally {
      await proxy.close();
      await rm(sandbox.ovcliPath, { force: true });
    }
  });

  it('memory back on (the workspace file removed): the next call goes through, no restart', async () => {
    const cwd = await folder('toggled', { enabled: false });
    const proxy = await connectThroughProxy(await proxyUnderTest(), sandbox.env({ OPENVIKING_URL: server.url }), cwd);
    try {
      expect((await proxy.client.callTool({ name: 'search', arguments: { query: 'editor' } })).isError).toBe(true);
      await rm(join(cwd, '.openviking', 'config.json'));
      const result = await proxy.client.callTool({ name: 'search', arguments: { query: 'editor' } });
      expect(result.isError).not.toBe(true);
      expect(textOf(result)).toContain('editor');
    } finally {
      await proxy.close();
    }
  });
});
