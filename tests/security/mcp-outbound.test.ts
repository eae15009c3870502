/**
 * What the model stores or searches through the MCP proxy passes the same
 * privacy filter as captured turns (issue 14 item 1, DESIGN D17): the BUILT
 * proxy (`npm run build` first), spawned as the host would, calls
 * `remember`, `write`, `edit` and `search` with `<private>` sections and
 * secrets in their text; the test server's request log must hold none of
 * them, while the ordinary words arrive and `edit`'s `old_string` (which must
 * match stored text) goes through untouched.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvServer } from '../support/ov-server/index.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { connectThroughProxy, makeSandbox, proxyUnderTest } from '../mcp/support/harness.js';
import type { ProxyClient, Sandbox } from '../mcp/support/harness.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const alnum = (length: number) =>
  randomBytes(length * 2)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, length);

const PRIVATE_NOTE = `PRIVATE-${hex(6)}`;
const GITHUB = `ghp_${alnum(36)}`;
const DB_PASSWORD = `pw-${hex(5)}`;
const OPENAI = `sk-proj-${alnum(60)}`;
const AWS_ID = `AKIA${hex(8).toUpperCase()}`;
const SECRETS = [PRIVATE_NOTE, GITHUB, DB_PASSWORD, OPENAI, AWS_ID];

let server: OvTestServer;
let sandbox: Sandbox;
let proxy: ProxyClient;

beforeAll(async () => {
  server = await startOvServer({ seed: { files: { 'memories/entities/default/notes.md': 'old line' } } });
  sandbox = await makeSandbox();
  proxy = await connectThroughProxy(await proxyUnderTest(), sandbox.env({ OPENVIKING_URL: server.url }));
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.dispose();
  await server?.close();
});

/** The bodies of the proxy's tools/call requests for `tool`. */
function callBodies(tool: string): string[] {
  return server
    .requests({ method: 'POST', path: '/mcp' })
    .filter((request) => (request.body as { method?: string; params?: { name?: string } })?.params?.name === tool)
    .map((request) => request.rawBody);
}

describe('the MCP proxy filters what the model stores and searches', () => {
  it('remember: private sections dropped, secrets redacted, the rest stored', async () => {
    await proxy.client.callTool({
      name: 'remember',
      arguments: {
        messages: [
          {
            role: 'user',
            content: `the pelican service needs GITHUB_TOKEN=${GITHUB} <private>${PRIVATE_NOTE}</private>`,
          },
          { role: 'assistant', content: `noted; DB_PASSWORD=${DB_PASSWORD} and key ${OPENAI}` },
        ],
      },
    });
    const [body] = callBodies('remember');
    expect(body).toContain('the pelican service needs GITHUB_TOKEN=[REDACTED:');
    expect(body).toContain('noted; DB_PASSWORD=[REDACTED:password]');
    for (const secret of SECRETS) expect(body?.includes(secret), secret).toBe(false);
  });

  it('write and edit: content and replacement text filtered; old_string untouched', async () => {
    await proxy.client.callTool({
      name: 'write',
      arguments: {
        uri: 'viking://user/default/memories/entities/default/deploy.md',
        content: `deploy with aws ${AWS_ID} <private>${PRIVATE_NOTE}</private>`,
      },
    });
    await proxy.client.callTool({
      name: 'edit',
      arguments: {
        uri: 'viking://user/default/memories/entities/default/notes.md',
        old_string: 'old line',
        new_string: `new line ${OPENAI}`,
      },
    });
    const [write] = callBodies('write');
    const [edit] = callBodies('edit');
    expect(write).toContain('deploy with aws [REDACTED:aws-access-key]');
    expect(edit).toContain('"old_string":"old line"');
    expect(edit).toContain('new line [REDACTED:openai-key]');
    const read = await proxy.client.callTool({
      name: 'read',
      arguments: { uris: 'viking://user/default/memories/entities/default/notes.md' },
    });
    expect(JSON.stringify(read.content)).toContain('new line [REDACTED:openai-key]');
  });

  it('search: the query leaves without its private text and secrets', async () => {
    await proxy.client.callTool({
      name: 'search',
      arguments: { query: `pelican deploy <private>${PRIVATE_NOTE}</private> ${GITHUB}` },
    });
    const [body] = callBodies('search');
    expect(body).toContain('pelican deploy');
    for (const secret of [PRIVATE_NOTE, GITHUB]) expect(body?.includes(secret), secret).toBe(false);
  });

  it('nothing the proxy sent holds a secret; other calls pass as they were', async () => {
    const all = server
      .requests()
      .map((request) => `${request.path} ${JSON.stringify(request.query)} ${request.rawBody}`)
      .join('\n');
    for (const secret of SECRETS) expect(all.includes(secret), secret).toBe(false);
    const list = await proxy.client.callTool({
      name: 'list',
      arguments: { uri: 'viking://user/default/memories/entities/default' },
    });
    expect(JSON.stringify(list.content)).toContain('deploy.md');
  });
});
