/**
 * What the host answers by itself in the module harness (index.ts): Claude
 * Code 2.1.332 as measured here (FC9), the one host that loads the module
 * (D31: only its manifest names it). `$.process.hookEnv()` gives `CLAUDE_PID`
 * and the other command-hook variables; nothing else beyond the common nouns
 * (`$.http.fetch` and `$.mcp.call` must be stubbed by the test that expects
 * them). No CodeBuddy profile: CodeBuddy never loads the module, and a
 * profile is a host measured here or one seed's documented API, never a
 * blend. `engineRow` is what `next(e)` of an AssistantMessage render gives.
 *
 * @module
 */
export type HostProfileName = 'claude-code';

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
};
