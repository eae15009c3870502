/**
 * The command line of `node scripts/hook.mjs` for people (issue 30 item 5):
 * `--help` / `help [command]` / `<command> --help` print usage and exit 0,
 * `--version` the version; an unknown command or flag is an error (exit 2)
 * that names the nearest valid one; then the command runs with its parsed
 * values (commandArgs.ts), and a problem it finds in them (`--since` not a
 * date) is printed with the same usage, exit 2. Everything it knows comes
 * from the table in commands.ts.
 *
 * A lazy module of its own (scripts/lazy/cli.cjs): hooks, whose argv is
 * empty, never load it.
 *
 * @module
 */
import type { StageDeps } from '../protocol/stage.js';
import { nearestName } from '../util/nearest.js';
import { PLUGIN_VERSION } from '../version.js';
import { parseCommandArgs } from './commandArgs.js';
import { COMMANDS, type CommandIo, type CommandResult, type CommandSpec, type FlagSpec } from './commands.js';

/** What the command line asks of main.ts: the output, its stream and the exit code. */
export interface CommandLineResult extends CommandResult {
  /** Usage errors go to stderr. */
  stderr?: string;
}

const PROGRAM = 'node scripts/hook.mjs';
const HELP_WORDS = new Set(['--help', '-h', 'help']);
const VERSION_WORDS = new Set(['--version', '-V', 'version']);

/** Runs `argv` (everything after the script's name; never empty: that is a hook event). */
export async function runCommandLine(
  argv: readonly string[],
  deps: () => StageDeps,
  io: CommandIo = {},
): Promise<CommandLineResult> {
  const [first = '', ...rest] = argv;
  if (HELP_WORDS.has(first)) {
    if (rest[0] === undefined) return { text: usage(), code: 0 };
    const command = find(rest[0]);
    return command === undefined ? unknownCommand(rest[0]) : { text: commandUsage(command), code: 0 };
  }
  if (VERSION_WORDS.has(first)) return { text: `openviking-codebuddy ${PLUGIN_VERSION}\n`, code: 0 };
  const command = find(first);
  if (command === undefined) return unknownCommand(first);
  const parsed = parseCommandArgs(command, rest);
  if ('help' in parsed) return { text: commandUsage(command), code: 0 };
  if ('problem' in parsed) return usageError(command, parsed.problem);
  const result = await command.run(parsed, deps(), io);
  return result.usage === undefined ? result : usageError(command, `${command.name}: ${result.usage}`);
}

/** A usage error: the problem, the command's synopsis, where to read more; exit 2. */
function usageError(command: CommandSpec, problem: string): CommandLineResult {
  return { text: '', stderr: `${problem}\n${synopsis(command)}\nMore: ${PROGRAM} ${command.name} --help\n`, code: 2 };
}

function find(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

function unknownCommand(name: string): CommandLineResult {
  const near = nearestName(
    name,
    COMMANDS.map((command) => command.name),
  );
  const what = name.startsWith('-') ? 'option' : 'command';
  return {
    text: '',
    stderr: `${PROGRAM}: unknown ${what} "${name}"${near ? `; did you mean "${near}"?` : ''}\nRun \`${PROGRAM} --help\` for the commands.\n`,
    code: 2,
  };
}

function synopsis(command: CommandSpec): string {
  const flags = command.flags.map(
    (flag) => `[${flagUsage(flag)}]${flag.type === 'string' && flag.repeatable ? '…' : ''}`,
  );
  return `usage: ${[PROGRAM, command.name, ...flags, ...(command.operands ? [command.operands] : [])].join(' ')}`;
}

/** `--json`, `--since YYYY-MM-DD`. */
function flagUsage(flag: FlagSpec): string {
  return flag.type === 'string' ? `${flag.name} ${flag.value}` : flag.name;
}

function commandUsage(command: CommandSpec): string {
  const lines = [synopsis(command), '', command.summary];
  if (command.slash) lines.push(`In a session: ${command.slash}`);
  if (command.flags.length > 0) {
    lines.push('', 'Options:');
    const width = Math.max(...command.flags.map((flag) => flagUsage(flag).length));
    for (const flag of command.flags)
      lines.push(
        `  ${flagUsage(flag).padEnd(width)}  ${flag.about}${flag.type === 'string' && flag.repeatable ? ' (may be repeated)' : ''}`,
      );
    const valued = command.flags.find((flag) => flag.type === 'string');
    if (valued) lines.push('', `A value may also follow its option after "=": ${flagUsage(valued).replace(' ', '=')}.`);
  }
  return `${lines.join('\n')}\n`;
}

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    `openviking-codebuddy ${PLUGIN_VERSION}: long-term memory for CodeBuddy Code and Claude Code, backed by OpenViking.`,
    '',
    `usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    `${PROGRAM} <command> --help shows a command's options; --version the version.`,
    'Without a command it reads a hook event on stdin: that is how the hosts run it (hooks/hooks.json).',
    '',
  ].join('\n');
}
