/**
 * What the MCP proxy answers, without contacting anything, when it must not
 * forward a call: memory is off for its folder (DESIGN D25), or this
 * plugin's tools are off (`mcpEnabled`, DESIGN D29). The texts reach the
 * agent as a tool's error result (and the user, in the transcript).
 *
 * @module
 */

/** What the agent (and the user) reads when memory is off for the proxy's folder. */
export function memoryOffText(reason: string): string {
  return `OpenViking memory is off here (${reason}): nothing was sent to the server. It works again once that switch is turned back on.`;
}

/** A forwarded call refused because memory is off here. */
export class MemoryOffError extends Error {
  constructor(readonly reason: string) {
    super(memoryOffText(reason));
    this.name = 'MemoryOffError';
  }
}

/** What the agent reads when this plugin's tools are off (`mcpEnabled`): why, and the user's own tool to call. */
export function toolsOffText(why: string, instead: string): string {
  return `This plugin's OpenViking MCP tools are off (${why}): nothing was sent. Use the same tool of your own OpenViking MCP server instead (${instead}).`;
}

/** A call refused because this plugin's tools are off. */
export class ToolsOffError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolsOffError';
  }
}
