/**
 * The commands a person runs: `node scripts/hook.mjs <command> [options]`.
 * This table is the one place a command is declared: the usage screen,
 * `--help`, the parse of its options (node's `util.parseArgs`, built from
 * the table: commandArgs.ts), the "did you mean" of a typo all come from it
 * (cli.ts), and each entry hands its command typed values, so no command
 * reads its arguments again. Adding a command is one entry here; its code
 * stays behind the `import()` of its `run`, so nothing of it loads for
 * another command or on a hook's path.
 *
 * The plugin's own run modes (`resident`, `worker`, `detached`, and no
 * argument at all: a hook event on stdin) are not commands for people and
 * are dispatched by main.ts before this table is loaded.
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import type { Terminal } from '../import/progress.js';

/**
 * An option of a command, as the table declares it: the parse (`util.parseArgs`
 * takes `type` and `repeatable` as its `type` and `multiple`), the usage line
 * and `--help` all read it from here.
 */
export type FlagSpec = BooleanFlag | StringFlag;

interface FlagBase {
  /** `--json`. */
  name: string;
  /** Its line in `--help`. */
  about: string;
}

/** An option that takes no value (`--json`); given or not. */
export interface BooleanFlag extends FlagBase {
  type: 'boolean';
}

/** An option with a value: `--since DATE` and `--since=DATE` alike. */
export interface StringFlag extends FlagBase {
  type: 'string';
  /** The value's name in the usage (`ID`). */
  value: string;
  /** May be given more than once (its values, in order); otherwise a second one is a usage error. */
  repeatable?: true;
}

export interface CommandResult {
  /** What goes to stdout (empty when the command wrote its own output). */
  text: string;
  code: number;
  /** A problem with the arguments only the command can see (`--since` not a date): printed with the usage, exit 2. */
  usage?: string;
}

/** What a command may write to besides its result (main.ts gives the process's stderr). */
export interface CommandIo {
  stderr?: Terminal;
}

/** A command's arguments, parsed against its flags (commandArgs.ts). */
export interface CommandArgs {
  /** By flag name without the dashes (`session`): its value (a repeatable flag's in order), or true for a boolean; absent when not given. */
  values: Readonly<Record<string, string | true | readonly string[]>>;
  /** The words besides the flags, in order (only for a command with `operands`). */
  operands: readonly string[];
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
  /** Runs it with its parsed arguments. */
  run(args: CommandArgs, deps: StageDeps, io: CommandIo): Promise<CommandResult>;
}

/** A flag's value, when it was given one. */
function text(args: CommandArgs, flag: string): string | undefined {
  const value = args.values[flag];
  return typeof value === 'string' ? value : undefined;
}

/** True when the flag was given. */
function on(args: CommandArgs, flag: string): boolean {
  return args.values[flag] === true;
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'doctor',
    summary: 'check the configuration, server, identity, MCP tools, local state and hooks; the fix for each problem',
    flags: [{ name: '--json', type: 'boolean', about: 'the same report as JSON, for scripts' }],
    slash: '/openviking:doctor',
    run: async (args, deps) => ({
      text: '',
      code: await (await import('../doctor/main.js')).runDoctor({ json: on(args, 'json') }, deps),
    }),
  },
  {
    name: 'why',
    summary: 'what the plugin injected into a session: the start block and each recall, with URIs',
    flags: [
      {
        name: '--session',
        type: 'string',
        value: 'ID',
        about: "that session (default: this host's session, else the newest here)",
      },
    ],
    slash: '/openviking:why',
    run: async (args, deps) =>
      (await import('../controls/main.js')).runControl({ name: 'why', session: text(args, 'session') }, deps),
  },
  {
    name: 'recall-preview',
    summary: 'what recall would inject for a query in this folder, with scores and URIs (nothing is recorded)',
    operands: '<query…>',
    flags: [
      {
        name: '--new-query-file',
        type: 'boolean',
        about: 'make a private file to write the query into (used by /openviking:recall)',
      },
      { name: '--query-id', type: 'string', value: 'ID', about: 'read the query from that file, then remove it' },
    ],
    slash: '/openviking:recall',
    run: async (args, deps) =>
      (await import('../controls/main.js')).runControl(
        {
          name: 'recall-preview',
          newQueryFile: on(args, 'new-query-file'),
          queryId: text(args, 'query-id'),
          query: args.operands.join(' ').trim(),
        },
        deps,
      ),
  },
  {
    name: 'learned',
    summary: 'what the recent sessions of this folder taught: memories extracted per session, pending or failed',
    flags: [],
    slash: '/openviking:learned',
    run: async (_args, deps) => (await import('../controls/main.js')).runControl({ name: 'learned' }, deps),
  },
  {
    name: 'import',
    summary: "bring past CodeBuddy and Claude Code sessions of this folder's workspace into memory, each once",
    flags: [
      { name: '--all', type: 'boolean', about: 'every workspace, not only this one' },
      {
        name: '--dry-run',
        type: 'boolean',
        about: 'list what would be sent (sessions, turns, bytes per workspace); send nothing',
      },
      {
        name: '--since',
        type: 'string',
        value: 'YYYY-MM-DD',
        about: 'only sessions written on or after that day (local midnight)',
      },
      {
        name: '--background',
        type: 'boolean',
        about: 'run on its own and return at once (progress: --status, or the status line)',
      },
      { name: '--status', type: 'boolean', about: 'how the running import is doing, or what the last one did' },
    ],
    slash: '/openviking:import',
    run: async (args, deps, io) =>
      (await import('../import/main.js')).runImport(
        {
          all: on(args, 'all'),
          dryRun: on(args, 'dry-run'),
          since: text(args, 'since'),
          background: on(args, 'background'),
          status: on(args, 'status'),
        },
        deps,
        io.stderr,
      ),
  },
  {
    name: 'trust',
    summary:
      "approve the project peer this folder's committed .openviking/config.json names (for this folder and that content)",
    flags: [{ name: '--revoke', type: 'boolean', about: 'take the approval back: the derived peer is used again' }],
    slash: '/openviking:trust',
    run: async (args, deps) =>
      (await import('../controls/main.js')).runControl({ name: 'trust', revoke: on(args, 'revoke') }, deps),
  },
  {
    name: 'requeue-dead',
    summary: 'put the writes that were given up back in the queue and replay them (once their cause is fixed)',
    flags: [],
    run: async (_args, deps) => (await import('../capture/worker.js')).runRequeueDead(deps),
  },
];
