/**
 * The command line of the built `scripts/hook.mjs` (issue 30 item 5): on
 * 4953f41 `--help`, `help`, `--version`, `doctr` and `requeue-ded` printed
 * nothing and exited 0 (they fell through to reading a hook event), and
 * `why --sesion x` ignored the typo. Now usage on request, and an unknown
 * command or flag is an error naming the nearest valid one; all of it comes
 * from one table (src/hook/commands.ts).
 *
 * One parse (issue 41 item 1): the arguments were checked against the table,
 * then parsed again by each command, and the copies disagreed (`import
 * --since=2024-01-01` and `recall-preview --query-id=…` exited 2 with
 * "unknown option"). Now `util.parseArgs`, built from the table, hands each
 * command its values; every flag of every command is run below for what it
 * does, a value-taking one in both forms, `--flag value` and `--flag=value`;
 * and each mistake (an unknown option, a missing value, a flag given twice,
 * a malformed query id) exits 2 with the command's usage. The parse itself,
 * in process: tests/hook/command-args.test.ts.
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/hook/commands.js';
import { PLUGIN_VERSION } from '../../src/version.js';
import { pluginProcessesGone } from '../support/detached.js';
import { spawnHook, type ProcessRun } from '../support/spawn-hook.js';
import { freshHome } from '../doctor/support.js';

async function cli(...args: string[]): Promise<ProcessRun> {
  return cliIn(freshHome(), ...args);
}

async function cliIn(home: string, ...args: string[]): Promise<ProcessRun> {
  return spawnHook({
    args,
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' },
    stdin: '',
    timeoutMs: 20_000,
  });
}

/** A flag's two spellings with `value`: `--flag value` and `--flag=value`. */
const bothForms = (flag: string, value: string): string[][] => [[flag, value], [`${flag}=${value}`]];

/** What a flag does, seen from outside: it runs the command with it in a fresh HOME (cwd) and checks the effect. */
type FlagEffect = (home: string, flag: (value?: string) => string[][]) => Promise<void>;

/** One entry per flag of every command of the table (a flag without one fails the coverage test below). */
const EFFECTS: Record<string, FlagEffect> = {
  'doctor --json': async (home, flag) => {
    for (const args of flag()) {
      const run = await cliIn(home, 'doctor', ...args);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, checks: expect.any(Array) });
    }
  },
  'why --session': async (home, flag) => {
    for (const args of flag('sess-41')) {
      const run = await cliIn(home, 'why', ...args);
      expect(run).toMatchObject({ exitCode: 0, stderr: '' });
      expect(run.stdout).toMatch(/^Nothing recorded for session \S*sess-41\.\n$/);
    }
  },
  'recall-preview --new-query-file': async (home, flag) => {
    for (const args of flag()) {
      const run = await cliIn(home, 'recall-preview', ...args);
      expect(run.stdout).toMatch(/^query file: \S+recall-query-[0-9a-f]{16}\.txt\nquery id: [0-9a-f]{16}\n$/);
    }
  },
  'recall-preview --query-id': async (home) => {
    for (const form of [0, 1]) {
      const made = (await cliIn(home, 'recall-preview', '--new-query-file')).stdout;
      const [, path = '', id = ''] = /^query file: (\S+)\nquery id: (\S+)$/m.exec(made) ?? [];
      writeFileSync(path, `which editor form ${form}`);
      const run = await cliIn(home, 'recall-preview', ...(bothForms('--query-id', id)[form] as string[]));
      expect(run.stdout).toContain(`Recall preview for: which editor form ${form}`);
      expect(() => readFileSync(path)).toThrow(/ENOENT/);
    }
  },
  'import --all': async (home, flag) => {
    for (const args of flag()) {
      const run = await cliIn(home, 'import', '--dry-run', ...args);
      expect(run.stdout).toMatch(/^OpenViking import, dry run \(nothing is sent\): every workspace\n/);
    }
  },
  'import --dry-run': async (home, flag) => {
    for (const args of flag()) {
      const run = await cliIn(home, 'import', ...args);
      expect(run.stdout).toContain(`dry run (nothing is sent): ${home}\n`);
    }
  },
  'import --since': async (home, flag) => {
    for (const args of flag('2024-02-30')) {
      const run = await cliIn(home, 'import', ...args);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/^import: --since takes a date as YYYY-MM-DD \(got 2024-02-30\)\nusage: /);
    }
    for (const args of flag('2024-01-01')) {
      const run = await cliIn(home, 'import', '--dry-run', ...args);
      expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    }
  },
  'import --background': async (home, flag) => {
    for (const args of flag()) {
      const run = await cliIn(home, 'import', ...args);
      expect(run.stdout).toMatch(/^The import of \S+ runs in the background now/);
      expect(await pluginProcessesGone(home, 20_000)).toBe(true);
    }
  },
  'import --status': async (home, flag) => {
    for (const args of flag()) expect((await cliIn(home, 'import', ...args)).stdout).toMatch(/^No import has run/);
  },
  'trust --revoke': async (home, flag) => {
    for (const args of flag()) {
      const run = await cliIn(home, 'trust', ...args);
      expect(run.stdout).toBe(`${home} is no workspace: nothing to revoke.\n`);
    }
  },
};

