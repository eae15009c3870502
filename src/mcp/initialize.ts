/**
 * The proxy's own answer to the host's `initialize`, built without waiting
 * for OpenViking.
 *
 * CodeBuddy waits for its MCP servers before the first model request
 * (codebuddy-host README §1), and a cold upstream handshake costs the SDK's
 * load time plus a round trip. So `initialize` is answered locally: the
 * capabilities mirror what the upstream advertised the last time it was
 * reached (remembered on disk, see snapshot.ts), else what OpenViking's
 * FastMCP endpoint advertises (tools, resources, prompts). `tools.listChanged`
 * is always on because the proxy itself announces when the tool list it
 * serves changes (e.g. after the server comes back; see proxy.ts).
 *
 * The revisions it negotiates with the host are the ones it speaks upstream
 * (handshake.ts).
 *
 * @module
 */
import { PROTOCOL_VERSIONS, speaksProtocolVersion } from './handshake.js';

/** What FastMCP advertises (it registers tool, resource and prompt handlers). */
export const DEFAULT_UPSTREAM_CAPABILITIES: Readonly<Record<string, unknown>> = Object.freeze({
  tools: {},
  resources: {},
  prompts: {},
});

/** The upstream's `initialize` answer, as far as the host's answer mirrors it. */
export interface UpstreamProfile {
  capabilities: Record<string, unknown>;
  instructions?: string;
}

export interface ServerInfo {
  name: string;
  version: string;
}

/** The host's requested version when supported, else our newest (MCP version negotiation). */
export function negotiateProtocolVersion(requested: unknown): string {
  return speaksProtocolVersion(requested) ? requested : PROTOCOL_VERSIONS[0];
}

/** The upstream's capabilities with `tools.listChanged` switched on. */
export function advertisedCapabilities(upstream: Record<string, unknown> | undefined): Record<string, unknown> {
  const base = upstream ?? DEFAULT_UPSTREAM_CAPABILITIES;
  const tools = base.tools;
  const toolCapability = typeof tools === 'object' && tools !== null ? (tools as Record<string, unknown>) : {};
  return { ...base, tools: { ...toolCapability, listChanged: true } };
}

/** The `initialize` result for the host. */
export function buildInitializeResult(
  params: Record<string, unknown> | undefined,
  profile: UpstreamProfile | undefined,
  serverInfo: ServerInfo,
): Record<string, unknown> {
  const result: Record<string, unknown> = {
    protocolVersion: negotiateProtocolVersion(params?.protocolVersion),
    capabilities: advertisedCapabilities(profile?.capabilities),
    serverInfo,
  };
  if (profile?.instructions) result.instructions = profile.instructions;
  return result;
}
