/**
 * The identity headers have one owner, openviking/identityHeaders.ts
 * (issue 41 item 3, DESIGN D41): who a request speaks as reaches the server
 * the same way from the hook side's REST client, the MCP proxy's upstream
 * fetch and doctor's probe of `/mcp`. Pinned here for each identity shape
 * the plugin is configured with (dev mode without a key, a root key with
 * account and user, a user key, a peer id): first the owner's own answer,
 * then what each of the three sends, as the test server logged it. And no
 * other file under src/ spells the header names, so a fourth builder cannot
 * come back unseen.
 *
 * @module
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PluginConfig } from '../../src/config/types.js';
import { loadPluginConfig } from '../../src/config/load.js';
import { checkMcp } from '../../src/doctor/mcpCheck.js';
import { initializeParams } from '../../src/mcp/handshake.js';
import { identityFetchFor } from '../../src/mcp/identityFetch.js';
import { IDENTITY_HEADER_NAMES, identityHeaders, type IdentityFields } from '../../src/openviking/identityHeaders.js';
import { clientFor } from '../../src/session/stageContext.js';
import { USER_AGENT } from '../../src/version.js';
import { inProcessDeps } from '../doctor/support.js';
import { startOvServer, type LoggedRequest, type OvTestServer } from '../support/ov-server/index.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

interface Shape {
  name: string;
  /** The configuration, as the environment gives it. */
  env: Record<string, string>;
  /** The same identity as the owner's fields. */
  fields: IdentityFields;
  /** The identity headers every request carries, lower-cased as the server reads them. */
  expected: Record<string, string>;
}

const SHAPES: Shape[] = [
  { name: 'dev mode, no key', env: {}, fields: {}, expected: {} },
  {
    name: 'a root key with account and user',
    env: { OPENVIKING_API_KEY: 'root-key-1', OPENVIKING_ACCOUNT: 'acme', OPENVIKING_USER: 'alice' },
    fields: { apiKey: 'root-key-1', account: 'acme', user: 'alice' },
    expected: { authorization: 'Bearer root-key-1', 'x-openviking-account': 'acme', 'x-openviking-user': 'alice' },
  },
  {
    name: 'a user key',
    env: { OPENVIKING_API_KEY: 'user-key-1' },
    fields: { apiKey: 'user-key-1' },
    expected: { authorization: 'Bearer user-key-1' },
  },
  {
    name: 'a user key and a peer id',
    env: { OPENVIKING_API_KEY: 'user-key-1', OPENVIKING_PEER_ID: 'peer.one' },
    fields: { apiKey: 'user-key-1', actorPeer: 'peer.one' },
    expected: { authorization: 'Bearer user-key-1', 'x-openviking-actor-peer': 'peer.one' },
  },
];

/** The identity headers of a logged request (the server's view: lower-case names). */
function identityOf(request: LoggedRequest | undefined): Record<string, string> {
  if (request === undefined) throw new Error('the request never reached the server');
  const found: Record<string, string> = {};
  for (const name of IDENTITY_HEADER_NAMES.map((header) => header.toLowerCase())) {
    const value = request.headers[name];
    if (value !== undefined) found[name] = value;
  }
  return found;
}

const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

describe('the owner: identityHeaders', () => {
  it.each(SHAPES)('$name', ({ fields, expected }) => {
    expect(lowerCased(identityHeaders(fields))).toEqual(expected);
  });

  it('trims every value and sends none that is empty', () => {
    expect(identityHeaders({ apiKey: '  ', account: ' acme ', user: '', actorPeer: ' p ' })).toEqual({
      'X-OpenViking-Account': 'acme',
      'X-OpenViking-Actor-Peer': 'p',
    });
    expect(identityHeaders({ apiKey: ' k ' })).toEqual({ Authorization: 'Bearer k' });
  });
});