describe('usage on request', () => {
  it.each(['--help', '-h', 'help'])('%s prints every command of the table and exits 0', async (flag) => {
    const run = await cli(flag);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('usage: node scripts/hook.mjs <command> [options]');
    for (const command of COMMANDS)
      expect(run.stdout).toMatch(new RegExp(`^  ${command.name} +${command.summary.slice(0, 20)}`, 'm'));
    expect(run.stderr).toBe('');
  });

  it('<command> --help and help <command> print its options', async () => {
    for (const args of [
      ['why', '--help'],
      ['help', 'why'],
    ]) {
      const run = await cli(...args);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain('usage: node scripts/hook.mjs why [--session ID]');
      expect(run.stdout).toMatch(/--session ID +that session/);
      expect(run.stdout).toContain('In a session: /openviking:why');
    }
  });

  it('--version prints the version', async () => {
    const run = await cli('--version');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(`openviking-codebuddy ${PLUGIN_VERSION}\n`);
  });
});

describe('mistakes are errors that name the nearest valid word', () => {
  it.each([
    [['doctr'], 'unknown command "doctr"; did you mean "doctor"?'],
    [['requeue-ded'], 'unknown command "requeue-ded"; did you mean "requeue-dead"?'],
    [['recall'], 'unknown command "recall"'],
    [['--frobnicate'], 'unknown option "--frobnicate"'],
    [['why', '--sesion', 'x'], 'why: unknown option "--sesion"; did you mean "--session"?'],
    [['doctor', '--jsn'], 'doctor: unknown option "--jsn"; did you mean "--json"?'],
    [
      ['recall-preview', '--query-di', '0123'],
      'recall-preview: unknown option "--query-di"; did you mean "--query-id"?',
    ],
    [['why', '--session'], 'why: --session needs a value (ID)'],
    [['requeue-dead', 'now'], 'requeue-dead: unexpected argument "now" (it takes no arguments)'],
  ])('%j', async (args, message) => {
    const run = await cli(...args);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });

  it.each(COMMANDS.map((command) => [command.name]))(
    '%s: an unknown option is exit 2 with the usage of the command',
    async (name) => {
      const run = await cli(name, '--frob=1');
      expect(run).toMatchObject({ exitCode: 2, stdout: '' });
      expect(run.stderr).toMatch(
        new RegExp(
          `^${name}: unknown option "--frob"\\nusage: node scripts/hook\\.mjs ${name}\\b.*\\nMore: node scripts/hook\\.mjs ${name} --help\\n$`,
        ),
      );
    },
  );

  it('the two forms reported in issue 41 reach the command: import --since=DATE, recall-preview --query-id=ID', async () => {
    const imported = await cli('import', '--since=2024-01-01');
    expect(imported.stderr).not.toContain('unknown option');
    expect(imported.stdout).toMatch(/^Nothing imported: the server does not answer/);
    for (const args of bothForms('--query-id', 'abc')) {
      const run = await cli('recall-preview', ...args);
      expect(run).toMatchObject({ exitCode: 2, stdout: '' });
      expect(run.stderr).toMatch(
        /^recall-preview: --query-id takes the 16 hex digits printed by --new-query-file, not "abc"\nusage: node scripts\/hook\.mjs recall-preview /,
      );
    }
  });

  it('a query may still start with a dash', async () => {
    const run = await cli('recall-preview', '-x', 'marks');
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Recall preview for: -x marks');
  });
});

describe('every flag of every command, in each of its forms (issue 41 item 1)', () => {
  const flags = COMMANDS.flatMap((command) => command.flags.map((flag) => ({ command, flag })));

  it('each flag of the table has its effect below', () => {
    expect(Object.keys(EFFECTS).sort()).toEqual(
      flags.map(({ command, flag }) => `${command.name} ${flag.name}`).sort(),
    );
  });

  it.each(flags.map(({ command, flag }) => [`${command.name} ${flag.name}`, flag.type] as const))(
    '%s',
    async (name, type) => {
      const effect = EFFECTS[name];
      if (effect === undefined) throw new Error(`no effect for ${name}`);
      const flag = name.split(' ')[1] as string;
      await effect(freshHome(), (given = 'x') => (type === 'boolean' ? [[flag]] : bothForms(flag, given)));
    },
    60_000,
  );

  it.each(flags.filter(({ flag }) => flag.type === 'boolean'))(
    '$command.name $flag.name takes no value: --flag=x is a usage error',
    async ({ command, flag }) => {
      const run = await cli(command.name, `${flag.name}=x`);
      expect(run).toMatchObject({ exitCode: 2, stdout: '' });
      expect(run.stderr).toMatch(new RegExp(`^${command.name}: ${flag.name} takes no value\\nusage: `));
    },
  );

  it.each(flags.flatMap(({ command, flag }) => (flag.type === 'string' ? [{ command, flag }] : [])))(
    '$command.name $flag.name needs a value: alone, empty after =, or followed by another flag',
    async ({ command, flag }) => {
      for (const args of [[flag.name], [`${flag.name}=`], [flag.name, '--help-me']]) {
        const run = await cli(command.name, ...args);
        expect(run, args.join(' ')).toMatchObject({ exitCode: 2, stdout: '' });
        expect(run.stderr).toContain(
          `${command.name}: ${flag.name} needs a value (${flag.value})\nusage: node scripts/hook.mjs ${command.name} `,
        );
      }
    },
  );

  it.each(flags.filter(({ flag }) => flag.type === 'boolean' || flag.repeatable !== true))(
    '$command.name $flag.name given twice is a usage error (it is not declared repeatable)',
    async ({ command, flag }) => {
      const once = flag.type === 'string' ? [`${flag.name}=1`, flag.name, '2'] : [flag.name, flag.name];
      const run = await cli(command.name, ...once);
      expect(run).toMatchObject({ exitCode: 2, stdout: '' });
      expect(run.stderr).toMatch(new RegExp(`^${command.name}: ${flag.name} may be given only once\\nusage: `));
    },
  );
});
