/**
 * The OpenViking identity headers (openviking-api.md §1.2): who a request
 * speaks as. One owner for the REST client (client.ts), the MCP proxy's
 * upstream fetch (mcp/identityFetch.ts) and doctor's probe of `/mcp`
 * (doctor/mcpCheck.ts, through mcp/handshake.ts), so a key, account, user
 * or peer reaches the server the same way from each of them.
 *
 * Every value is trimmed and an empty one is not sent; the key goes as
 * `Authorization: Bearer` (the server also takes `X-API-Key`, which the
 * plugin never sends).
 *
 * @module
 */

/** Who a request speaks as. */
export interface IdentityFields {
  apiKey?: string | undefined;
  account?: string | undefined;
  user?: string | undefined;
  /** `X-OpenViking-Actor-Peer`: the project's peer (DESIGN D24); session routes leave it out. */
  actorPeer?: string | undefined;
}

/** The header names, in the spelling the plugin sends them. */
export const IDENTITY_HEADER_NAMES = [
  'Authorization',
  'X-OpenViking-Account',
  'X-OpenViking-User',
  'X-OpenViking-Actor-Peer',
] as const;

/** The identity headers for `fields`: only those with a value. */
export function identityHeaders(fields: IdentityFields): Record<string, string> {
  const headers: Record<string, string> = {};
  const key = fields.apiKey?.trim();
  const values = [key ? `Bearer ${key}` : undefined, fields.account, fields.user, fields.actorPeer];
  IDENTITY_HEADER_NAMES.forEach((name, index) => {
    const value = values[index]?.trim();
    if (value) headers[name] = value;
  });
  return headers;
}
