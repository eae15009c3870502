/**
 * The one parse of a person's command line (hook/commandArgs.ts, DESIGN
 * D41), in process: every option of every command of the table in both
 * forms (`--flag value`, `--flag=value`) gives the command the same typed
 * value; each mistake comes back as a problem worded by the plugin (the
 * command line prints it with the usage, exit 2: tests/hook/cli.test.ts runs
 * the bundle). A repeatable option, which no command has yet, is taken from
 * a table made here.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { flagKey, parseCommandArgs } from '../../src/hook/commandArgs.js';
import { COMMANDS, type CommandSpec } from '../../src/hook/commands.js';

const flags = COMMANDS.flatMap((command) => command.flags.map((flag) => ({ command, flag })));

/** A command with every kind of option: boolean, string, repeatable string, and words. */
const PROBE: CommandSpec = {
  name: 'probe',
  summary: 'a command made for this test',
  operands: '<words…>',
  flags: [
    { name: '--loud', type: 'boolean', about: 'a boolean' },
    { name: '--tag', type: 'string', value: 'TAG', repeatable: true, about: 'a repeatable value' },
    { name: '--id', type: 'string', value: 'ID', about: 'a value' },
  ],
  run: () => Promise.reject(new Error('not run')),
};

describe('every option of every command', () => {
  it.each(flags.map(({ command, flag }) => [`${command.name} ${flag.name}`, command, flag] as const))(
    '%s: each form gives the same typed value',
    (_name, command, flag) => {
      const key = flagKey(flag);
      const forms = flag.type === 'string' ? [[flag.name, 'v-1'], [`${flag.name}=v-1`]] : [[flag.name]];
      for (const args of forms)
        expect(parseCommandArgs(command, args), args.join(' ')).toEqual({
          values: { [key]: flag.type === 'string' ? 'v-1' : true },
          operands: [],
        });
    },
  );

  it.each(
    flags.flatMap(({ command, flag }) =>
      flag.type === 'string' ? [[`${command.name} ${flag.name}`, command, flag] as const] : [],
    ),
  )('%s: a value after = is kept whole, = and dashes included', (_name, command, flag) => {
    expect(parseCommandArgs(command, [`${flag.name}=a=b --c`])).toEqual({
      values: { [flagKey(flag)]: 'a=b --c' },
      operands: [],
    });
  });

  it.each(COMMANDS.map((command) => [command.name, command] as const))(
    '%s: no option given, no values; --help and -h ask for the usage',
    (_name, command) => {
      expect(parseCommandArgs(command, [])).toEqual({ values: {}, operands: [] });
      expect(parseCommandArgs(command, ['--help'])).toEqual({ help: true });
      expect(parseCommandArgs(command, ['-h'])).toEqual({ help: true });
    },
  );
});

describe('mistakes come back as problems in the plugin’s words', () => {
  it.each([
    [['--lod'], 'probe: unknown option "--lod"; did you mean "--loud"?'],
    [['--frobnicate=1'], 'probe: unknown option "--frobnicate"'],
    [['--id'], 'probe: --id needs a value (ID)'],
    [['--id='], 'probe: --id needs a value (ID)'],
    [['--id', '--loud'], 'probe: --id needs a value (ID)'],
    [['--loud=yes'], 'probe: --loud takes no value'],
    [['--id', 'a', '--id=b'], 'probe: --id may be given only once'],
    [['--loud', '--loud'], 'probe: --loud may be given only once'],
  ])('%j', (args, problem) => {
    expect(parseCommandArgs(PROBE, args)).toEqual({ problem });
  });

  it('a word for a command that takes none', () => {
    const requeue = COMMANDS.find((command) => command.name === 'requeue-dead') as CommandSpec;
    expect(parseCommandArgs(requeue, ['now'])).toEqual({
      problem: 'requeue-dead: unexpected argument "now" (it takes no arguments)',
    });
    const doctor = COMMANDS.find((command) => command.name === 'doctor') as CommandSpec;
    expect(parseCommandArgs(doctor, ['now'])).toEqual({
      problem: 'doctor: unexpected argument "now" (it takes only the options below)',
    });
  });
});

describe('values, repeats and words', () => {
  it('a repeatable option gives its values in order, in either form', () => {
    expect(parseCommandArgs(PROBE, ['--tag', 'a', '--tag=b', '--loud', '--tag', 'c'])).toEqual({
      values: { tag: ['a', 'b', 'c'], loud: true },
      operands: [],
    });
  });

  it('words stay in order around the options; -- ends them; a short flag is a word', () => {
    expect(parseCommandArgs(PROBE, ['-x', 'one', '--id=7', 'two', '--', '--loud', '-h'])).toEqual({
      values: { id: '7' },
      operands: ['-x', 'one', 'two', '--loud', '-h'],
    });
    expect(parseCommandArgs(PROBE, ['-xy', 'z'])).toEqual({ values: {}, operands: ['-xy', 'z'] });
  });
});
