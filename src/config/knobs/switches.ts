/**
 * The switches: memory on or off as a whole, each automatic stage, and the
 * MCP tools (or the user's own MCP server the hints name instead). The
 * privacy switches among them carry `failClosed` (knobTypes.ts).
 *
 * One part of the knob table (index.ts assembles it, in the order of
 * docs/settings.md); a knob is defined in one part only.
 *
 * @module
 */
import type { KnobTable } from '../knobTypes.js';

export const SWITCH_KNOBS = {
  enabled: {
    env: 'OPENVIKING_MEMORY_ENABLED',
    type: 'bool',
    failClosed: false,
    default: true,
    description:
      'Master switch; off: nothing is sent at all (no recall, start read, capture, replay or MCP call; see README: Privacy).',
  },
  autoRecall: {
    env: 'OPENVIKING_AUTO_RECALL',
    type: 'bool',
    failClosed: false,
    default: true,
    description: 'Inject relevant memories before each prompt.',
  },
  autoCapture: {
    env: 'OPENVIKING_AUTO_CAPTURE',
    type: 'bool',
    failClosed: false,
    default: true,
    description:
      'Send each finished turn to OpenViking and commit it; off: nothing of the conversation is stored (no capture, no replay of queued turns, no commit); recall still follows `OPENVIKING_AUTO_RECALL`.',
  },
  autoProfile: {
    env: 'OPENVIKING_AUTO_PROFILE',
    type: 'bool',
    default: true,
    description: 'Inject the user profile and memory listing at session start.',
  },
  mcpEnabled: {
    env: 'OPENVIKING_MCP_ENABLED',
    type: 'bool',
    default: true,
    description:
      "Offer this plugin's MCP tools (`servers/mcp-proxy.mjs`); off (hooks only, for your own OpenViking MCP server): the proxy offers no tool and contacts nothing, and the hints (start and recall blocks, the guard's reason) name the tools of `OPENVIKING_MCP_SERVER` instead.",
  },
  mcpServer: {
    env: 'OPENVIKING_MCP_SERVER',
    type: 'string',
    // It goes into text the model reads (the blocks' tool lines, the guard's reason, the tools-off answer): a tool name's shape only (issue 29 item 3).
    shape: {
      pattern: /^(?:mcp__[A-Za-z0-9_-]{1,59}|(?!mcp__)[^\u0000-\u001f\u007f-\u009f<>]{1,64})$/,
      expected:
        'a server key (1-64 characters, no control character, < or >) or a tool-name prefix mcp__<letters, digits, _ or -> (at most 64 characters)',
    },
    default: 'openviking',
    description:
      "With `OPENVIKING_MCP_ENABLED` off: the key of your own OpenViking MCP server in the host's MCP settings; the hints call its tools `mcp__<key>__<tool>` on both hosts (a value starting with `mcp__` is taken as the tool-name prefix itself).",
  },
} satisfies Partial<KnobTable>;
