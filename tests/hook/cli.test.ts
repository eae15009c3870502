/**
 * The command line of the built `scripts/hook.mjs` (issue 30 item 5): on
 * 4953f41 `--help`, `help`, `--version`, `doctr` and `requeue-ded` printed
 * nothing and exited 0 (they fell through to reading a hook event), and
 * `why --sesion x` ignored the typo. Now usage on request, and an unknown
 * command or flag is an error naming the nearest valid one; all of it comes
 * from one table (src/hook/commands.ts).
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/hook/commands.js';
import { PLUGIN_VERSION } from '../../src/version.js';
import { spawnHook, type ProcessRun } from '../support/spawn-hook.js';
import { freshHome } from '../doctor/support.js';

async function cli(...args: string[]): Promise<ProcessRun> {
  const home = freshHome();
  return spawnHook({
    args,
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, OPENVIKING_URL: 'http://127.0.0.1:9' },
    stdin: '',
    timeoutMs: 20_000,
  });
}

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

  it('a query may still start with a dash', async () => {
    const run = await cli('recall-preview', '-x', 'marks');
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Recall preview for: -x marks');
  });
});
