/**
 * Entry of `servers/mcp-proxy.mjs`, the stdio MCP server CodeBuddy starts
 * from the plugin's `.mcp.json` (one process per CLI run, cwd = workspace).
 *
 * The only file of the proxy that touches `process`: it hands the real
 * streams, environment, clock and `fetch` to `createProxy`, and turns the
 * end of stdin (how CodeBuddy says goodbye), SIGTERM and SIGINT into a clean
 * exit with code 0. Nothing but JSON-RPC is ever written to stdout.
 *
 * @module
 */
import { homedir } from 'node:os';
import { loadPluginConfig } from '../config/load.js';
import { PLUGIN_VERSION, USER_AGENT } from '../version.js';
import { createProxy } from './proxy.js';
import { proxyAwareFetch } from './proxyFetch.js';

/** How long the exit waits for stdout to drain. */
const EXIT_FLUSH_BUDGET_MS = 500;

function main(): void {
  const env = process.env;
  const homeDir = homedir();
  const proxy = createProxy({
    stdin: process.stdin,
    stdout: process.stdout,
    writeStderr: (text) => void process.stderr.write(text),
    // CodeBuddy passes stored plugin options as PLUGIN_OPT_<KEY>; without them, read where the CLI stores them.
    loadConfig: () => loadPluginConfig({ env, homeDir, readStoredOptions: true }),
    env,
    homeDir,
    // Through HTTP(S)_PROXY when the environment names one (DESIGN D20); the global fetch otherwise.
    fetch: proxyAwareFetch(env, (url, init) => fetch(url, init)),
    now: Date.now,
    serverInfo: { name: 'openviking', version: PLUGIN_VERSION },
    userAgent: USER_AGENT,
    workspace: process.cwd(),
  });

  // stdout carries JSON-RPC only: stray console output from any dependency goes to the stderr debug log.
  const toStderr = (...args: unknown[]) => proxy.log.debug('console output', { text: args.map(String).join(' ') });
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;

  const stop = () => void proxy.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // A bug must not take the server away from the host: log and carry on.
  process.on('uncaughtException', (error) => proxy.log.warn('uncaught exception', { error: error.message }));
  process.on('unhandledRejection', (reason) => proxy.log.warn('unhandled rejection', { error: String(reason) }));

  void proxy.closed.then(() => {
    const exit = () => process.exit(0);
    setTimeout(exit, EXIT_FLUSH_BUDGET_MS).unref();
    process.stdout.write('', exit);
  });
}

main();
