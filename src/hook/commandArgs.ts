/**
 * A command's arguments, read once, by node's `util.parseArgs` against the
 * command's flags in the table (commands.ts): `--flag value` and
 * `--flag=value` alike, `--` ending the options. The parse is lenient
 * (`strict: false`, with its tokens) so that every mistake is worded here,
 * naming the nearest valid flag, rather than in node's words: an unknown
 * flag, a value missing or given to a flag that takes none, a flag given
 * twice that the table does not declare repeatable, a word where the
 * command takes none. A command that takes words (`recall-preview
 * <query…>`) keeps a word that only looks like a short flag (`-x`), so a
 * query may start with a dash.
 *
 * Measured (DESIGN D41): `util.parseArgs` is in node's core, its two
 * internal modules load on the first parse only, and only a person's
 * command loads this file (scripts/lazy/cli.cjs): a hook never does.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { nearestName } from '../util/nearest.js';
import type { CommandArgs, CommandSpec, FlagSpec } from './commands.js';

/** What the arguments ask for: the command run with these values, its usage, or a usage error. */
export type ParsedCommandLine = CommandArgs | { help: true } | { problem: string };

/** The flag's name as `parseArgs` and the command's values know it: `--session` → `session`. */
export function flagKey(flag: FlagSpec): string {
  return flag.name.replace(/^--/, '');
}

/** Parses `args` (the words after the command's name) against `command`'s flags. */
export function parseCommandArgs(command: CommandSpec, args: readonly string[]): ParsedCommandLine {
  const options = Object.fromEntries(
    command.flags.map((flag) => [flagKey(flag), { type: flag.type, multiple: isRepeatable(flag) }] as const),
  );
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | true | string[]> = {};
  const operands: string[] = [];
  let keptIndex = -1;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') {
      operands.push(token.value);
      continue;
    }
    if (token.rawName === '--help' || token.rawName === '-h') return { help: true };
    const flag = token.rawName.startsWith('--')
      ? command.flags.find((candidate) => flagKey(candidate) === token.name)
      : undefined;
    if (flag === undefined) {
      // A query may start with a dash: a command that takes words keeps `-x` (once for a group `-xy`).
      if (command.operands !== undefined && !token.rawName.startsWith('--')) {
        if (token.index !== keptIndex) operands.push(args[token.index] as string);
        keptIndex = token.index;
        continue;
      }
      return { problem: unknownFlag(command, token.rawName) };
    }
    const problem = flagProblem(flag, token.value, token.inlineValue) ?? repeatProblem(flag, values);
    if (problem !== undefined) return { problem: `${command.name}: ${problem}` };
    const key = flagKey(flag);
    if (isRepeatable(flag)) values[key] = [...((values[key] as string[] | undefined) ?? []), token.value as string];
    else values[key] = token.value ?? true;
  }
  if (operands.length > 0 && command.operands === undefined)
    return {
      problem: `${command.name}: unexpected argument "${operands[0]}" (it takes ${command.flags.length > 0 ? 'only the options below' : 'no arguments'})`,
    };
  return { values, operands };
}

function isRepeatable(flag: FlagSpec): boolean {
  return flag.type === 'string' && flag.repeatable === true;
}

function unknownFlag(command: CommandSpec, name: string): string {
  const near = nearestName(
    name,
    command.flags.map((candidate) => candidate.name),
  );
  return `${command.name}: unknown option "${name}"${near ? `; did you mean "${near}"?` : ''}`;
}

/** Why a flag's value does not fit it: a string flag with none (or the next flag taken for it), or a value for a boolean. */
function flagProblem(flag: FlagSpec, value: string | undefined, inline: boolean | undefined): string | undefined {
  if (flag.type === 'boolean') return value === undefined ? undefined : `${flag.name} takes no value`;
  if (value === undefined || value === '' || (inline !== true && value.startsWith('--')))
    return `${flag.name} needs a value (${flag.value})`;
  return undefined;
}

/** A second `--session` is a mistake, not a choice (which one was meant?), unless the table says the flag repeats. */
function repeatProblem(flag: FlagSpec, values: Readonly<Record<string, unknown>>): string | undefined {
  return !isRepeatable(flag) && flagKey(flag) in values ? `${flag.name} may be given only once` : undefined;
}
