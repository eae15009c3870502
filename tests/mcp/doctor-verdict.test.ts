/**
 * Doctor's MCP verdict is the proxy's outcome (issue 41 item 2, DESIGN D41).
 * Doctor once offered protocol 2025-06-18 where the proxy's SDK offers the
 * newest, and sent only a configured peer where the proxy sends the
 * workspace project's; a server that told the two apart passed doctor and
 * failed the tools, or the other way round. Here a gate, a small HTTP server
 * in front of the test server, refuses the `/mcp` POSTs one rule picks
 * (everything else it forwards as it came), and the BUILT proxy and doctor
 * meet it from the same workspace: for each rule the proxy's tool call and
 * doctor's MCP check must come out the same. Each rule comes in both
 * directions: one refuses what the proxy sends (both must fail), one refuses
 * what the old doctor sent and takes what the proxy sends (both must pass).
 *
 * @module
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRemoteVariable } from '../../src/project/peerTemplate.js';
import { isRecord, parseJson } from '../../src/util/json.js';
import { checkOf, parseReport, runDoctorInProcess } from '../doctor/support.js';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { connectThroughProxy, makeRepoWorkspace, makeSandbox, proxyUnderTest } from './support/harness.js';
import type { Sandbox } from './support/harness.js';

const REMOTE = 'git@github.com:acme/verdict-project.git';
const PEER = gitRemoteVariable(REMOTE);
/** The revision the old doctor offered. */
const OLD_DOCTOR_REVISION = '2025-06-18';

/** One `/mcp` POST as the gate sees it. */
interface McpPost {
  headers: IncomingHttpHeaders;
  method: unknown;
  protocolVersion: unknown;
}

/** Why the gate refuses a POST (HTTP 400 or 403 with a JSON-RPC error), or undefined to forward it. */
type Rule = (post: McpPost) => { status: number; message: string } | undefined;

interface Gate {
  url: string;
  refused: () => number;
  close(): Promise<void>;
}

/** A server in front of `target`: `/mcp` POSTs that `rule` refuses are answered by it, the rest go through. */
async function startGate(target: string, rule: Rule): Promise<Gate> {
  const upstream = new URL(target);
  let refused = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && (req.url ?? '').startsWith('/mcp')) {
        const message = parseJson(body.toString('utf8'));
        const params = isRecord(message) && isRecord(message['params']) ? message['params'] : {};
        const refusal = rule({
          headers: req.headers,
          method: isRecord(message) ? message['method'] : undefined,
          protocolVersion: params['protocolVersion'],
        });
        if (refusal) {
          refused += 1;
          const error = { jsonrpc: '2.0', id: null, error: { code: -32600, message: refusal.message } };
          res.writeHead(refusal.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(error));
          return;
        }
      }
      // A connection of its own per request, hop-by-hop headers left behind (the hooks' transport asks `close`).
      const { connection: _asked, ...headers } = req.headers;
      const forward = request(
        {
          agent: false,
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...headers, host: upstream.host },
        },
        (answer) => {
          const { connection: _kept, ...answerHeaders } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, answerHeaders);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `initialize` offering anything but `revision` is refused, as a server that speaks only that one and will not negotiate. */
const onlyRevision =
  (revision: string): Rule =>
  (post) =>
    post.method === 'initialize' && post.protocolVersion !== revision
      ? { status: 400, message: `Bad Request: Unsupported protocol version: ${String(post.protocolVersion)}` }
      : undefined;

/** A request whose actor peer is not `peer` (or, for undefined, that names any peer) is refused. */
const onlyPeer =
  (peer: string | undefined): Rule =>
  (post) =>
    post.headers['x-openviking-actor-peer'] !== peer
      ? { status: 403, message: `actor peer ${String(post.headers['x-openviking-actor-peer'])} is not allowed` }
      : undefined;

const CASES: Array<{ name: string; rule: Rule; proxyWorks: boolean }> = [
  {
    name: 'a server that takes only the newest revision',
    rule: onlyRevision(LATEST_PROTOCOL_VERSION),
    proxyWorks: true,
  },
  {
    name: `a server that takes only ${OLD_DOCTOR_REVISION}`,
    rule: onlyRevision(OLD_DOCTOR_REVISION),
    proxyWorks: false,
  },
  { name: 'a server that wants the workspace project’s peer', rule: onlyPeer(PEER), proxyWorks: true },
  { name: 'a server that refuses any actor peer', rule: onlyPeer(undefined), proxyWorks: false },
];

let sandbox: Sandbox;
let workspace: string;
let ov: OvTestServer;

beforeAll(async () => {
  sandbox = await makeSandbox();
  workspace = await makeRepoWorkspace(sandbox, REMOTE);
  ov = await startOvServer();
});
afterAll(async () => {
  await ov.close();
  await sandbox.dispose();
});

/** True when a tool call through the built proxy, started in the workspace, succeeds. */
async function proxyOutcome(url: string): Promise<boolean> {
  const proxy = await connectThroughProxy(await proxyUnderTest(), sandbox.env({ OPENVIKING_URL: url }), workspace);
  try {
    const result = await proxy.client.callTool({ name: 'health', arguments: {} });
    return result.isError !== true;
  } catch {
    // The proxy answers an upstream failure as a JSON-RPC error, which the client throws.
    return false;
  } finally {
    await proxy.close();
  }
}

/** Doctor's MCP check run in the same workspace: pass, fail, or whatever else it said. */
async function doctorVerdict(url: string): Promise<string> {
  const run = await runDoctorInProcess({ json: true }, { OPENVIKING_URL: url }, sandbox.home, REPO_ROOT, workspace);
  const server = checkOf(parseReport(run), 'server');
  expect(server.status, `the REST side passes the gate: ${server.lines.join(' / ')}`).toBe('pass');
  return checkOf(parseReport(run), 'mcp').status;
}

describe('doctor’s MCP check comes out as the proxy’s tool call against the same server', () => {
  it.each(CASES)(
    '$name',
    async ({ rule, proxyWorks }) => {
      const gate = await startGate(ov.url, rule);
      try {
        const proxied = await proxyOutcome(gate.url);
        expect(proxied, 'the proxy’s outcome').toBe(proxyWorks);
        expect(await doctorVerdict(gate.url), 'doctor’s MCP verdict').toBe(proxied ? 'pass' : 'fail');
        // The rule was met at all: a refusing rule refused, a passing one let the proxy through.
        if (!proxyWorks) expect(gate.refused()).toBeGreaterThan(0);
      } finally {
        await gate.close();
      }
    },
    30_000,
  );
});
