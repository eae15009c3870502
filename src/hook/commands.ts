/**
 * The commands a person runs: `node scripts/hook.mjs <command> [flags]`.
 * This table is the one place a command is declared: the usage screen,
 * `--help`, the check of its flags and the "did you mean" of a typo all
 * come from it (cli.ts). Adding a command is one entry here; its code stays
 * behind the `import()` of its `run`, so nothing of it loads for another
 * command or on a hook's path.
 *
 * The plugin's own run modes (`resident`, `worker`, `detached`, and no
 * argument at all: a hook event on stdin) are not commands for people and
 * are dispatched by main.ts before this table is loaded.
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import type { Terminal } from '../import/progress.js';

export interface FlagSpec {
  /** `--json`. */
  name: string;
  /** What follows the flag (`ID`), when it takes a value. */
  value?: string;
  about: string;
}

export interface CommandResult {
  /** What goes to stdout (empty when the command wrote its own output). */
  text: string;
  code: number;
}

/** What a command may write to besides its result (main.ts gives the process's stderr). */
export interface CommandIo {
  stderr?: Terminal;
}

export interface CommandSpec {
  name: string;
  /** One line for the usage screen. */
  summary: string;
  flags: readonly FlagSpec[];
  /** Words the command takes besides its flags (`<query…>`); absent: none. */
  operands?: string;
  /** The slash command that runs it in a session, if any. */
  slash?: string;
  /** Runs it with the arguments after its name (already checked against `flags`). */
  run(argv: readonly string[], deps: StageDeps, io: CommandIo): Promise<CommandResult>;
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'doctor',
    summary: 'check the configuration, server, identity, MCP tools, local state and hooks; the fix for each problem',
    flags: [{ name: '--json', about: 'the same report as JSON, for scripts' }],
    slash: '/openviking:doctor',
    run: async (argv, deps) => ({ text: '', code: await (await import('../doctor/main.js')).runDoctor(argv, deps) }),
  },
  {
    name: 'why',
    summary: 'what the plugin injected into a session: the start block and each recall, with URIs',
    flags: [
      { name: '--session', value: 'ID', about: "that session (default: this host's session, else the newest here)" },
    ],
    slash: '/openviking:why',
    run: async (argv, deps) => (await import('../controls/main.js')).runControl('why', argv, deps),
  },
  {
    name: 'recall-preview',
    summary: 'what recall would inject for a query in this folder, with scores and URIs (nothing is recorded)',
    operands: '<query…>',
    flags: [
      { name: '--new-query-file', about: 'make a private file to write the query into (used by /openviking:recall)' },
      { name: '--query-id', value: 'ID', about: 'read the query from that file, then remove it' },
    ],
    slash: '/openviking:recall',
    run: async (argv, deps) => (await import('../controls/main.js')).runControl('recall-preview', argv, deps),
  },
  {
    name: 'learned',
    summary: 'what the recent sessions of this folder taught: memories extracted per session, pending or failed',
    flags: [],
    slash: '/openviking:learned',
    run: async (argv, deps) => (await import('../controls/main.js')).runControl('learned', argv, deps),
  },
  {
    name: 'import',
    summary: "bring past CodeBuddy and Claude Code sessions of this folder's workspace into memory, each once",
    flags: [
      { name: '--all', about: 'every workspace, not only this one' },
      { name: '--dry-run', about: 'list what would be sent (sessions, turns, bytes per workspace); send nothing' },
      { name: '--since', value: 'YYYY-MM-DD', about: 'only sessions written on or after that day (local midnight)' },
      { name: '--background', about: 'run on its own and return at once (progress: --status, or the status line)' },
      { name: '--status', about: 'how the running import is doing, or what the last one did' },
    ],
    slash: '/openviking:import',
    run: async (argv, deps, io) => (await import('../import/main.js')).runImport(argv, deps, io.stderr),
  },
  {
    name: 'trust',
    summary:
      "approve the project peer this folder's committed .openviking/config.json names (for this folder and that content)",
    flags: [{ name: '--revoke', about: 'take the approval back: the derived peer is used again' }],
    slash: '/openviking:trust',
    run: async (argv, deps) => (await import('../controls/main.js')).runControl('trust', argv, deps),
  },
  {
    name: 'requeue-dead',
    summary: 'put the writes that were given up back in the queue and replay them (once their cause is fixed)',
    flags: [],
    run: async (argv, deps) => (await import('../capture/worker.js')).runRequeueDead(argv, deps),
  },
];