describe('what the REST client, the MCP proxy’s fetch and doctor send, per shape', () => {
  let server: OvTestServer;
  let home: string;
  /** A folder outside any repository: its project has no peer of its own, so the configured one (if any) is sent. */
  let workspace: string;

  beforeAll(async () => {
    server = await startOvServer();
    home = mkdtempSync(join(tmpdir(), 'ov-identity-home-'));
    workspace = mkdtempSync(join(tmpdir(), 'ov-identity-workspace-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  const configFor = (shape: Shape): PluginConfig =>
    loadPluginConfig({ env: { HOME: home, OPENVIKING_URL: server.url, ...shape.env }, homeDir: home });

  it.each(SHAPES)(
    '$name',
    async (shape) => {
      const config = configFor(shape);
      const deps = inProcessDeps({}, home, REPO_ROOT, workspace);
      server.clearRequests();

      // The hook side's REST client: a tenant route carries the peer, a session route never does.
      const client = clientFor(config, deps, 5000);
      expect((await client.systemStatus()).ok).toBe(true);
      await client.getSession('identity-session');
      expect(identityOf(server.requests({ path: '/api/v1/system/status' })[0]), 'REST').toEqual(shape.expected);
      const withoutPeer = Object.fromEntries(
        Object.entries(shape.expected).filter(([name]) => name !== 'x-openviking-actor-peer'),
      );
      expect(identityOf(server.requests({ path: '/api/v1/sessions/identity-session' })[0]), 'REST session').toEqual(
        withoutPeer,
      );

      // The MCP proxy's upstream fetch, as upstream.ts builds it for the SDK.
      const proxyFetch = identityFetchFor({
        config: { current: () => config, refresh: () => false },
        fetch: (url, init) => fetch(url, init),
        userAgent: USER_AGENT,
        now: Date.now,
        project: { workspace, homeDir: home },
      });
      server.clearRequests();
      const answer = await proxyFetch(config.credentials.mcpUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() }),
      });
      await answer.text();
      expect(answer.status).toBe(200);
      expect(identityOf(server.requests({ path: '/mcp' })[0]), 'MCP proxy').toEqual(shape.expected);

      // Doctor's probe of /mcp: every one of its requests.
      server.clearRequests();
      const check = await checkMcp({
        config,
        where: { workspace, homeDir: home },
        http: deps.http,
        userAgent: USER_AGENT,
        timeoutMs: 5000,
        now: Date.now,
      });
      expect(check.status).toBe('pass');
      const probes = server.requests({ path: '/mcp' });
      expect(probes.length).toBeGreaterThanOrEqual(3);
      for (const probe of probes) expect(identityOf(probe), 'doctor').toEqual(shape.expected);
    },
    20_000,
  );
});

/** What spells an identity header name (comments aside): the names, a quoted `Authorization` or raw `Authorization:`, a quoted `Bearer `. */
const HEADER_SPELLINGS = [
  /x-openviking-[a-z-]+/gi,
  /x-api-key/gi,
  /['"`]authorization['"`]/gi,
  /(?<![\w-])authorization:\s/gi,
  /['"`]bearer\s/gi,
];
const OWNER = 'src/openviking/identityHeaders.ts';
/** Files that spell a name for another reason than sending it. */
const NOT_HEADERS: Record<string, string> = {
  // The outbound filter's rule that redacts `Authorization:` lines in transcripts: its id, kind and keyword.
  'src/transcript/contextSecretRules.ts': "'authorization'",
};

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

describe('no file but the owner spells the identity header names', () => {
  it('src/ is searched for the names outside comments', () => {
    const found: string[] = [];
    const files = readdirSync(join(REPO_ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => relative(REPO_ROOT, join(REPO_ROOT, 'src', file)));
    expect(files).toContain(OWNER);
    for (const file of files) {
      if (file === OWNER) continue;
      const code = withoutComments(readFileSync(join(REPO_ROOT, file), 'utf8'));
      for (const spelling of HEADER_SPELLINGS)
        for (const match of code.matchAll(spelling))
          if (NOT_HEADERS[file]?.toLowerCase() !== match[0].toLowerCase()) found.push(`${file}: ${match[0]}`);
    }
    expect(found).toEqual([]);
    // The same search finds the owner's own spellings: the three names, the quoted `Authorization`, `Bearer `.
    const owner = withoutComments(readFileSync(join(REPO_ROOT, OWNER), 'utf8'));
    expect(HEADER_SPELLINGS.flatMap((spelling) => [...owner.matchAll(spelling)].map((match) => match[0]))).toEqual([
      'X-OpenViking-Account',
      'X-OpenViking-User',
      'X-OpenViking-Actor-Peer',
      "'Authorization'",
      '`Bearer ',
    ]);
  });
});
