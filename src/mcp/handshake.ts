/**
 * The MCP handshake the plugin makes with OpenViking's `/mcp`, said once:
 * the protocol revisions it speaks, what it offers in `initialize` (the
 * newest revision, no client capabilities, its client info), which answer
 * it accepts, and the headers of every request (the identity of
 * openviking/identityHeaders.ts with the workspace project's peer, and the
 * User-Agent). The proxy's upstream session (sdkSession.ts through
 * identityFetch.ts) and doctor's probe (doctor/mcpCheck.ts) both take them
 * from here, so a server that would refuse the proxy refuses doctor too.
 *
 * The proxy's session runs on the MCP SDK, which sends its own
 * `LATEST_PROTOCOL_VERSION` and refuses an answer outside its
 * `SUPPORTED_PROTOCOL_VERSIONS`; `PROTOCOL_VERSIONS` is that list, written
 * here because the proxy answers the host's `initialize` before the SDK is
 * loaded (initialize.ts), and tests/mcp/handshake.test.ts fails the day the
 * SDK's list moves without it.
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import { identityHeaders } from '../openviking/identityHeaders.js';
import { projectFor } from '../project/identity.js';
import { PLUGIN_VERSION } from '../version.js';

/** Protocol revisions the plugin speaks, newest first: the first is offered, any is accepted. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

/** The revision `initialize` asks for. */
export const OFFERED_PROTOCOL_VERSION: string = PROTOCOL_VERSIONS[0];

/** Who the plugin says it is in `initialize` (`clientInfo`). */
export const MCP_CLIENT_INFO: Readonly<{ name: string; version: string }> = Object.freeze({
  name: 'openviking',
  version: PLUGIN_VERSION,
});

/** The client capabilities `initialize` declares: none (no sampling, roots or elicitation). */
export const MCP_CLIENT_CAPABILITIES: Readonly<Record<string, never>> = Object.freeze({});

/** `initialize`'s params, as the SDK builds them from the values above. */
export function initializeParams(): Record<string, unknown> {
  return {
    protocolVersion: OFFERED_PROTOCOL_VERSION,
    capabilities: { ...MCP_CLIENT_CAPABILITIES },
    clientInfo: { ...MCP_CLIENT_INFO },
  };
}

/** True when the plugin speaks `version` (an answer outside the list ends the handshake, as the SDK does). */
export function speaksProtocolVersion(version: unknown): version is string {
  return typeof version === 'string' && (PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** The workspace a request speaks for, and the home directory its project is looked up from. */
export interface McpWorkspace {
  workspace: string;
  homeDir: string;
}

/**
 * The actor peer of a request to `/mcp`: the workspace project's peer
 * (DESIGN D24: a configured peer, else a workspace file's, else the one
 * derived from the repository), or only a configured one without a workspace.
 */
export function mcpActorPeer(config: PluginConfig, where: McpWorkspace | undefined, now: number): string | undefined {
  // Cached per workspace and re-checked with a few stats (project/identity.ts): cheap on every POST.
  return where ? projectFor(config, where.workspace, where.homeDir, now).project.peerId : config.credentials.peerId;
}

/** The headers every request to `/mcp` carries besides the transport's own: identity and User-Agent (version.ts `USER_AGENT`). */
export function mcpRequestHeaders(
  config: PluginConfig,
  where: McpWorkspace | undefined,
  now: number,
  userAgent: string,
): Record<string, string> {
  const { credentials } = config;
  return {
    ...identityHeaders({
      apiKey: credentials.apiKey,
      account: credentials.account,
      user: credentials.user,
      actorPeer: mcpActorPeer(config, where, now),
    }),
    'User-Agent': userAgent,
  };
}
