/**
 * What each host answers by itself in the module harness (index.ts):
 * - `claude-code` (Claude Code 2.1.332, FC9):
 *   `$.process.hookEnv()` with `CLAUDE_PID` and the other command-hook
 *   variables; nothing else beyond the common nouns (`$.http.fetch` and
 *   `$.mcp.call` must be stubbed by the test that expects them).
 * - `codebuddy` (CodeBuddy 2.163+, seed 003): no `hookEnv`; `$.http.fetch`
 *   and `$.process.run` answer `{ deny: '… is unavailable: …' }`.
 * `engineRow` is what `next(e)` of an AssistantMessage render gives.
 *
 * @module
 */
export type HostProfileName = 'claude-code' | 'codebuddy';

export const CLAUDE_PID = '31337';

interface Profile {
  ops: Record<string, (...args: any[]) => unknown>;
  engineRow: unknown;
}

export const PROFILES: Record<HostProfileName, Profile> = {
  'claude-code': {
    ops: {
      'process.hookEnv': () => ({
        CLAUDECODE: '1',
        CLAUDE_PID,
        CLAUDE_CODE_SESSION_ID: 'session-1',
        CLAUDE_PLUGIN_ROOT: '/plugins/openviking',
        CLAUDE_PLUGIN_DATA: '/home/u/.claude/plugins/data/openviking-inline',
      }),
    },
    engineRow: { type: 'engine', ref: 1 },
  },
  codebuddy: {
    ops: {
      'http.fetch': () => ({ deny: '$.http.fetch is unavailable: CodeBuddy Code does not open it to plugins' }),
      'process.run': () => ({ deny: '$.process.run is unavailable: CodeBuddy Code does not open it to plugins' }),
    },
    engineRow: { tree: { type: 'engine', ref: 1 } },
  },
};
